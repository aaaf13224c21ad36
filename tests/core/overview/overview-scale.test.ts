import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthSnapshot } from '../../../src-shared/contract';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

/*
 * The Overview on a scale account (1,000 ports, 300 top-ups of which 20 abandoned, as the benchmarks
 * use): items of one kind and level are grouped, so the first screen's 12 cards hold everything.
 */

let sandbox: TestSandbox;
let h: Harness;
let snapshot: HealthSnapshot;

beforeAll(async () => {
  sandbox = await TestSandbox.start({ scale: { ports: 1000, topUps: 300 } });
  h = await createHarness(sandbox, { clock: new FakeClock(Date.parse(TEST_START_TIME)) });
  await h.call('demo:start');
  snapshot = await h.call('overview:get');
}, 60_000);

afterAll(async () => {
  await h.core.dispose();
  await sandbox.close();
});

describe('the Overview on a scale account', () => {
  it('fits in at most 12 cards, most urgent first, every item in exactly one', () => {
    expect(snapshot.items.length).toBeGreaterThan(12);
    expect(snapshot.cards.length).toBeLessThanOrEqual(12);
    const placed = snapshot.cards.flatMap((card) =>
      card.type === 'group' ? card.group.itemIds : [card.itemId],
    );
    expect(placed.sort()).toEqual(snapshot.items.map((item) => item.id).sort());
    const rank = { Now: 0, Soon: 1, FYI: 2 };
    const levels = snapshot.cards.map((card) =>
      card.type === 'group'
        ? card.group.levelWord
        : snapshot.items.find((i) => i.id === card.itemId)!.levelWord,
    );
    expect(levels.map((level) => rank[level])).toEqual(levels.map((level) => rank[level]).sort());
  });

  it('groups the ports expiring without auto-renew, with Turn on auto-renew for all and Show them', () => {
    const group = snapshot.cards
      .flatMap((card) => (card.type === 'group' ? [card.group] : []))
      .find((candidate) => candidate.id === 'group:port_expiring:warning');
    expect(group?.title).toMatch(/^\d+ ports expire within (a day|\d+ days) with auto-renew off$/);
    expect(group?.action?.ids).toHaveLength(group?.itemIds.length ?? -1);
    expect(group?.listRoute).toMatch(/^\/ports\?ids=[^,]+(,[^,]+){3,}$/);
  });
});
