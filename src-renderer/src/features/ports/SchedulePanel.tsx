import { useEffect, useState, type FormEvent } from 'react';
import type { IpcError, PortSchedule, ScheduleCadence, ScheduleRun } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { UnplacedErrors } from '../../shared/components/UnplacedErrors';
import { fieldErrorsOf, unplacedFieldErrors, type FieldErrors } from '../../shared/field-errors';
import { SCHEDULE_LIMITS } from './port-limits';
import { usePortsStore, type ScheduleInput } from './ports-store';
import { NextRun } from './NextRun';

type Kind = 'every' | 'cron';
type Unit = 'seconds' | 'minutes';

export interface ScheduleForm {
  kind: Kind;
  every: string;
  unit: Unit;
  expression: string;
  timezone: string;
  jitter: string;
  stagger: string;
}

/** The form as it opens: the port's schedule when it has one, else every 30 minutes. */
export function formOf(schedule: PortSchedule | undefined): ScheduleForm {
  const cadence = schedule?.cadence;
  const seconds = cadence?.kind === 'every' ? cadence.seconds : 1800;
  const inMinutes = seconds % 60 === 0;
  return {
    kind: cadence?.kind ?? 'every',
    every: String(inMinutes ? seconds / 60 : seconds),
    unit: inMinutes ? 'minutes' : 'seconds',
    expression: cadence?.kind === 'cron' ? cadence.expression : '0 * * * *',
    timezone: cadence?.kind === 'cron' ? (cadence.timezone ?? '') : '',
    jitter: String(schedule?.jitterSeconds ?? 0),
    stagger: String(schedule?.staggerSeconds ?? 0),
  };
}

const wholeIn = (text: string, min: number, max: number) => {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : null;
};

/**
 * Checks the form as main's contract would (the same limits), so the user sees the error on the
 * field before anything is sent. A cron expression is checked by main only: with the parser the
 * scheduler runs on, so what is accepted also runs.
 */
export function validateSchedule(
  form: ScheduleForm,
  group: boolean,
): { input: ScheduleInput } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const { minEverySeconds, maxEverySeconds, maxJitterSeconds, maxStaggerSeconds } = SCHEDULE_LIMITS;
  let cadence: ScheduleCadence | null = null;
  if (form.kind === 'every') {
    const factor = form.unit === 'minutes' ? 60 : 1;
    const value = wholeIn(form.every, 1, Number.MAX_SAFE_INTEGER);
    if (value === null) errors.every = `Whole ${form.unit}`;
    else if (value * factor < minEverySeconds)
      errors.every = `At least every ${minEverySeconds} seconds (the service's limit)`;
    else if (value * factor > maxEverySeconds) errors.every = 'At most every 7 days';
    else cadence = { kind: 'every', seconds: value * factor };
  } else if (!form.expression.trim()) errors.expression = 'Enter a cron expression';
  else
    cadence = {
      kind: 'cron',
      expression: form.expression.trim(),
      ...(form.timezone.trim() ? { timezone: form.timezone.trim() } : {}),
    };
  const jitter = wholeIn(form.jitter || '0', 0, maxJitterSeconds);
  if (jitter === null) errors.jitter = `0-${maxJitterSeconds} whole seconds`;
  const stagger = group ? wholeIn(form.stagger || '0', 0, maxStaggerSeconds) : 0;
  if (stagger === null) errors.stagger = `0-${maxStaggerSeconds} whole seconds`;
  if (Object.keys(errors).length || !cadence || jitter === null || stagger === null) return { errors };
  return { input: { cadence, jitterSeconds: jitter, staggerSeconds: stagger } };
}

/** Main's field names (zod paths) -> the form's. */
const FIELD_ALIASES = {
  'cadence.seconds': 'every',
  'cadence.expression': 'expression',
  'cadence.timezone': 'timezone',
  jitterSeconds: 'jitter',
  staggerSeconds: 'stagger',
};
const PLACED = ['every', 'expression', 'timezone', 'jitter', 'stagger'];

const PAUSE_EXPLAINED =
  'Every port, every profile; on resume each schedule runs once, not a burst of missed runs.';

/**
 * Shared by the detail and the list: pausing is global, so both say so (the list, where height is
 * rows, says it in the tooltip and to screen readers only: `brief`).
 */
export function PauseSchedulesToggle({ brief = false }: { brief?: boolean }) {
  const paused = usePortsStore((store) => store.schedules.data?.paused ?? null);
  const pause = usePortsStore((store) => store.pauseSchedules);
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = async (next: boolean) => {
    setBusy(true);
    const result = await pause(next);
    setBusy(false);
    setError(result.ok ? null : result.error);
  };
  return (
    <div className="pause-schedules" title={brief ? PAUSE_EXPLAINED : undefined}>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={paused === true}
          // Unknown until the schedules are read: a click then could only guess.
          disabled={busy || paused === null}
          onChange={(event) => void toggle(event.target.checked)}
        />{' '}
        Pause schedules
      </label>
      <span className={brief ? 'visually-hidden' : 'muted small'}> {PAUSE_EXPLAINED}</span>
      {error ? <ErrorMessage error={error} title="Could not change the pause" /> : null}
    </div>
  );
}

/**
 * The app's own schedule of one port, or of a selection (then as a group with a stagger). The
 * difference with the server-side rotation mode is said next to it, in step with the settings panel.
 */
export function ScheduleEditor({
  portIds,
  schedule,
  onDone,
}: {
  portIds: string[];
  /** The port's schedule, when one port is edited. */
  schedule?: PortSchedule | undefined;
  onDone?: () => void;
}) {
  const setSchedule = usePortsStore((store) => store.setSchedule);
  const removeSchedule = usePortsStore((store) => store.removeSchedule);
  const [form, setForm] = useState(() => formOf(schedule));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const group = portIds.length > 1;
  const field = (name: keyof ScheduleForm) => (value: string) =>
    setForm((current) => ({ ...current, [name]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    const checked = validateSchedule(form, group);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await setSchedule(portIds, checked.input);
    setBusy(false);
    if (result.ok) {
      setFailure(null);
      setStatus(group ? `Schedule saved for ${portIds.length} ports.` : 'Schedule saved.');
      onDone?.();
      return;
    }
    const fields = fieldErrorsOf(result.error, FIELD_ALIASES);
    setErrors(fields);
    setFailure(Object.keys(fields).length ? null : result.error);
  };
  const remove = async () => {
    setStatus(null);
    setBusy(true);
    const result = await removeSchedule(portIds);
    setBusy(false);
    setFailure(result.ok ? null : result.error);
    if (result.ok) {
      setStatus('Schedule removed.');
      onDone?.();
    }
  };
  const unplaced = unplacedFieldErrors(errors, PLACED);
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Rotation schedule">
      <RadioGroup
        legend="Rotate"
        value={form.kind}
        onChange={(kind) => setForm((current) => ({ ...current, kind }))}
        segmented
        options={[
          { value: 'every', label: 'Every N seconds or minutes' },
          { value: 'cron', label: 'On a cron expression' },
        ]}
      />
      {form.kind === 'every' ? (
        <div className="field-pair">
          <TextField
            label="Every"
            inputMode="numeric"
            value={form.every}
            onChange={field('every')}
            error={errors.every}
            hint={`At least ${SCHEDULE_LIMITS.minEverySeconds} seconds, at most 7 days.`}
          />
          <RadioGroup
            legend="Unit"
            value={form.unit}
            onChange={(unit) => setForm((current) => ({ ...current, unit }))}
            segmented
            options={[
              { value: 'seconds', label: 'seconds' },
              { value: 'minutes', label: 'minutes' },
            ]}
          />
        </div>
      ) : (
        <>
          <TextField
            label="Cron expression"
            value={form.expression}
            onChange={field('expression')}
            error={errors.expression}
            spellCheck={false}
            hint="5 fields (minute hour day month weekday), or 6 with seconds first; e.g. */15 * * * *."
          />
          <TextField
            label="Time zone (optional)"
            value={form.timezone}
            onChange={field('timezone')}
            error={errors.timezone}
            placeholder="Europe/Berlin"
            hint="Default: this computer's time zone."
          />
        </>
      )}
      <TextField
        label="Jitter (seconds)"
        inputMode="numeric"
        value={form.jitter}
        onChange={field('jitter')}
        error={errors.jitter}
        hint="Each run is delayed by a random 0 to this many seconds (never earlier)."
      />
      {group ? (
        <TextField
          label="Stagger (seconds)"
          inputMode="numeric"
          value={form.stagger}
          onChange={field('stagger')}
          error={errors.stagger}
          hint={`The ${portIds.length} ports run one after another, this many seconds apart.`}
        />
      ) : null}
      <UnplacedErrors messages={unplaced} />
      {failure ? <ErrorMessage error={failure} title="Could not save the schedule" /> : null}
      <button type="submit" className="button button--primary" disabled={busy}>
        {group ? `Schedule ${portIds.length} ports` : schedule ? 'Save schedule' : 'Add schedule'}
      </button>{' '}
      {schedule || group ? (
        <button type="button" className="button" disabled={busy} onClick={() => void remove()}>
          {group ? `Remove schedules of ${portIds.length} ports` : 'Remove schedule'}
        </button>
      ) : null}
      {status ? (
        <span role="status" className="muted">
          {' '}
          {status}
        </span>
      ) : null}
    </form>
  );
}

const TRIGGERS: Record<string, string> = {
  schedule: 'Scheduled',
  'catch-up': 'Catch-up (missed runs)',
  retry: 'Retry after a failure',
};
const RESULTS: Record<string, string> = {
  'new-ip': 'New IP',
  'same-ip': 'Same IP',
  failed: 'Failed',
  'rate-limited': 'Rate limited',
  'skipped-offline': 'Skipped (offline)',
};

/** The port's whole run log, newest first; unknown triggers and results shown as they come. */
function RunLog({ portId }: { portId: string }) {
  const loadable = usePortsStore((store) => store.scheduleRuns[portId]);
  const load = usePortsStore((store) => store.loadScheduleRuns);
  useEffect(() => {
    void load(portId);
  }, [load, portId]);
  return (
    <AsyncContent
      loadable={loadable}
      what="schedule runs"
      onRetry={() => void load(portId, true)}
      empty={<p className="muted">No scheduled run yet.</p>}
    >
      {(runs: ScheduleRun[]) => (
        <table className="table" aria-label="Schedule runs">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Trigger</th>
              <th scope="col">Result</th>
              <th scope="col">Old IP</th>
              <th scope="col">New IP</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run, index) => (
              <tr key={`${run.at}-${index}`}>
                <td>
                  <Time iso={run.at} />
                </td>
                <td>{TRIGGERS[run.trigger] ?? run.trigger}</td>
                <td>{RESULTS[run.result] ?? run.result}</td>
                <td>{run.previousIp ? <code>{run.previousIp}</code> : '—'}</td>
                <td>{run.newIp ? <code>{run.newIp}</code> : '—'}</td>
                <td>{run.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </AsyncContent>
  );
}

/** The port detail's section: the editor, the pause, the next run and the run log. */
export function SchedulePanel({
  portId,
  onShowServerRotation,
}: {
  portId: string;
  /** Opens the port's Settings tab, where server-side rotation is set. */
  onShowServerRotation: () => void;
}) {
  const loadSchedules = usePortsStore((store) => store.loadSchedules);
  const schedules = usePortsStore((store) => store.schedules);
  const schedule = schedules.data?.schedules.find((candidate) => candidate.portId === portId);
  useEffect(() => {
    void loadSchedules();
  }, [loadSchedules]);
  return (
    <section className="panel" aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">App schedule</h2>
      <p className="muted small">
        The app rotates this port on its own schedule: every few seconds or minutes, or on a cron expression,
        with jitter, and staggered across a group of ports. It runs only while the app runs (in the tray too).
        Server-side rotation (in the{' '}
        <button type="button" className="link-button" onClick={onShowServerRotation}>
          Settings tab
        </button>
        ) keeps running when the app is closed, in whole minutes.
      </p>
      {schedules.error ? <ErrorMessage error={schedules.error} title="Could not read the schedules" /> : null}
      {schedule ? (
        <p>
          Next run: <NextRun schedule={schedule} paused={schedules.data?.paused ?? false} />
          {schedule.consecutiveFailures
            ? ` · ${schedule.consecutiveFailures} failed in a row (backing off, still firing)`
            : null}
        </p>
      ) : schedules.status === 'ready' ? (
        <p className="muted">No app schedule for this port.</p>
      ) : null}
      <PauseSchedulesToggle />
      {schedules.status === 'ready' || schedules.data ? (
        <ScheduleEditor portIds={[portId]} schedule={schedule} />
      ) : null}
      <h3>Run log</h3>
      <RunLog portId={portId} />
    </section>
  );
}
