import { useEffect, useState } from 'react';
import type {
  AttentionGroup,
  AttentionItem,
  AttentionLevel,
  HealthSnapshot,
  HealthSourceState,
} from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { Countdown, useSecondsLeft } from '../../shared/components/Countdown';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { Time } from '../../shared/components/Time';
import { useLoadable } from '../../shared/loadable-slice';
import { hrefOf } from '../../shared/routes';
import { useTopUpWizardStore } from '../topups/topup-wizard-store';
import { isCallAction, overviewSlice, useOverviewStore } from './overview-store';

/** The level's colour; its word (Now / Soon / FYI) is the model's, the same in `health`. */
const TONES: Record<AttentionLevel, string> = { error: 'bad', warning: 'warn', info: 'info' };

const SOURCE_NAMES = {
  ports: 'the ports',
  subscriptions: 'the subscriptions',
  topups: 'the top-ups',
} as const;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "4 ports, 3 subscriptions and no payment in progress". */
export function accountSummary(totals: HealthSnapshot['totals']): string {
  const payments =
    totals.pendingTopUps === 0
      ? 'no payment in progress'
      : plural(totals.pendingTopUps, 'payment in progress', 'payments in progress');
  return `${plural(totals.ports, 'port', 'ports')}, ${plural(totals.subscriptions, 'subscription', 'subscriptions')} and ${payments}`;
}

/** "Declare before …" while the deadline is ahead (it ticks past while the screen is open). */
function DeclareBefore({ dueAt }: { dueAt: string }) {
  const open = useSecondsLeft(dueAt) > 0;
  return open ? (
    <p className="attention__due">
      Declare before <Time iso={dueAt} />
    </p>
  ) : null;
}

/** The moment that matters for an item, in words: a countdown for a payment, a time otherwise. */
function Due({ item }: { item: AttentionItem }) {
  if (item.dueAt === null) return null;
  if (item.kind === 'topup_awaiting_payment') {
    return (
      <p className="attention__due">
        <Countdown until={item.dueAt} prefix="Rate lock ends in" done="The rate lock has ended." />
      </p>
    );
  }
  if (item.kind === 'topup_declarable') return <DeclareBefore dueAt={item.dueAt} />;
  const expired = item.kind === 'port_expired' || item.kind === 'subscription_expired';
  const what = item.dueIsForecast
    ? 'Runs out about'
    : expired
      ? 'Expired'
      : item.level === 'info'
        ? 'Renews'
        : 'Expires';
  // The relative words are the model's (as in the title and in `health`), not a second day count.
  const relative = item.dueIn ? ` (${item.dueIsForecast ? 'forecast: ' : ''}${item.dueIn})` : '';
  return (
    <p className="attention__due">
      {what} <Time iso={item.dueAt} />
      {relative}
    </p>
  );
}

const hashOf = (route: string) => `#${route}`;

function ItemAction({ item }: { item: AttentionItem }) {
  const act = useOverviewStore((store) => store.act);
  const busy = useOverviewStore((store) => store.acting[item.id] ?? false);
  const startTopUp = useTopUpWizardStore((store) => store.start);
  const startTopUpForItem = useTopUpWizardStore((store) => store.startForItem);
  const openTopUpById = useTopUpWizardStore((store) => store.openTopUpById);
  const { action } = item;
  const name = `${action.label}: ${item.subject.label}`;
  if (action.kind === 'open') {
    return item.route ? (
      <a className="button" href={hashOf(item.route)} aria-label={name}>
        {action.label}
      </a>
    ) : null;
  }
  const run = () => {
    if (action.kind === 'continue_top_up') {
      window.location.hash = hrefOf('topups');
      void openTopUpById(action.topUpId);
    } else if (action.kind === 'top_up') {
      // The item's port or subscription comes with its plan, so the wizard offers buying it again.
      const { type, id } = item.subject;
      if (type === 'port' || type === 'subscription') void startTopUpForItem({ source: type, id });
      else startTopUp();
      window.location.hash = hrefOf('topups');
    } else if (isCallAction(action)) {
      void act(item);
    }
  };
  return (
    <button type="button" className="button button--primary" aria-label={name} disabled={busy} onClick={run}>
      {busy ? 'Working…' : action.label}
    </button>
  );
}

function AttentionRow({ item }: { item: AttentionItem }) {
  const error = useOverviewStore((store) => store.actionErrors[item.id]);
  const titleId = `attention-${item.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  // "Open" beside the action, when the action is something else and there is a page to open.
  const openLink =
    item.route && item.action.kind !== 'open' && item.subject.type !== 'topup' ? item.route : null;
  return (
    <li className={`attention attention--${item.level}`} aria-labelledby={titleId}>
      <span className={`badge badge--${TONES[item.level]} attention__level`}>{item.levelWord}</span>
      <div className="attention__body">
        <h2 className="attention__title" id={titleId}>
          {item.title}
        </h2>
        <p className="attention__detail">{item.detail}</p>
        <Due item={item} />
        {error ? <ErrorMessage error={error} title={`Could not ${item.action.label.toLowerCase()}`} /> : null}
      </div>
      <div className="attention__actions">
        <ItemAction item={item} />
        {openLink ? (
          <a
            className="button button--quiet"
            href={hashOf(openLink)}
            aria-label={`Open: ${item.subject.label}`}
          >
            Open
          </a>
        ) : null}
      </div>
    </li>
  );
}

function SourceProblems({ sources }: { sources: HealthSnapshot['sources'] }) {
  const failed = (Object.entries(sources) as [keyof typeof SOURCE_NAMES, HealthSourceState][]).filter(
    (entry): entry is [keyof typeof SOURCE_NAMES, Extract<HealthSourceState, { state: 'failed' }>] =>
      entry[1].state === 'failed',
  );
  if (failed.length === 0) return null;
  return (
    <div className="message message--warn" role="alert">
      {failed.map(([name, source]) => (
        <p key={name}>
          <strong>Not known: could not read {SOURCE_NAMES[name]}</strong> (last read{' '}
          {source.lastReadAt ? <Time iso={source.lastReadAt} relative /> : 'never'}): {source.message} What
          needs attention there may be missing below; Refresh tries again.
        </p>
      ))}
    </div>
  );
}

/** A group of items of one kind and level: one action for all where one fits, and Show them. */
function GroupRow({ group }: { group: AttentionGroup }) {
  const actAll = useOverviewStore((store) => store.actAll);
  const busy = useOverviewStore((store) => store.acting[group.id] ?? false);
  const error = useOverviewStore((store) => store.actionErrors[group.id]);
  const titleId = `attention-${group.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const { action } = group;
  return (
    <li className={`attention attention--${group.level} attention--group`} aria-labelledby={titleId}>
      <span className={`badge badge--${TONES[group.level]} attention__level`}>{group.levelWord}</span>
      <div className="attention__body">
        <h2 className="attention__title" id={titleId}>
          {group.title}
        </h2>
        <p className="attention__detail">{group.detail}</p>
        {group.dueAt ? (
          <p className="attention__due">
            Soonest <Time iso={group.dueAt} />
            {group.dueIn ? ` (${group.dueIn})` : ''}
          </p>
        ) : null}
        {error ? (
          <ErrorMessage error={error} title={`Could not ${action?.label.toLowerCase() ?? 'act'}`} />
        ) : null}
      </div>
      <div className="attention__actions">
        {action ? (
          <button
            type="button"
            className="button button--primary"
            aria-label={`${action.label}: ${group.title}`}
            disabled={busy}
            onClick={() => void actAll(group)}
          >
            {busy ? 'Working…' : action.label}
          </button>
        ) : null}
        <a
          className="button button--quiet"
          href={hashOf(group.listRoute)}
          aria-label={`Show them: ${group.title}`}
        >
          Show them
        </a>
      </div>
    </li>
  );
}

/** How many cards the first screen holds; the rest wait behind "Show … more". */
const FIRST_SCREEN_CARDS = 12;

/** The snapshot's cards (items, and groups of four or more of one kind and level), most urgent first. */
function AttentionList({ snapshot, label }: { snapshot: HealthSnapshot; label: string }) {
  const [everything, setEverything] = useState(false);
  const items = new Map(snapshot.items.map((item) => [item.id, item]));
  const cards = everything ? snapshot.cards : snapshot.cards.slice(0, FIRST_SCREEN_CARDS);
  const more = snapshot.cards.length - cards.length;
  return (
    <>
      <ul className="attention-list" aria-label={label}>
        {cards.map((card) => {
          if (card.type === 'group') return <GroupRow key={card.group.id} group={card.group} />;
          const item = items.get(card.itemId);
          return item ? <AttentionRow key={item.id} item={item} /> : null;
        })}
      </ul>
      {more > 0 ? (
        <button type="button" className="button button--quiet" onClick={() => setEverything(true)}>
          Show {plural(more, 'more card', 'more cards')}
        </button>
      ) : null}
    </>
  );
}

function OverviewBody({ snapshot }: { snapshot: HealthSnapshot }) {
  if (!snapshot.allGood) {
    return (
      <>
        <SourceProblems sources={snapshot.sources} />
        {snapshot.items.length === 0 ? (
          <p>Nothing needs your attention in what could be read.</p>
        ) : (
          <AttentionList snapshot={snapshot} label="Needs attention" />
        )}
      </>
    );
  }
  // All good: what is only worth knowing (a port that renews itself, a payment confirming) follows.
  return (
    <>
      <div className="overview-all-good" role="status">
        <h2>All good</h2>
        <p>Nothing needs your attention right now: {accountSummary(snapshot.totals)}.</p>
        <p className="muted small">
          Expiries within {plural(snapshot.expiryWarningDays, 'day', 'days')}, traffic running out, payments
          in progress, failed scheduled rotations and proxy tests, and alerts show up here.
        </p>
      </div>
      {snapshot.items.length > 0 ? (
        <section className="overview-coming-up" aria-labelledby="coming-up-title">
          <h2 id="coming-up-title">Coming up</h2>
          <AttentionList snapshot={snapshot} label="Coming up" />
        </section>
      ) : null}
    </>
  );
}

/** The first screen: what needs attention now, each with its one-click action, or "All good". */
export function OverviewScreen() {
  const { loadable, retry } = useLoadable(useOverviewStore, overviewSlice, false);
  const load = useOverviewStore((store) => store.load);
  const refresh = useOverviewStore((store) => store.refresh);
  // Each visit reads it again: main answers from what it holds, so this costs nothing on the wire.
  useEffect(() => {
    void load(true);
  }, [load]);
  return (
    <Screen
      title="Overview"
      description="What needs your attention now, most urgent first."
      actions={
        <RefreshButton
          onRefresh={() => void refresh()}
          busy={loadable?.status === 'loading'}
          what="overview"
        />
      }
    >
      <AsyncContent loadable={loadable} what="the overview" onRetry={retry} isEmpty={() => false}>
        {(snapshot) => <OverviewBody snapshot={snapshot} />}
      </AsyncContent>
    </Screen>
  );
}
