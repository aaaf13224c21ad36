/**
 * The desktop renderer's Content-Security-Policy, sent as a response header by the `app://` protocol
 * handler (a header, unlike a `<meta>` tag, also covers the response that carries it and cannot be
 * dropped by editing the page). The renderer talks to main only over IPC, so nothing is fetched
 * from anywhere; QR codes are `data:` images. Web mode sends its own policy (it also needs its
 * WebSocket origin in `connect-src`).
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy under `electron-vite dev`: the same, except what hot reload needs (Vite's inline React
 * refresh preamble and its WebSocket back to the dev server). Still no remote script, no eval.
 */
export function developmentRendererCsp(devServerUrl: string): string {
  const server = new URL(devServerUrl);
  const socket = `${server.protocol === 'https:' ? 'wss' : 'ws'}://${server.host}`;
  return RENDERER_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    .replace("connect-src 'self'", `connect-src 'self' ${socket}`);
}

/** Response headers as `webRequest.onHeadersReceived` hands them over. */
type HeaderMap = Record<string, string[] | string>;

/**
 * A `webRequest.onHeadersReceived` listener that sets the policy on the dev server's answers (under
 * development the page does not come through `app://`, and Vite sends no policy of its own).
 * Any policy the server did send is replaced, whatever the case of its header name.
 */
export function developmentCspListener(
  policy: string,
): (
  details: { responseHeaders?: HeaderMap },
  callback: (response: { responseHeaders: HeaderMap }) => void,
) => void {
  return (details, callback) => {
    const headers: HeaderMap = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [policy];
    callback({ responseHeaders: headers });
  };
}
