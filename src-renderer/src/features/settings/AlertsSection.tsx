import { useState, type FormEvent } from 'react';
import type { Subscription } from '../../../../src-shared/api-types';
import type { AlertKindName, SettingsView, TrafficThresholdView } from '../../../../src-shared/contract';
import { CheckboxOption } from '../../shared/components/CheckboxOption';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { TextField } from '../../shared/components/TextField';
import { UnplacedErrors } from '../../shared/components/UnplacedErrors';
import { fieldErrorsOf } from '../../shared/field-errors';
import type { Loadable } from '../../shared/loadable';
import { useLoadable } from '../../shared/loadable-slice';
import { useAppStore } from '../app/app-store';
import {
  type SubscriptionProductFilter,
  subscriptionLists,
  useSubscriptionsStore,
} from '../subscriptions/subscriptions-store';
import { subscriptionHref } from '../subscriptions/subscription-route';
import { PickList } from './PickList';
import { PreferenceForm, type PreferenceField } from './PreferenceForm';
import { useSettingsStore } from './settings-store';

type Alerts = SettingsView['alerts'];
const ALL: SubscriptionProductFilter = 'all';

// A Record over the contract's kinds: a kind added in main fails the typecheck until it has a label.
const ALERT_KIND_LABELS: Record<AlertKindName, { label: string; hint: string }> = {
  traffic_low: { label: 'Traffic running low', hint: 'Remaining traffic below the threshold above.' },
  traffic_runs_out: {
    label: 'Traffic runs out soon',
    hint: 'At the last 7 days’ pace, the traffic runs out within the days set above.',
  },
  sub_user_cap_80: {
    label: 'Sub-user at 80% of its cap',
    hint: 'For the subscriptions chosen under “Sub-user cap alerts”.',
  },
  sub_user_cap_100: {
    label: 'Sub-user at its cap',
    hint: 'Its traffic stops until the cap is raised.',
  },
  subscription_expiring: {
    label: 'Subscription expiring',
    hint: 'Within the expiry warning days, when it does not renew itself.',
  },
  port_expiring: { label: 'Port expiring', hint: 'Within the expiry warning days, without auto-renew.' },
};
const ALERT_KINDS = Object.keys(ALERT_KIND_LABELS) as AlertKindName[];

const ALERT_FIELDS: readonly PreferenceField[] = [
  {
    name: 'alerts.trafficRemainingPercent',
    label: 'Low traffic, % left',
    unit: '% left',
    kind: 'whole',
    hint: 'Warn when a subscription has this share of its traffic left, or less. 0 turns it off.',
    read: (s) => String(s.alerts.trafficRemainingPercent),
  },
  {
    name: 'alerts.trafficRemainingGb',
    label: 'Low traffic, GB left',
    unit: 'GB left',
    kind: 'gb',
    inputMode: 'decimal',
    hint: 'Or when it has this many GB left (1 GB = 1,000,000,000 bytes, as billed). Empty: off.',
    read: (s) => s.alerts.trafficRemainingGb ?? '',
  },
  {
    name: 'alerts.runsOutWithinDays',
    label: 'Runs-out warning',
    unit: 'days ahead',
    kind: 'whole',
    hint: 'Warn when the last 7 days’ pace runs the traffic out within this many days.',
    read: (s) => String(s.alerts.runsOutWithinDays),
  },
  {
    name: 'alerts.expiryWarningDays',
    label: 'Expiry warning',
    unit: 'days before',
    kind: 'whole',
    hint: 'Warn this many days before a port or subscription expires without auto-renew.',
    read: (s) => String(s.alerts.expiryWarningDays),
  },
];

function AlertKinds({ alerts }: { alerts: Alerts }) {
  const update = useSettingsStore((store) => store.update);
  const saving = useSettingsStore((store) => store.saving.alertKinds ?? false);
  const error = useSettingsStore((store) => store.errors.alertKinds ?? null);
  const toggle = (kind: AlertKindName, on: boolean) => {
    const disabledKinds = on
      ? alerts.disabledKinds.filter((known) => known !== kind)
      : [...alerts.disabledKinds, kind];
    void update(
      'alertKinds',
      { alerts: { disabledKinds } },
      `${ALERT_KIND_LABELS[kind].label}: ${on ? 'on' : 'off'}`,
    );
  };
  return (
    <fieldset className="radio-group">
      <legend>Alert kinds</legend>
      {ALERT_KINDS.map((kind) => (
        <CheckboxOption
          key={kind}
          label={ALERT_KIND_LABELS[kind].label}
          hint={ALERT_KIND_LABELS[kind].hint}
          checked={!alerts.disabledKinds.includes(kind)}
          disabled={saving}
          onChange={(on) => toggle(kind, on)}
        />
      ))}
      {error ? <ErrorMessage error={error} title="Could not change the alert kinds" /> : null}
    </fieldset>
  );
}

/** The active profile's subscriptions, to choose from; ids saved earlier stay listed even when absent. */
interface SubscriptionChoices {
  /** Null while they are read (or when reading them failed). */
  subscriptions: Subscription[] | null;
  loadable: Loadable<Subscription[]> | undefined;
  retry: () => void;
  /** Said when there is nothing to choose from. */
  none: string;
}

function useSubscriptionChoices(): SubscriptionChoices {
  const { loadable, retry } = useLoadable(useSubscriptionsStore, subscriptionLists, ALL);
  return {
    subscriptions: loadable?.data ?? null,
    loadable,
    retry,
    none: 'This profile has no traffic subscriptions.',
  };
}

// Without an active profile there is no account to read: nothing is asked, the saved choices stay.
const NO_PROFILE: SubscriptionChoices = {
  subscriptions: [],
  loadable: undefined,
  retry: () => undefined,
  none: 'No active profile: add or choose one to pick among its subscriptions.',
};

/** A subscription's label, or its id when it has none (a blank name says nothing). */
const nameOf = (sub: Subscription) => sub.label.trim() || sub.id;

function subscriptionName(subscriptions: readonly Subscription[] | null, id: string): string {
  const sub = subscriptions?.find((known) => known.id === id);
  return sub ? nameOf(sub) : id;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function SubscriptionsLoading({
  loadable,
  retry,
}: {
  loadable: Loadable<Subscription[]> | undefined;
  retry: () => void;
}) {
  if (loadable?.error) {
    return <ErrorMessage error={loadable.error} title="Could not read your subscriptions" onRetry={retry} />;
  }
  return <p className="muted">Reading your subscriptions…</p>;
}

function SubUserAlerts({ alerts, choices }: { alerts: Alerts; choices: SubscriptionChoices }) {
  const { subscriptions, loadable, retry, none } = choices;
  const update = useSettingsStore((store) => store.update);
  const saving = useSettingsStore((store) => store.saving.subUserAlerts ?? false);
  const error = useSettingsStore((store) => store.errors.subUserAlerts ?? null);
  const chosen = alerts.subUserAlertSubscriptions;
  const absent = chosen.filter((id) => !subscriptions?.some((sub) => sub.id === id));
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((known) => known !== id);
    void update(
      'subUserAlerts',
      { alerts: { subUserAlertSubscriptions: next } },
      `Sub-user cap alerts for “${subscriptionName(subscriptions, id)}”: ${on ? 'on' : 'off'}`,
    );
  };
  const setMany = (ids: readonly string[], on: boolean) => {
    const next = on ? [...chosen, ...ids] : chosen.filter((id) => !ids.includes(id));
    void update(
      'subUserAlerts',
      { alerts: { subUserAlertSubscriptions: next } },
      `Sub-user cap alerts: ${on ? 'on' : 'off'} for ${plural(ids.length, 'subscription')}`,
    );
  };
  return (
    <>
      <PickList
        legend="Sub-user cap alerts"
        hint="The sub-users of the subscriptions ticked here are read at every usage refresh, for the 80% and 100% cap alerts."
        items={
          subscriptions?.map((sub) => ({
            id: sub.id,
            name: nameOf(sub),
            hint: `${plural(sub.subUserCount, 'sub-user')}${sub.label.trim() ? '' : ' · no label'}`,
          })) ?? null
        }
        chosen={chosen}
        absent={absent}
        absentHint="Not a subscription of the active profile (another profile’s, or deleted)."
        noun="subscription"
        saving={saving}
        status={
          subscriptions === null ? (
            <SubscriptionsLoading loadable={loadable} retry={retry} />
          ) : subscriptions.length === 0 ? (
            <p className="muted">{none}</p>
          ) : null
        }
        testId="cap-alerts"
        onToggle={toggle}
        onSetMany={setMany}
      />
      {error ? <ErrorMessage error={error} title="Could not change the sub-user cap alerts" /> : null}
    </>
  );
}

function describeThreshold(threshold: TrafficThresholdView): string {
  const parts = [
    threshold.percent !== undefined ? `${threshold.percent}% left` : null,
    threshold.gb !== undefined ? `${threshold.gb} GB left` : null,
  ].filter((part) => part !== null);
  return parts.join(' or ');
}

/** Per-subscription thresholds: each row replaces the default threshold for its subscription. */
function TrafficOverrides({ alerts, choices }: { alerts: Alerts; choices: SubscriptionChoices }) {
  const { subscriptions, loadable, retry } = choices;
  const update = useSettingsStore((store) => store.update);
  const saving = useSettingsStore((store) => store.saving.trafficOverrides ?? false);
  const error = useSettingsStore((store) => store.errors.trafficOverrides ?? null);
  const clearFeedback = useSettingsStore((store) => store.clearFeedback);
  const table = alerts.trafficBySubscription;
  const rows = Object.entries(table);
  const addable = (subscriptions ?? []).filter((sub) => !(sub.id in table));
  const [subscriptionId, setSubscriptionId] = useState('');
  const [percent, setPercent] = useState('');
  const [gb, setGb] = useState('');
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const chosenId = addable.some((sub) => sub.id === subscriptionId) ? subscriptionId : (addable[0]?.id ?? '');

  // Main names a field of the row being added (`alerts.trafficBySubscription.<id>.gb`).
  const prefix = `alerts.trafficBySubscription.${chosenId}`;
  const serverErrors = fieldErrorsOf(error, {
    [`${prefix}.percent`]: 'percent',
    [`${prefix}.gb`]: 'gb',
    [prefix]: 'row',
  });
  const errors = { ...serverErrors, ...localErrors };
  const placed = new Set(['percent', 'gb']);
  const otherErrors = Object.entries(errors)
    .filter(([field]) => !placed.has(field))
    .map(([, message]) => message);

  const edited = () => {
    setLocalErrors({});
    clearFeedback('trafficOverrides');
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const percentText = percent.trim();
    const gbText = gb.trim();
    const found: Record<string, string> = {};
    if (chosenId === '') found.row = 'Choose a subscription';
    else if (percentText === '' && gbText === '') found.row = 'Give a percent, GB, or both';
    if (percentText !== '' && !Number.isInteger(Number(percentText))) found.percent = 'Enter a whole number';
    setLocalErrors(found);
    if (Object.keys(found).length > 0) return;
    const threshold: TrafficThresholdView = {
      ...(percentText !== '' ? { percent: Number(percentText) } : {}),
      ...(gbText !== '' ? { gb: gbText } : {}),
    };
    const name = subscriptionName(subscriptions, chosenId);
    const done = await update(
      'trafficOverrides',
      { alerts: { trafficBySubscription: { ...table, [chosenId]: threshold } } },
      `Threshold for “${name}”: ${describeThreshold(threshold)}`,
    );
    if (done) {
      setPercent('');
      setGb('');
    }
  };

  const remove = (id: string) => {
    const rest = Object.fromEntries(rows.filter(([known]) => known !== id));
    void update(
      'trafficOverrides',
      { alerts: { trafficBySubscription: rest } },
      `Threshold for “${subscriptionName(subscriptions, id)}”: removed`,
    );
  };

  return (
    <div className="settings-subsection">
      <h3 id="overrides-title">Thresholds per subscription</h3>
      <p className="field__hint">A row replaces the default low-traffic threshold for its subscription.</p>
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-labelledby="overrides-title">
            <thead>
              <tr>
                <th scope="col">Subscription</th>
                <th scope="col">Warn below</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([id, threshold]) => (
                <tr key={id}>
                  <th scope="row">
                    <a href={subscriptionHref(id)}>{subscriptionName(subscriptions, id)}</a>
                  </th>
                  <td>{describeThreshold(threshold)}</td>
                  <td>
                    <button
                      type="button"
                      className="button button--quiet"
                      disabled={saving}
                      onClick={() => remove(id)}
                    >
                      Remove <span className="visually-hidden">{subscriptionName(subscriptions, id)}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">None: every subscription uses the default threshold.</p>
      )}
      {subscriptions === null ? (
        <SubscriptionsLoading loadable={loadable} retry={retry} />
      ) : addable.length === 0 ? null : (
        <form className="form" onSubmit={(event) => void add(event)} noValidate aria-label="Add a threshold">
          <div className="field field--narrow">
            <label htmlFor="override-subscription">Subscription</label>
            <select
              id="override-subscription"
              value={chosenId}
              onChange={(event) => {
                setSubscriptionId(event.target.value);
                edited();
              }}
            >
              {addable.map((sub) => (
                <option key={sub.id} value={sub.id}>
                  {nameOf(sub)}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Percent left"
            inputMode="numeric"
            value={percent}
            onChange={(value) => {
              setPercent(value);
              edited();
            }}
            error={errors.percent}
            addon={<span className="field__unit">%</span>}
            className="field--narrow"
          />
          <TextField
            label="GB left"
            inputMode="decimal"
            value={gb}
            onChange={(value) => {
              setGb(value);
              edited();
            }}
            error={errors.gb}
            addon={<span className="field__unit">GB</span>}
            className="field--narrow"
          />
          <UnplacedErrors messages={otherErrors} />
          {error && !error.fields ? <ErrorMessage error={error} title="Could not save" /> : null}
          <div>
            <button type="submit" className="button" disabled={saving}>
              Add threshold
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The parts that choose among the active profile's subscriptions (read once for both). */
function ProfileAlerts({ alerts }: { alerts: Alerts }) {
  const choices = useSubscriptionChoices();
  return (
    <>
      <SubUserAlerts alerts={alerts} choices={choices} />
      <TrafficOverrides alerts={alerts} choices={choices} />
    </>
  );
}

export function AlertsSection({ settings }: { settings: SettingsView }) {
  const hasProfile = useAppStore((store) => Boolean(store.state?.activeProfile));
  return (
    <section className="settings-section" aria-labelledby="alerts-settings-title">
      <h2 id="alerts-settings-title" tabIndex={-1}>
        Alerts
      </h2>
      {/* Keyed by the values: an undo or a change from another window shows in the fields. */}
      <PreferenceForm
        key={JSON.stringify(ALERT_FIELDS.map((field) => field.read(settings)))}
        section="alerts"
        labelledBy="alerts-settings-title"
        fields={ALERT_FIELDS}
        settings={settings}
      />
      <AlertKinds alerts={settings.alerts} />
      {hasProfile ? (
        <ProfileAlerts alerts={settings.alerts} />
      ) : (
        <>
          <SubUserAlerts alerts={settings.alerts} choices={NO_PROFILE} />
          <TrafficOverrides alerts={settings.alerts} choices={NO_PROFILE} />
        </>
      )}
    </section>
  );
}
