import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedAlertView } from '../../../src-shared/contract';

/** What the receiver keeps: the latest messages, newest first. */
const KEPT = 50;
const BODY_MAX = 256 * 1024;

/** Checks a webhook's signature against the secrets of the channels that post here. */
export type LocalSignatureCheck = (
  headers: Record<string, string>,
  body: string,
) => Promise<ReceivedAlertView['signature']>;

/**
 * A receiver on 127.0.0.1 for trying alert delivery offline (the demo): it answers like a
 * webhook endpoint (`/webhook`, with the signature checked), Telegram's Bot API
 * (`/telegram/bot<token>/sendMessage`), an ntfy server (`/ntfy`) and Slack or Discord
 * incoming webhooks (`/slack`, `/discord`), and keeps what arrived for Settings to show.
 * Nothing leaves this computer.
 */
export class LocalAlertReceiver {
  private server: Server | null = null;
  private address: string | null = null;
  private readonly received: ReceivedAlertView[] = [];

  constructor(
    private readonly check: LocalSignatureCheck,
    private readonly now: () => number,
  ) {}

  get url(): string | null {
    return this.address;
  }

  messages(): ReceivedAlertView[] {
    return [...this.received];
  }

  async start(): Promise<string> {
    if (this.address) return this.address;
    const server = createServer((req, res) => {
      void this.receive(req).then(
        ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body),
        () => res.writeHead(400).end(),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.address;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.address = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async receive(req: IncomingMessage): Promise<{ status: number; body: string }> {
    const text = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://receiver').pathname;
    const kind = path.startsWith('/webhook')
      ? 'webhook'
      : /^\/telegram\/bot[^/]+\/sendMessage$/.test(path)
        ? 'telegram'
        : path === '/ntfy' || path.startsWith('/ntfy/')
          ? 'ntfy'
          : path === '/slack' || path === '/discord'
            ? path.slice(1)
            : null;
    if (req.method !== 'POST' || kind === null) return { status: 404, body: '{"error":"not found"}' };
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(',') : (value ?? ''),
      ]),
    );
    const entry = await this.describe(kind as ReceivedAlertView['kind'], headers, text);
    this.received.unshift(entry);
    this.received.splice(KEPT);
    if (kind === 'telegram') return { status: 200, body: '{"ok":true,"result":{"message_id":1}}' };
    return { status: 200, body: '{"ok":true}' };
  }

  private async describe(
    kind: ReceivedAlertView['kind'],
    headers: Record<string, string>,
    body: string,
  ): Promise<ReceivedAlertView> {
    const at = new Date(this.now()).toISOString();
    if (kind === 'webhook') {
      const type = typeOfBody(body);
      const signature = headers['webhook-signature'] ? await this.check(headers, body) : 'unsigned';
      return {
        at,
        kind,
        eventId: headers['webhook-id'] ?? null,
        eventType: type,
        text: body.slice(0, 2000),
        signature,
      };
    }
    const message = textOfBody(body);
    // Every message ends with `event <type> · id <id>` (message-text.ts).
    const named = /event (\S+) · id (\S+)/.exec(message);
    return {
      at,
      kind,
      eventId: named?.[2] ?? null,
      eventType: named?.[1] ?? null,
      text: message.slice(0, 2000),
      signature: 'unsigned',
    };
  }
}

function parsed(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function typeOfBody(body: string): string | null {
  const type = parsed(body)?.type;
  return typeof type === 'string' ? type : null;
}

/** Telegram's and Slack's `text`, Discord's `content`, ntfy's `message`, or a plain body. */
function textOfBody(body: string): string {
  const json = parsed(body);
  const text = json?.text ?? json?.content ?? json?.message;
  return typeof text === 'string' ? text : body;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_MAX) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
