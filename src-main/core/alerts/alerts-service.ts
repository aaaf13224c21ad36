import type { AlertKindName, AlertView, DomainHandlers } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { AlertCenter, RaisedAlert } from './alert-center';
import type { AlertKind } from './alert-rules';

// The contract's kind names and the rules' kinds are one list, written twice (the contract is free
// of core imports): a kind added to one side only is a compile error here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const kindsMatch: Same<AlertKind, AlertKindName> = true;
void kindsMatch;

/**
 * Judges raised alerts by the account's attention model now: keeps those whose item (or condition)
 * still stands, in its current words, with the screen it belongs to (`OverviewService.judgeAlerts`).
 */
export type AlertJudge = (alerts: readonly RaisedAlert[]) => Promise<AlertView[]>;

/** `alerts:*`: the in-app list of what the alert center raised, as the attention model judges it now. */
export class AlertsService implements DomainService<'alerts'> {
  private readonly dismissed = new Set<string>();

  constructor(
    private readonly center: Pick<AlertCenter, 'recent'>,
    private readonly judge: AlertJudge,
  ) {}

  handlers(): DomainHandlers<'alerts'> {
    return {
      'alerts:list': () => this.list(),
      'alerts:dismiss': ({ alertId }) => this.dismiss(alertId),
    };
  }

  /**
   * The raised alerts the user has not dismissed whose cause still stands, newest first: one whose
   * cause was resolved (auto-renew turned on, traffic added) is not listed, as the overview no longer
   * lists its item. The words are the item's now.
   */
  list(): Promise<AlertView[]> {
    return this.judge(this.raised());
  }

  /** The raised alerts the user has not dismissed, as raised (the overview judges them itself). */
  raised(): RaisedAlert[] {
    return this.center.recent().filter((alert) => !this.dismissed.has(alert.id));
  }

  /** Hides one alert from the list; false when no such alert is kept. */
  dismiss(alertId: string): Promise<{ dismissed: boolean }> {
    const known = this.center.recent().some((alert) => alert.id === alertId);
    if (known) this.dismissed.add(alertId);
    return Promise.resolve({ dismissed: known });
  }
}
