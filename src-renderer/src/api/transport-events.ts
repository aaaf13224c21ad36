/**
 * What a transport knows that `window.api` does not say: in web mode, that the event socket has
 * (re)connected, after which events sent meanwhile are lost and the event bridge reads again. Kept
 * outside `window.api` so that its shape stays the contract's. The desktop preload never reconnects
 * and registers nothing.
 */

interface ConnectedInfo {
  /** False for the socket's first opening, true for every later one (after a drop). */
  reconnect: boolean;
}

export type ConnectedListener = (info: ConnectedInfo) => void;

/** Subscribes to the socket's (re)connections; answers the unsubscribe function. */
export type OnConnected = (listener: ConnectedListener) => () => void;

let source: OnConnected | null = null;

/** Called once by the code that installs `window.api` (main.tsx, for the web transport). */
export function registerTransportConnected(onConnected: OnConnected | null): void {
  source = onConnected;
}

export function transportConnected(): OnConnected | null {
  return source;
}
