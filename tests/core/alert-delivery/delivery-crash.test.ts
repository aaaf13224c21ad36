import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { spawnTs } from '../../support/spawn-ts';
import { deliveryFixture } from './support/delivery-fixture';
import { HttpReceiver, verifyStandardWebhook } from './support/receivers';

const CHILD = join(__dirname, 'support', 'owner-child.ts');
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startOwner(databasePath: string, channelId: string, secret: string): ChildProcess {
  const child = spawnTs(CHILD, [databasePath, channelId], {
    env: { ...process.env, ALERT_TEST_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

function drained(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('drained')) resolve();
    });
    child.on('exit', (code) => {
      if (!out.includes('drained')) reject(new Error(`the owner exited (${String(code)}) before draining`));
    });
  });
}

describe('the delivery queue across a kill -9 of its owner', () => {
  it('loses none of 50 queued events and sends none twice to a receiver that de-duplicates by id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pm-alert-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const databasePath = join(dir, 'alert-delivery.sqlite');
    const receiver = new HttpReceiver(() => Date.now());
    await receiver.start();
    cleanups.push(() => receiver.stop());

    // Queue 50 events with the app's own service (real time: they must not look 24 h old to the owner).
    const app = deliveryFixture({ databasePath, clock: new FakeClock(Date.now()) });
    const added = await app.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Hook',
      url: receiver.url,
    });
    const secret = added.signingSecret ?? '';
    const ids = Array.from({ length: 50 }, (_, i) => `evt_crash_${String(i).padStart(2, '0')}`);
    for (const id of ids)
      app.service.publish({
        type: 'topup.credited',
        id,
        data: { profileId: 'p', topUpId: id, summary: 'ok' },
      });
    app.store.close();

    // The 20th request is held unanswered; the owner is killed while it waits for the answer.
    receiver.holdAt = 20;
    const first = startOwner(databasePath, added.channel.id, secret);
    await receiver.held;
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(receiver.requests).toHaveLength(20);

    receiver.holdAt = null;
    const second = startOwner(databasePath, added.channel.id, secret);
    await drained(second);

    // The receiver de-duplicates by webhook-id: what it processed is every event, once, in order.
    const seen = receiver.requests.map((request) => String(request.headers['webhook-id']));
    const processed = seen.filter((id, index) => seen.indexOf(id) === index);
    expect(processed).toEqual(ids);
    // Only the one in flight at the kill went twice (same id); every request was signed.
    expect(seen).toHaveLength(51);
    expect(seen[19]).toBe(seen[20]);
    for (const request of receiver.requests)
      expect(
        verifyStandardWebhook(
          secret,
          {
            id: String(request.headers['webhook-id']),
            timestamp: String(request.headers['webhook-timestamp']),
            signature: String(request.headers['webhook-signature']),
          },
          request.body,
        ),
      ).toBe(true);

    const after = deliveryFixture({ databasePath, clock: new FakeClock(Date.now()) });
    cleanups.push(() => after.store.close());
    const log = after.store.log(100, false);
    expect(log.filter((entry) => entry.status === 'sent')).toHaveLength(50);
    expect(log.find((entry) => entry.eventId === ids[19])?.attempts).toBe(2);
  }, 60_000);
});
