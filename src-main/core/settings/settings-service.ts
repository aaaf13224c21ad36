import type {
  DomainHandlers,
  ParsedCallInput,
  SavedTableView,
  SettingsView,
} from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { EventSink } from '../events';
import type { Settings } from './settings-schema';
import type { SettingsStore } from './settings-store';

export function toSettingsView(settings: Settings): SettingsView {
  return {
    theme: settings.ui.theme,
    density: settings.ui.density,
    polling: { ...settings.polling },
    alerts: {
      trafficRemainingPercent: settings.alerts.trafficRemainingPercent,
      trafficRemainingGb: settings.alerts.trafficRemainingGb,
      trafficBySubscription: Object.fromEntries(
        Object.entries(settings.alerts.trafficBySubscription).map(([id, threshold]) => [
          id,
          {
            ...(threshold.percent !== undefined ? { percent: threshold.percent } : {}),
            ...(threshold.gb !== undefined ? { gb: threshold.gb } : {}),
          },
        ]),
      ),
      runsOutWithinDays: settings.alerts.runsOutWithinDays,
      expiryWarningDays: settings.alerts.expiryWarningDays,
      disabledKinds: [...settings.alerts.disabledKinds],
      subUserAlertSubscriptions: [...settings.alerts.subUserAlertSubscriptions],
    },
    desktop: { ...settings.desktop },
    notifications: { ...settings.notifications },
    shortcut: { ...settings.shortcut },
    proxyTest: { ...settings.proxyTest },
    healthChecks: { ...settings.healthChecks },
  };
}

/**
 * The user's preferences (not profiles: those are the profiles service's). Every change is
 * announced, also one another process saved (the store tells when it adopts one).
 */
export class SettingsService implements DomainService<'settings'> {
  private announced: string;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly settings: Pick<SettingsStore, 'get' | 'update' | 'reload' | 'subscribe'>,
    private readonly events: EventSink,
  ) {
    this.announced = JSON.stringify(this.view());
    this.unsubscribe = settings.subscribe(() => this.announce());
  }

  handlers(): DomainHandlers<'settings'> {
    return {
      'settings:get': () => this.get(),
      'settings:update': (input) => this.update(input),
      'settings:tableViews': () => this.tableViews(),
      'settings:saveTableViews': (input) => this.saveTableViews(input),
    };
  }

  /** The settings as saved now, by this process or another. */
  async get(): Promise<SettingsView> {
    await this.settings.reload();
    return this.view();
  }

  view(): SettingsView {
    return toSettingsView(this.settings.get());
  }

  stop(): void {
    this.unsubscribe();
  }

  private announce(): SettingsView {
    const view = this.view();
    const text = JSON.stringify(view);
    if (text !== this.announced) {
      this.announced = text;
      this.events.emit('settings:changed', view);
    }
    return view;
  }

  /** Every list's saved views, as saved now (by this process or another). */
  async tableViews(): Promise<Record<string, SavedTableView[]>> {
    await this.settings.reload();
    return structuredClone(this.settings.get().tableViews);
  }

  /** Replaces one list's views; an empty list is removed from the file. */
  async saveTableViews(
    input: ParsedCallInput<'settings:saveTableViews'>,
  ): Promise<Record<string, SavedTableView[]>> {
    const saved = await this.settings.update((draft) => {
      if (input.views.length) draft.tableViews[input.list] = input.views;
      else delete draft.tableViews[input.list];
    });
    return structuredClone(saved.tableViews);
  }

  async update(input: ParsedCallInput<'settings:update'>): Promise<SettingsView> {
    await this.settings.update((draft) => {
      if (input.theme !== undefined) draft.ui.theme = input.theme;
      if (input.density !== undefined) draft.ui.density = input.density;
      Object.assign(draft.polling, definedOnly(input.polling));
      Object.assign(draft.alerts, definedOnly(input.alerts));
      Object.assign(draft.desktop, definedOnly(input.desktop));
      Object.assign(draft.notifications, definedOnly(input.notifications));
      Object.assign(draft.shortcut, definedOnly(input.shortcut));
      Object.assign(draft.proxyTest, definedOnly(input.proxyTest));
      Object.assign(draft.healthChecks, definedOnly(input.healthChecks));
    });
    return this.announce();
  }
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
