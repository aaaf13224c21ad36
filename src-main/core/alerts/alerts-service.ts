import type { AlertKindName, DomainHandlers } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { AlertCenter, RaisedAlert } from './alert-center';
import type { AlertKind } from './alert-rules';

// The contract's kind names and the rules' kinds are one list, written twice (the contract is free
// of core imports): a kind added to one side only is a compile error here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const kindsMatch: Same<AlertKind, AlertKindName> = true;
void kindsMatch;

/** `alerts:*`: the in-app list of what the alert center raised. */
export class AlertsService implements DomainService<'alerts'> {
  private readonly dismissed = new Set<string>();

  constructor(private readonly center: Pick<AlertCenter, 'recent'>) {}

  handlers(): DomainHandlers<'alerts'> {
    return {
      'alerts:list': () => this.list(),
      'alerts:dismiss': ({ alertId }) => this.dismiss(alertId),
    };
  }

  /** The raised alerts the user has not dismissed, newest first. */
  list(): Promise<RaisedAlert[]> {
    return Promise.resolve(this.center.recent().filter((alert) => !this.dismissed.has(alert.id)));
  }

  /** Hides one alert from the list; false when no such alert is kept. */
  dismiss(alertId: string): Promise<{ dismissed: boolean }> {
    const known = this.center.recent().some((alert) => alert.id === alertId);
    if (known) this.dismissed.add(alertId);
    return Promise.resolve({ dismissed: known });
  }
}
