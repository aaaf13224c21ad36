import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * Local stand-ins for every receiver alert delivery talks to, on 127.0.0.1: a webhook receiver
 * that verifies Standard Webhooks signatures with its own HMAC (node:crypto, not the package the
 * app signs with), Telegram's Bot API, ntfy, Slack/Discord incoming webhooks and an SMTP server.
 */

/**
 * The Standard Webhooks check, written from the spec: the secret is `whsec_` + base64; the
 * signature is `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`; the header may carry several,
 * space-separated.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers.id}.${headers.timestamp}.${body}`).digest();
  return headers.signature.split(' ').some((part) => {
    const [version, value = ''] = part.split(',');
    if (version !== 'v1') return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The injected clock's time when it arrived. */
  at: number;
}

/** An HTTP receiver that records requests; it can go down (refuse connections) and come back on its port. */
export class HttpReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** Answer this status instead of 2xx (e.g. 404, 429); null: succeed. */
  failWith: number | null = null;
  /** Hold the next request without answering and resolve `held` (the kill -9 test). */
  holdAt: number | null = null;
  private server: Server | null = null;
  private port = 0;
  private heldResolve: (() => void) | null = null;
  readonly held = new Promise<void>((resolve) => {
    this.heldResolve = resolve;
  });

  constructor(
    private readonly now: () => number,
    private readonly answer: (request: ReceivedRequest, response: ServerResponse) => void = (_r, res) =>
      res.writeHead(200).end('ok'),
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: this.now(),
        };
        this.requests.push(request);
        if (this.holdAt !== null && this.requests.length === this.holdAt) {
          this.heldResolve?.();
          return;
        }
        if (this.failWith !== null) {
          res.writeHead(this.failWith, { 'retry-after': '120' }).end('no');
          return;
        }
        this.answer(request, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Down: the port refuses connections until `start` again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  user: string | null;
}

/** An in-process SMTP server (`smtp-server`), plain (no TLS) on 127.0.0.1, with a user and password. */
export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  constructor(private readonly credentials: { user: string; pass: string }) {}

  async start(): Promise<void> {
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: false,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.credentials.user && auth.password === this.credentials.pass)
          callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: typeof session.user === 'string' ? session.user : null,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A mail's header value (unfolded). */
export function mailHeader(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded
    .split(/\r?\n/)
    .find((item) => item.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

/** A mail's text body, with quoted-printable soft breaks and escapes undone. */
export function mailText(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  return body
    .replace(/=\r?\n/g, '')
    .replace(/(=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
}
