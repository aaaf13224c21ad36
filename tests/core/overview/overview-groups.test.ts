import { describe, expect, it } from 'vitest';
import type { AttentionItem, MobilePortView } from '../../../src-shared/contract';
import { attentionCards } from '../../../src-main/core/overview/overview-groups';
import { attentionItems, type OverviewInput } from '../../../src-main/core/overview/overview-rules';

/* The Overview at scale: items of one kind and level said once, most urgent first. */

const NOW = Date.parse('2026-06-01T00:00:00.000Z');
const HOUR = 3_600_000;

const port = (n: number, hours: number, overrides: Partial<MobilePortView> = {}): MobilePortView =>
  ({
    id: `port-${n}`,
    label: `Port ${n}`,
    status: 'active',
    autoRenew: false,
    expiresAt: new Date(NOW + hours * HOUR).toISOString(),
    ...overrides,
  }) as MobilePortView;

const itemsOf = (ports: MobilePortView[]): AttentionItem[] =>
  attentionItems({
    profileId: 'p',
    now: NOW,
    policy: { traffic: { percent: 10 }, expiryWarningDays: 3 },
    ports,
    subscriptions: [],
    topUps: [],
    schedules: [],
    proxyTests: [],
    alerts: [],
    localProxies: [],
  } satisfies OverviewInput);

describe('the Overview’s cards', () => {
  it('says 14 ports expiring without auto-renew once, with one action for all and Show them', () => {
    const expiring = Array.from({ length: 14 }, (_, n) => port(n, 10 + n * 2.5));
    const expired = port(99, -5, { status: 'expired' });
    const items = itemsOf([...expiring, expired]);
    const cards = attentionCards(items, NOW);
    // The expired port (Now) first, then the group standing where its soonest member would.
    expect(cards.map((card) => card.type)).toEqual(['item', 'group']);
    const group = cards[1]?.type === 'group' ? cards[1].group : null;
    expect(group).toMatchObject({
      id: 'group:port_expiring:warning',
      levelWord: 'Soon',
      title: '14 ports expire within 2 days with auto-renew off',
      screen: 'ports',
      dueAt: expiring[0]?.expiresAt,
      dueIn: 'within a day',
      action: { kind: 'enable_auto_renew_all', label: 'Turn on auto-renew for all', target: 'port' },
    });
    expect(group?.action?.ids).toEqual(expiring.map((p) => p.id));
    expect(group?.listRoute).toBe(`/ports?ids=${expiring.map((p) => p.id).join(',')}`);
    // Every item is in exactly one card.
    const placed = cards.flatMap((card) => (card.type === 'group' ? card.group.itemIds : [card.itemId]));
    expect(placed.sort()).toEqual(items.map((item) => item.id).sort());
  });

  it('leaves three of a kind one by one, and keeps kinds and levels apart', () => {
    const few = [port(1, 10), port(2, 20), port(3, 30)];
    const renewing = [1, 2, 3, 4].map((n) => port(10 + n, 5 * n, { autoRenew: true }));
    const cards = attentionCards(itemsOf([...few, ...renewing]), NOW);
    expect(cards.filter((card) => card.type === 'item')).toHaveLength(3);
    const groups = cards.flatMap((card) => (card.type === 'group' ? [card.group] : []));
    expect(groups.map((group) => [group.title, group.action])).toEqual([
      ['4 ports renew within a day', null],
    ]);
  });
});
