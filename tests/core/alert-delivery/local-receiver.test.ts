import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { deliveryFixture } from './support/delivery-fixture';

const fixtures: ReturnType<typeof deliveryFixture>[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.service.stop();
});

describe('the local test receiver (trying delivery offline)', () => {
  it('receives a signed webhook (signature checked), a Telegram message and an ntfy message on 127.0.0.1', async () => {
    // The receiver checks signatures as a real one does, timestamps against the real time included.
    const f = deliveryFixture({ clock: new FakeClock(Date.now()) });
    fixtures.push(f);
    expect(await f.call('alertRouting:localReceiver', undefined)).toEqual({ url: null, messages: [] });
    const { url } = await f.call('alertRouting:localReceiver', { start: true });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await f.call('alertRouting:addChannel', { kind: 'webhook', name: 'Demo hook', url: `${url}/webhook` });
    await f.call('alertRouting:addChannel', {
      kind: 'telegram',
      name: 'Demo bot',
      token: '1:demo',
      chatId: '1',
      serverUrl: `${url}/telegram`,
    });
    await f.call('alertRouting:addChannel', {
      kind: 'ntfy',
      name: 'Demo ntfy',
      serverUrl: `${url}/ntfy`,
      topic: 'demo',
    });
    f.service.publish({
      type: 'port.down',
      id: 'evt_demo',
      data: {
        profileId: 'p',
        portId: 'mp_1',
        label: 'Demo port',
        reason: 'offline',
        since: '2026-01-01T00:00:00.000Z',
      },
    });
    await f.drain();
    const { messages } = await f.call('alertRouting:localReceiver', undefined);
    expect(messages.map((m) => [m.kind, m.eventId, m.eventType, m.signature]).sort()).toEqual([
      ['ntfy', 'evt_demo', 'port.down', 'unsigned'],
      ['telegram', 'evt_demo', 'port.down', 'unsigned'],
      ['webhook', 'evt_demo', 'port.down', 'valid'],
    ]);
    // A webhook signed with a secret no channel here has fails the check.
    await fetch(`${url}/webhook`, {
      method: 'POST',
      headers: {
        'webhook-id': 'evt_x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{"type":"port.up"}',
    });
    expect((await f.call('alertRouting:localReceiver', undefined)).messages[0]).toMatchObject({
      eventId: 'evt_x',
      signature: 'invalid',
    });
  });
});
