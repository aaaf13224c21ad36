import type { SubscriptionHealth } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import {
  HealthStatusLine,
  LastCheckLine,
  percentText,
  type StatusWords,
  UptimeLatencyFacts,
} from '../../shared/components/HealthFacts';
import { useLoadable } from '../../shared/loadable-slice';
import { healthScores, useSubscriptionsStore } from './subscriptions-store';

/** The words of a local proxy's badge: a subscription is checked the same way, through a login. */
const WORDS: StatusWords = {
  up: { text: 'Checks pass', badge: 'badge--ok' },
  down: { text: 'Down', badge: 'badge--bad' },
  unknown: { text: 'Not checked', badge: 'badge--muted' },
};

/** The list's Health filter, in this order. */
export const HEALTH_WORDS = [WORDS.up.text, WORDS.down.text, WORDS.unknown.text];

const RANK: Record<SubscriptionHealth['status'], number> = { up: 0, down: 1, unknown: 2 };

/** A subscription without scores (checks off, or not read yet) is not checked. */
export const healthWord = (health: SubscriptionHealth | undefined) => WORDS[health?.status ?? 'unknown'].text;
export const healthRank = (health: SubscriptionHealth | undefined) => RANK[health?.status ?? 'unknown'];

/** What the cell's tooltip and screen-reader text add to the word: the failures, last error and uptime. */
function healthDetail(health: SubscriptionHealth | undefined): string {
  if (!health || health.status === 'unknown') return 'no health check through its main user yet';
  const parts: string[] = [];
  if (health.status === 'down') {
    const error = health.lastCheck && !health.lastCheck.ok ? health.lastCheck.error : null;
    parts.push(`${health.failuresInARow} checks in a row failed${error ? `: ${error}` : ''}`);
  }
  parts.push(`uptime 24 h ${percentText(health.uptime24h)}`);
  return parts.join('; ');
}

/** The list's Health cell: the word as a badge, the detail in its tooltip and for screen readers. */
export function SubscriptionHealthCell({ health }: { health: SubscriptionHealth | undefined }) {
  const shown = WORDS[health?.status ?? 'unknown'];
  const detail = healthDetail(health);
  return (
    <span className={`badge ${shown.badge}`} title={detail}>
      {shown.text}
      <span className="visually-hidden">: {detail}</span>
    </span>
  );
}

/**
 * A subscription's health on its page: the checks through its main user (status, since, uptime,
 * latency, the last check in the gateway's words), the same pieces as a port's Health tab.
 */
export function SubscriptionHealthSummary({ subscriptionId }: { subscriptionId: string }) {
  const { loadable, retry } = useLoadable(useSubscriptionsStore, healthScores, subscriptionId);
  const health = loadable?.data?.find((entry) => entry.subscriptionId === subscriptionId) ?? null;
  const checked = health !== null && (health.status !== 'unknown' || health.lastCheck !== null);
  return (
    <section className="card" aria-labelledby="subscription-health-title">
      <h2 id="subscription-health-title">Health</h2>
      <AsyncContent
        loadable={loadable}
        what="health scores"
        onRetry={retry}
        isEmpty={() => !checked}
        empty={
          <p className="muted">
            Not checked yet. A request through the main user on the pace set in{' '}
            <a href="#/settings/health-checks">Settings → Health checks</a> (off unless you set one; each
            check uses a little traffic).
          </p>
        }
      >
        {() =>
          health ? (
            <>
              <HealthStatusLine health={health} words={WORDS} />
              <LastCheckLine check={health.lastCheck} showGood />
              <dl className="receipt__facts">
                <UptimeLatencyFacts health={health} />
              </dl>
            </>
          ) : null
        }
      </AsyncContent>
    </section>
  );
}
