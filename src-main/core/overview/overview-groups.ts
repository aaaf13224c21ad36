/**
 * The Overview at scale: items of one kind and level said once ("14 ports expire within 2 days with
 * auto-renew off"), with one action for all where one fits and "Show them" (the list screen filtered
 * to them), most urgent first. Pure: the items and the time in, the cards out.
 */
import {
  ATTENTION_LEVEL_WORDS,
  type AttentionCard,
  type AttentionGroup,
  type AttentionItem,
} from '../../../src-shared/contract';
import { daysFromNow } from '../alerts/attention-words';

/** Four or more items of one kind and level make one card (fewer read better one by one). */
const GROUP_MIN_ITEMS = 4;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "within a day", "within 2 days": the span up to the latest member's due time, in the model's day words. */
function within(latestMs: number, now: number): string {
  const words = daysFromNow(latestMs - now);
  return words.startsWith('in ') ? `within ${words.slice(3)}` : words;
}

function groupTitle(
  kind: AttentionItem['kind'],
  level: AttentionItem['level'],
  count: number,
  span: string,
): string {
  switch (kind) {
    case 'port_expired':
      return `${plural(count, 'port', 'ports')} expired`;
    case 'subscription_expired':
      return `${plural(count, 'subscription', 'subscriptions')} expired`;
    case 'port_expiring':
      return level === 'info'
        ? `${plural(count, 'port', 'ports')} renew ${span}`
        : `${plural(count, 'port', 'ports')} expire ${span} with auto-renew off`;
    case 'subscription_expiring':
      return level === 'info'
        ? `${plural(count, 'subscription', 'subscriptions')} renew ${span}`
        : `${plural(count, 'subscription', 'subscriptions')} expire ${span} with auto-renew off`;
    case 'subscription_depleted':
      return `${plural(count, 'subscription has', 'subscriptions have')} no traffic left`;
    case 'subscription_traffic_low':
      return `${plural(count, 'subscription is', 'subscriptions are')} running out of traffic`;
    case 'topup_awaiting_payment':
      return `${plural(count, 'top-up is', 'top-ups are')} waiting for your payment`;
    case 'topup_verifying':
      return `${plural(count, 'payment is', 'payments are')} confirming`;
    case 'topup_declarable':
      return `${plural(count, 'top-up', 'top-ups')} expired or were rejected and can still be declared`;
    case 'schedule_failing':
      return `Scheduled rotations of ${plural(count, 'port', 'ports')} failed`;
    case 'proxy_test_failed':
      return `The last proxy tests of ${plural(count, 'port', 'ports')} failed`;
    case 'local_proxy_failing':
      return `${plural(count, 'local proxy needs', 'local proxies need')} attention`;
    case 'port_down':
      return `${plural(count, 'port is', 'ports are')} down`;
    case 'port_rotation_unchanged':
      return `The last rotations of ${plural(count, 'port', 'ports')} did not change the IP`;
    case 'alert_channel_failing':
      return `${plural(count, 'alert channel keeps', 'alert channels keep')} failing`;
    case 'alert':
      return `${plural(count, 'alert', 'alerts')}`;
  }
}

function groupOf(members: readonly AttentionItem[], now: number): AttentionGroup {
  const [first] = members as [AttentionItem, ...AttentionItem[]];
  const dues = members.flatMap((item) => (item.dueAt === null ? [] : [Date.parse(item.dueAt)]));
  const latest = dues.length > 0 ? Math.max(...dues) : null;
  const span = latest === null ? '' : within(latest, now);
  const subjectIds = members.map((item) => item.subject.id);
  const sameDetail = members.every((item) => item.detail === first.detail);
  const renewable =
    first.action.kind === 'enable_auto_renew' &&
    members.every((item) => item.action.kind === 'enable_auto_renew');
  const listPath =
    first.kind === 'alert'
      ? first.screen
      : `${first.screen}?ids=${subjectIds.map(encodeURIComponent).join(',')}`;
  return {
    id: `group:${first.kind}:${first.level}`,
    kind: first.kind,
    level: first.level,
    levelWord: ATTENTION_LEVEL_WORDS[first.level],
    title: groupTitle(first.kind, first.level, members.length, span),
    detail: sameDetail ? first.detail : 'Each one says why: Show them.',
    itemIds: members.map((item) => item.id),
    subjectIds,
    screen: first.screen,
    dueAt: first.dueAt,
    dueIn: first.dueIn,
    action:
      renewable && first.action.kind === 'enable_auto_renew'
        ? {
            kind: 'enable_auto_renew_all',
            label: 'Turn on auto-renew for all',
            target: first.action.target,
            ids: members.flatMap((item) =>
              item.action.kind === 'enable_auto_renew' ? [item.action.id] : [],
            ),
          }
        : null,
    listRoute: `/${listPath}`,
  };
}

/**
 * The Overview's cards, in the items' order (most urgent first; a group stands where its most urgent
 * member would): every item is in exactly one card.
 */
export function attentionCards(items: readonly AttentionItem[], now: number): AttentionCard[] {
  const byKindAndLevel = new Map<string, AttentionItem[]>();
  for (const item of items) {
    const key = `${item.kind}:${item.level}`;
    const members = byKindAndLevel.get(key) ?? [];
    members.push(item);
    byKindAndLevel.set(key, members);
  }
  const cards: AttentionCard[] = [];
  const placed = new Set<string>();
  for (const item of items) {
    const key = `${item.kind}:${item.level}`;
    const members = byKindAndLevel.get(key) ?? [item];
    if (members.length < GROUP_MIN_ITEMS) {
      cards.push({ type: 'item', itemId: item.id });
    } else if (!placed.has(key)) {
      placed.add(key);
      cards.push({ type: 'group', group: groupOf(members, now) });
    }
  }
  return cards;
}
