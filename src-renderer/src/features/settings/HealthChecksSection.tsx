import type { SettingsView } from '../../../../src-shared/contract';
import { PreferenceForm, type PreferenceField } from './PreferenceForm';

const FIELDS: readonly PreferenceField[] = [
  {
    name: 'healthChecks.portsEverySeconds',
    label: 'Check each port every',
    unit: 'seconds',
    kind: 'whole',
    hint: 'One request through each port to the check URL, spread over this interval (never in a burst). At least 30; 0 turns the checks off.',
    read: (s) => String(s.healthChecks.portsEverySeconds),
  },
  {
    name: 'healthChecks.subscriptionsEverySeconds',
    label: 'Check each subscription every',
    unit: 'seconds',
    kind: 'whole',
    hint: 'Through the subscription’s main user (each check uses a little of its traffic). 0, the default, turns them off; else at least 30.',
    read: (s) => String(s.healthChecks.subscriptionsEverySeconds),
  },
  {
    name: 'healthChecks.localProxiesEverySeconds',
    label: 'Check each local proxy every',
    unit: 'seconds',
    kind: 'whole',
    hint: 'Through each running local proxy’s own address (with its local login), so the whole chain your programs use is checked. 0 turns them off; else at least 30.',
    read: (s) => String(s.healthChecks.localProxiesEverySeconds),
  },
  {
    name: 'healthChecks.downAfter',
    label: 'Down after',
    unit: 'failed checks in a row',
    kind: 'whole',
    hint: 'A port is down after this many failed checks in a row (1-20).',
    read: (s) => String(s.healthChecks.downAfter),
  },
  {
    name: 'healthChecks.upAfter',
    label: 'Up again after',
    unit: 'good checks in a row',
    kind: 'whole',
    hint: 'A port that is down is up again after this many good checks in a row (1-20).',
    read: (s) => String(s.healthChecks.upAfter),
  },
  {
    name: 'healthChecks.checkUrl',
    label: 'Check URL',
    kind: 'optional-text',
    inputMode: 'url',
    className: 'field--wide',
    hint: 'An IP echo asked through each port (JSON with "ip", or the IP as plain text). Empty: the IP-echo URL of the proxy test. The demo uses the sandbox’s own echo.',
    read: (s) => s.healthChecks.checkUrl ?? '',
  },
  {
    name: 'healthChecks.repeatWindowHours',
    label: 'A rotation’s IP is a repeat when seen within',
    unit: 'hours',
    kind: 'whole',
    hint: 'On this port or any port of the profile (1-720).',
    read: (s) => String(s.healthChecks.repeatWindowHours),
  },
  {
    name: 'healthChecks.repeatWindowRotations',
    label: '… or among the port’s last',
    unit: 'IPs',
    kind: 'whole',
    hint: 'The port’s own IP history from the service (1-500).',
    read: (s) => String(s.healthChecks.repeatWindowRotations),
  },
  {
    name: 'healthChecks.selfHealAfter',
    label: 'Self-heal: rotate once after',
    unit: 'failed checks in a row',
    kind: 'whole',
    hint: 'Rotates the port once (after its cooldown) and tells you if that did not help. 0 turns it off.',
    read: (s) => String(s.healthChecks.selfHealAfter),
  },
];

/** Health checks through the ports and the rotation verdicts' window (Settings). */
export function HealthChecksSection({ settings }: { settings: SettingsView }) {
  return (
    <section className="settings-section" aria-labelledby="health-checks-title">
      <h2 id="health-checks-title" tabIndex={-1}>
        Health checks
      </h2>
      <PreferenceForm
        key={JSON.stringify(FIELDS.map((field) => field.read(settings)))}
        section="healthChecks"
        labelledBy="health-checks-title"
        fields={FIELDS}
        settings={settings}
      />
    </section>
  );
}
