import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertDeliveryService } from '../../../src-main/core/alert-delivery/alert-delivery-service';
import { DeliveryStore } from '../../../src-main/core/alert-delivery/delivery-store';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { SessionSecretStore } from '../../../src-main/core/secrets/session-secret-store';
import { HttpReceiver, mailHeader, SmtpReceiver } from './support/receivers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * An HTTP proxy with a login, like a local proxy (HTTP requests in absolute form, and CONNECT
 * tunnels); it records where each request or tunnel went and the login it carried.
 */
async function connectProxy(): Promise<{
  url: string;
  tunnels: { target: string; auth: string | undefined }[];
}> {
  const tunnels: { target: string; auth: string | undefined }[] = [];
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? '');
    tunnels.push({ target: target.host, auth: req.headers['proxy-authorization'] });
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const forward = request(target, { method: req.method ?? 'POST', headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  server.on('connect', (req, client, head) => {
    tunnels.push({ target: req.url ?? '', auth: req.headers['proxy-authorization'] });
    const [host = '', port = '0'] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels };
}

describe('delivery through one of the user’s local proxies', () => {
  it('sends webhooks (undici ProxyAgent) and email (SMTP over CONNECT) through the local proxy, with its login', async () => {
    const clock = new FakeClock();
    const proxy = await connectProxy();
    const webhook = new HttpReceiver(() => clock.now());
    await webhook.start();
    cleanups.push(() => webhook.stop());
    const smtp = new SmtpReceiver({ user: 'u', pass: 'p' });
    await smtp.start();
    cleanups.push(() => smtp.stop());
    const secrets = new SessionSecretStore();
    const service = new AlertDeliveryService({
      store: DeliveryStore.open(':memory:'),
      clock,
      secrets: () => secrets,
      ownsJobs: () => true,
      localProxy: (id) =>
        Promise.resolve(id === 'lp_1' ? { url: proxy.url, username: 'tool', password: 'local-pass' } : null),
    });
    const handlers = service.handlers();
    await handlers['alertRouting:addChannel']({
      kind: 'webhook',
      name: 'Via proxy',
      url: webhook.url,
      localProxyId: 'lp_1',
    });
    await handlers['alertRouting:addChannel']({
      kind: 'email',
      name: 'Mail via proxy',
      host: '127.0.0.1',
      port: smtp.port,
      username: 'u',
      password: 'p',
      from: 'a@example.com',
      to: 'b@example.com',
      localProxyId: 'lp_1',
    });
    const gone = await handlers['alertRouting:addChannel']({
      kind: 'webhook',
      name: 'Proxy gone',
      url: webhook.url,
      localProxyId: 'lp_missing',
      events: ['port.up'],
    });
    service.publish({
      type: 'port.up',
      id: 'evt_via_proxy',
      data: { profileId: 'p', portId: 'mp_1', label: null, downSince: null },
    });
    await service.sendDue();

    expect(webhook.requests.map((r) => r.headers['webhook-id'])).toEqual(['evt_via_proxy']);
    expect(mailHeader(smtp.mails[0]?.raw ?? '', 'X-Alert-Event-Id')).toBe('evt_via_proxy');
    const basic = `Basic ${Buffer.from('tool:local-pass').toString('base64')}`;
    expect(proxy.tunnels.map((t) => t.target).sort()).toEqual(
      [new URL(webhook.url).host, `127.0.0.1:${smtp.port}`].sort(),
    );
    expect(proxy.tunnels.every((t) => t.auth === basic)).toBe(true);
    // A channel whose local proxy is not running waits and says why (it is retried, not sent directly).
    const entry = (await handlers['alertRouting:deliveries']({ limit: 10 })).entries.find(
      (e) => e.channelId === gone.channel.id,
    );
    expect(entry).toMatchObject({
      status: 'pending',
      lastError: 'The local proxy it sends through is not running.',
    });
  });
});
