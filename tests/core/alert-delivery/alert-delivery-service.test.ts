import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DELIVERY_EVENT_SCHEMAS,
  ROUTABLE_EVENT_TYPES,
  type DeliveryEnvelope,
} from '../../../src-shared/contract/alert-routing-events';
import { deliveryFixture } from './support/delivery-fixture';
import { HttpReceiver, mailHeader, mailText, SmtpReceiver, verifyStandardWebhook } from './support/receivers';
import { SAMPLE_EVENTS } from './support/sample-events';

const BOT_TOKEN = '123456:AAbotTokenSecretValue';
const NTFY_TOKEN = 'tk_ntfySecretValue';
const SMTP = { user: 'alerts', pass: 'smtp-Secret-Pass' };
const SLACK_PATH = '/services/T000/B000/slackSecretPart';
const DISCORD_PATH = '/api/webhooks/1/discordSecretPart';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started<T extends { start(): Promise<void>; stop(): Promise<void> }>(receiver: T): Promise<T> {
  await receiver.start();
  cleanups.push(() => receiver.stop());
  return receiver;
}

/** Every key in a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
  return [];
}

describe('alert delivery to local receivers', () => {
  it('delivers each event type to each channel with the documented payload, signed, and no secret in any payload', async () => {
    const f = deliveryFixture();
    const now = () => f.clock.now();
    const webhook = await started(new HttpReceiver(now));
    const telegram = await started(
      new HttpReceiver(now, (request, res) => {
        const ok = request.path === `/bot${BOT_TOKEN}/sendMessage`;
        res
          .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
          .end(JSON.stringify(ok ? { ok: true, result: { message_id: 1 } } : { ok: false }));
      }),
    );
    const ntfy = await started(new HttpReceiver(now));
    const chat = await started(new HttpReceiver(now, (_r, res) => res.writeHead(204).end()));
    const smtp = await started(new SmtpReceiver(SMTP));

    const added = await f.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Hook',
      url: `${webhook.url}/in`,
    });
    const secret = added.signingSecret ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await f.call('alertRouting:addChannel', {
      kind: 'telegram',
      name: 'TG',
      token: BOT_TOKEN,
      chatId: '-100123',
      serverUrl: telegram.url,
    });
    await f.call('alertRouting:addChannel', {
      kind: 'ntfy',
      name: 'Phone',
      serverUrl: ntfy.url,
      topic: 'pm-alerts',
      token: NTFY_TOKEN,
    });
    await f.call('alertRouting:addChannel', {
      kind: 'slack',
      name: 'Slack',
      url: `${chat.url}${SLACK_PATH}`,
    });
    await f.call('alertRouting:addChannel', {
      kind: 'discord',
      name: 'Discord',
      url: `${chat.url}${DISCORD_PATH}`,
    });
    await f.call('alertRouting:addChannel', {
      kind: 'email',
      name: 'Mail',
      host: '127.0.0.1',
      port: smtp.port,
      username: SMTP.user,
      password: SMTP.pass,
      from: 'pm@example.com',
      to: 'ops@example.com',
    });
    const listed = JSON.stringify(await f.call('alertRouting:channels', undefined));
    for (const value of [secret, BOT_TOKEN, NTFY_TOKEN, SMTP.pass, SLACK_PATH, DISCORD_PATH])
      expect(listed).not.toContain(value);

    const ids = SAMPLE_EVENTS.map((event) => {
      expect(f.service.publish(event)).toBe(true);
      return f.store.log(1, false)[0]?.eventId ?? '';
    });
    expect(SAMPLE_EVENTS.map((event) => event.type).sort()).toEqual([...ROUTABLE_EVENT_TYPES].sort());
    await f.drain();

    // Webhook: every event once, in order, verified by an independent HMAC, the payload as documented.
    expect(webhook.requests.map((r) => r.headers['webhook-id'])).toEqual(ids);
    for (const [index, request] of webhook.requests.entries()) {
      const headers = {
        id: String(request.headers['webhook-id']),
        timestamp: String(request.headers['webhook-timestamp']),
        signature: String(request.headers['webhook-signature']),
      };
      expect(verifyStandardWebhook(secret, headers, request.body)).toBe(true);
      expect(Number(headers.timestamp)).toBe(Math.floor(request.at / 1000));
      const envelope = JSON.parse(request.body) as DeliveryEnvelope;
      const sample = SAMPLE_EVENTS[index];
      if (!sample || envelope.type === 'digest') throw new Error('unexpected envelope');
      expect(envelope).toMatchObject({ id: headers.id, type: sample.type, data: sample.data });
      expect(() => DELIVERY_EVENT_SCHEMAS[envelope.type].parse(envelope.data)).not.toThrow();
      for (const key of keysOf(envelope)) expect(key).not.toMatch(/password|secret|token|key|rotationLink/i);
    }
    // Telegram: one sendMessage per event to the chat, naming the event id.
    expect(telegram.requests).toHaveLength(SAMPLE_EVENTS.length);
    for (const [index, request] of telegram.requests.entries()) {
      const body = JSON.parse(request.body) as { chat_id: string; text: string };
      expect(body.chat_id).toBe('-100123');
      expect(body.text).toContain(`event ${SAMPLE_EVENTS[index]?.type} · id ${ids[index]}`);
    }
    // Telegram's pace: at most one message per second to a chat.
    const sentAt = telegram.requests.map((r) => r.at);
    for (let i = 1; i < sentAt.length; i += 1)
      expect((sentAt[i] ?? 0) - (sentAt[i - 1] ?? 0)).toBeGreaterThanOrEqual(1000);
    // ntfy: JSON to the server's root with the topic, a title, the token, the event in the text.
    expect(ntfy.requests).toHaveLength(SAMPLE_EVENTS.length);
    for (const [index, request] of ntfy.requests.entries()) {
      expect(request.path).toBe('/');
      expect(request.headers.authorization).toBe(`Bearer ${NTFY_TOKEN}`);
      const body = JSON.parse(request.body) as {
        topic: string;
        title: string;
        message: string;
        priority: number;
      };
      expect(body.topic).toBe('pm-alerts');
      expect(body.title).toMatch(/^Proxy Manager: /);
      expect(body.message).toContain(`id ${ids[index]}`);
      const urgent = /^(port\.down|.*\.expired|schedule\.failing)$/.test(SAMPLE_EVENTS[index]?.type ?? '');
      expect(body.priority).toBe(urgent ? 4 : 3);
    }
    // Slack and Discord: each on its own incoming-webhook path.
    const slack = chat.requests.filter((r) => r.path === SLACK_PATH);
    const discord = chat.requests.filter((r) => r.path === DISCORD_PATH);
    expect(slack.map((r) => (JSON.parse(r.body) as { text: string }).text)).toHaveLength(
      SAMPLE_EVENTS.length,
    );
    expect(discord.map((r) => (JSON.parse(r.body) as { content: string }).content)).toHaveLength(
      SAMPLE_EVENTS.length,
    );
    for (const [index, request] of slack.entries()) expect(request.body).toContain(String(ids[index]));
    for (const [index, request] of discord.entries()) expect(request.body).toContain(String(ids[index]));
    // Email: logged in with the password from the keychain, one mail per event with its id in a header.
    expect(smtp.mails.map((mail) => mailHeader(mail.raw, 'X-Alert-Event-Id'))).toEqual(ids);
    for (const [index, mail] of smtp.mails.entries()) {
      expect(mail.user).toBe(SMTP.user);
      expect(mail.to).toEqual(['ops@example.com']);
      expect(mailText(mail.raw)).toContain(`event ${SAMPLE_EVENTS[index]?.type} · id ${ids[index]}`);
    }
    // No payload anywhere holds a secret of any channel.
    const everything = [
      ...[webhook, telegram, ntfy, chat].flatMap((r) => r.requests.map((request) => request.body)),
      ...smtp.mails.map((mail) => mail.raw),
    ].join('\n');
    for (const value of [
      secret,
      secret.slice(6),
      BOT_TOKEN,
      NTFY_TOKEN,
      SMTP.pass,
      'slackSecretPart',
      'discordSecretPart',
    ])
      expect(everything).not.toContain(value);
    // The log: every delivery sent, one attempt each.
    const log = f.store.log(500, false);
    expect(log).toHaveLength(SAMPLE_EVENTS.length * 6);
    expect(log.every((entry) => entry.status === 'sent' && entry.attempts === 1)).toBe(true);
  });

  it('fails verification with a wrong secret or a changed body (independent check and the package alike)', async () => {
    const f = deliveryFixture();
    const webhook = await started(new HttpReceiver(() => f.clock.now()));
    const added = await f.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Hook',
      url: webhook.url,
    });
    const secret = added.signingSecret ?? '';
    f.service.publish(SAMPLE_EVENTS[0] ?? SAMPLE_EVENTS[1]!);
    await f.drain();
    const request = webhook.requests[0];
    if (!request) throw new Error('nothing received');
    const headers = {
      id: String(request.headers['webhook-id']),
      timestamp: String(request.headers['webhook-timestamp']),
      signature: String(request.headers['webhook-signature']),
    };
    const wrong = `whsec_${Buffer.from('another secret of 32 bytes.......').toString('base64')}`;
    expect(verifyStandardWebhook(secret, headers, request.body)).toBe(true);
    expect(verifyStandardWebhook(wrong, headers, request.body)).toBe(false);
    expect(verifyStandardWebhook(secret, headers, request.body.replace('Berlin', 'Paris'))).toBe(false);
    expect(verifyStandardWebhook(secret, { ...headers, id: 'evt_other' }, request.body)).toBe(false);
    const packageHeaders = {
      'webhook-id': headers.id,
      'webhook-timestamp': headers.timestamp,
      'webhook-signature': headers.signature,
    };
    // The package checks the timestamp against the real time: sign-time is the fake clock's 2026-01-01.
    expect(() => new Webhook(wrong).verify(request.body, packageHeaders)).toThrow();
  });

  it('gives a receiver that is down for 10 minutes every event once it is back, in order, each once', async () => {
    const f = deliveryFixture();
    const webhook = await started(new HttpReceiver(() => f.clock.now()));
    await f.call('alertRouting:addChannel', { kind: 'webhook', name: 'Hook', url: webhook.url });
    await webhook.stop();
    const start = f.clock.now();
    const ids: string[] = [];
    // 20 events over the 10 minutes the receiver is down, while the sender keeps trying.
    for (let i = 0; i < 20; i += 1) {
      await f.clock.runUntil(start + i * 30_000);
      f.service.publish({
        type: 'port.down',
        id: `evt_down_${i}`,
        data: {
          profileId: 'p',
          portId: `mp_${i}`,
          label: null,
          reason: 'offline',
          since: '2026-01-01T00:00:00.000Z',
        },
      });
      ids.push(`evt_down_${i}`);
      await f.drain(start + i * 30_000);
    }
    await f.drain(start + 10 * 60_000);
    expect(webhook.requests).toHaveLength(0);
    const head = f.store.log(500, false).find((entry) => entry.eventId === 'evt_down_0');
    expect(head?.attempts).toBeGreaterThan(3);
    expect(head?.lastError).toMatch(/Could not reach the webhook/);
    expect(f.service.failingChannels()).toHaveLength(1);

    await webhook.start();
    await f.drain();
    expect(webhook.requests.map((r) => r.headers['webhook-id'])).toEqual(ids);
    expect(f.store.log(500, false).every((entry) => entry.status === 'sent')).toBe(true);
    expect(f.service.failingChannels()).toHaveLength(0);
    // Back in under the longest back-off (15 minutes) after it returned.
    expect((webhook.requests[0]?.at ?? 0) - (start + 10 * 60_000)).toBeLessThanOrEqual(15 * 60_000);
  });

  it('retries with growing, jittered waits for 24 hours, then keeps a dead letter that can be queued again', async () => {
    const f = deliveryFixture();
    const webhook = await started(new HttpReceiver(() => f.clock.now()));
    webhook.failWith = 500;
    await f.call('alertRouting:addChannel', { kind: 'webhook', name: 'Hook', url: webhook.url });
    const start = f.clock.now();
    f.service.publish({ ...SAMPLE_EVENTS[9]!, id: 'evt_credit' });
    await f.drain(start + 25 * 3_600_000);
    const gaps = webhook.requests.slice(1).map((r, i) => r.at - (webhook.requests[i]?.at ?? 0));
    expect(gaps.slice(0, 4)).toEqual([7_500, 15_000, 30_000, 60_000]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(15 * 60_000);
    const last = webhook.requests.at(-1)?.at ?? 0;
    expect(last - start).toBeLessThan(24 * 3_600_000);
    expect(last - start).toBeGreaterThan(23 * 3_600_000);
    const [dead] = (await f.call('alertRouting:deliveries', { deadOnly: true })).entries;
    expect(dead).toMatchObject({ eventId: 'evt_credit', status: 'dead', attempts: webhook.requests.length });

    webhook.failWith = null;
    expect(await f.call('alertRouting:retryDead', undefined)).toEqual({ requeued: 1 });
    await f.drain();
    expect(webhook.requests.at(-1)?.headers['webhook-id']).toBe('evt_credit');
    expect((await f.call('alertRouting:deliveries', { deadOnly: true })).entries).toHaveLength(0);
  });

  it('gives up at once on a refusal for good (404) and honours a 429’s Retry-After', async () => {
    const f = deliveryFixture();
    const gone = await started(new HttpReceiver(() => f.clock.now()));
    gone.failWith = 404;
    await f.call('alertRouting:addChannel', { kind: 'webhook', name: 'Gone', url: gone.url });
    f.service.publish({ ...SAMPLE_EVENTS[0]!, id: 'evt_a' });
    await f.drain();
    expect(gone.requests).toHaveLength(1);
    expect(f.store.log(10, true)[0]).toMatchObject({
      status: 'dead',
      lastError: 'The webhook answered HTTP 404.',
    });

    const busy = deliveryFixture();
    const slow = await started(new HttpReceiver(() => busy.clock.now()));
    slow.failWith = 429;
    await busy.call('alertRouting:addChannel', { kind: 'webhook', name: 'Busy', url: slow.url });
    busy.service.publish({ ...SAMPLE_EVENTS[0]!, id: 'evt_b' });
    await busy.drain(busy.clock.now() + 60_000);
    slow.failWith = null;
    await busy.drain();
    expect(slow.requests).toHaveLength(2);
    expect((slow.requests[1]?.at ?? 0) - (slow.requests[0]?.at ?? 0)).toBe(120_000);
  });

  it('routes by rule: only chosen events, a quiet period per event and subject, and a digest per N minutes', async () => {
    const f = deliveryFixture();
    const picky = await started(new HttpReceiver(() => f.clock.now()));
    const digest = await started(new HttpReceiver(() => f.clock.now()));
    await f.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Ports only',
      url: picky.url,
      events: ['port.down'],
      quietMinutes: 30,
    });
    const summary = await f.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Digest',
      url: digest.url,
      digestMinutes: 10,
    });
    const down = (portId: string, i: number) => ({
      type: 'port.down' as const,
      id: `evt_${portId}_${i}`,
      data: { profileId: 'p', portId, label: null, reason: 'offline', since: '2026-01-01T00:00:00.000Z' },
    });
    f.service.publish(down('mp_1', 1));
    f.service.publish(down('mp_1', 2)); // same port within 30 minutes: held back
    f.service.publish(down('mp_2', 1)); // another port: its own quiet period
    f.service.publish({ ...SAMPLE_EVENTS[9]!, id: 'evt_topup' }); // not a port.down: not for "Ports only"
    expect(f.service.publish(down('mp_1', 1))).toBe(false); // the same id again: nothing queued
    const start = f.clock.now();
    await f.drain(start + 5 * 60_000);
    expect(picky.requests.map((r) => r.headers['webhook-id'])).toEqual(['evt_mp_1_1', 'evt_mp_2_1']);
    expect(digest.requests).toHaveLength(0);
    await f.drain(start + 31 * 60_000);
    expect(digest.requests).toHaveLength(1);
    f.service.publish(down('mp_1', 3)); // after the quiet period: sent
    await f.drain();
    expect(picky.requests.map((r) => r.headers['webhook-id'])).toEqual([
      'evt_mp_1_1',
      'evt_mp_2_1',
      'evt_mp_1_3',
    ]);
    expect(
      f.store.log(500, false).find((e) => e.eventId === 'evt_mp_1_2' && e.channelName === 'Ports only'),
    ).toMatchObject({
      status: 'suppressed',
    });

    // The digest channel got one message for the first 10 minutes (4 events) and one for the last.
    const bodies = digest.requests.map((r) => JSON.parse(r.body) as DeliveryEnvelope);
    expect(bodies.map((b) => b.type)).toEqual(['digest', 'digest']);
    const first = bodies[0];
    if (first?.type !== 'digest') throw new Error('no digest');
    expect(first.data.events.map((e) => e.id)).toEqual([
      'evt_mp_1_1',
      'evt_mp_1_2',
      'evt_mp_2_1',
      'evt_topup',
    ]);
    expect(digest.requests[0]?.at).toBe(start + 10 * 60_000);
    expect(summary.channel.rule.digestMinutes).toBe(10);

    // A quiet period per event type: port.up held back, port.down (channel-wide 30 minutes) kept.
    const picked = await f.call('alertRouting:setRule', {
      channelId: (await f.call('alertRouting:channels', undefined))[0]?.id ?? '',
      events: ['port.down', 'port.up'],
      quietByEvent: { 'port.up': 60, 'port.down': 0 },
    });
    expect(picked.rule.quietMinutes).toEqual({ 'port.up': 60 });

    // A rule change takes effect for what comes next.
    await f.call('alertRouting:setRule', {
      channelId: summary.channel.id,
      digestMinutes: 0,
      events: ['topup.credited'],
    });
    f.service.publish({ ...SAMPLE_EVENTS[9]!, id: 'evt_topup_2' });
    f.service.publish(down('mp_9', 1));
    await f.drain();
    expect(digest.requests.at(-1)?.headers['webhook-id']).toBe('evt_topup_2');
  });

  it('refuses an event with a field outside its documented payload (a password cannot ride along)', () => {
    const f = deliveryFixture();
    expect(() =>
      f.service.publish({
        type: 'topup.credited',
        data: { profileId: 'p', topUpId: 't', summary: 'ok', password: 'hunter2' } as never,
      }),
    ).toThrow();
    expect(f.store.log(10, false)).toHaveLength(0);
  });

  it('tests a channel at once and logs the outcome; a wrong bot token fails with HTTP 401 and no secret in the error', async () => {
    const f = deliveryFixture();
    const telegram = await started(
      new HttpReceiver(
        () => f.clock.now(),
        (request, res) => res.writeHead(request.path.startsWith(`/bot${BOT_TOKEN}/`) ? 200 : 401).end('{}'),
      ),
    );
    const good = await f.call('alertRouting:addChannel', {
      kind: 'telegram',
      name: 'TG',
      token: BOT_TOKEN,
      chatId: '42',
      serverUrl: telegram.url,
    });
    const bad = await f.call('alertRouting:addChannel', {
      kind: 'telegram',
      name: 'TG wrong',
      token: '999:wrongTokenValue',
      chatId: '42',
      serverUrl: telegram.url,
    });
    const ok = await f.call('alertRouting:testChannel', { channelId: good.channel.id });
    expect(ok).toMatchObject({ ok: true, error: null, entry: { status: 'sent', eventType: 'channel.test' } });
    const failed = await f.call('alertRouting:testChannel', { channelId: bad.channel.id });
    expect(failed).toMatchObject({
      ok: false,
      error: 'Telegram answered HTTP 401.',
      entry: { status: 'dead' },
    });
    expect(JSON.stringify(failed)).not.toContain('wrongTokenValue');
    expect((await f.call('alertRouting:removeChannel', { channelId: bad.channel.id })).removed).toBe(true);
    expect(await f.secrets.get(`alert-channel:${bad.channel.id}`)).toBeNull();
  });
});
