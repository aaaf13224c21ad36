/**
 * The one place alerts are raised: a condition that starts to hold raises one alert, a condition that
 * keeps holding raises nothing more, and a condition that stops holding re-arms. Crossings are kept
 * in the job store (written before the alert goes out), so a restart neither repeats nor loses one.
 */
import type { JobSection } from '../storage/job-section';
import { ALERT_KINDS, type AlertCheck, type AlertKind } from './alert-rules';

export interface RaisedAlert {
  id: string;
  key: string;
  kind: AlertKind;
  profileId: string;
  subjectId: string;
  level: 'warning' | 'error';
  title: string;
  message: string;
  raisedAt: string;
}

/** The crossings that currently hold, as stored in the job store. */
export interface CrossingStore {
  /** Sync (tests) or async (a job-store section). */
  read(): readonly string[] | Promise<readonly string[]>;
  write(keys: readonly string[]): Promise<void>;
}

/** The crossings in a job-store section (`alert-crossings`). */
export function crossingsIn(section: JobSection<{ keys: string[] }>): CrossingStore {
  return {
    read: async () => (await section.read())?.keys ?? [],
    write: async (keys) => {
      await section.update(() => ({ keys: [...keys] }));
    },
  };
}

export interface AlertCenterOptions {
  crossings: CrossingStore;
  now: () => Date;
  /** In-app list and OS notification; called after the crossing is stored. */
  publish: (alert: RaisedAlert) => void;
  /** Alerts kept for the in-app list. */
  historyLimit?: number;
}

export class AlertCenter {
  private readonly history: RaisedAlert[] = [];
  private counter = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: AlertCenterOptions) {}

  /** Applies one poll's checks; resolves with the alerts raised by it. Serialised across callers. */
  apply(checks: readonly AlertCheck[]): Promise<RaisedAlert[]> {
    const run = this.queue.then(() => this.applyNow(checks));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The latest alerts, newest first. */
  recent(): RaisedAlert[] {
    return [...this.history];
  }

  /** Forgets a profile's crossings (the profile was deleted), so they can fire again if it returns. */
  async forgetProfile(profileId: string): Promise<void> {
    await this.apply([]);
    const ofProfile = (key: string) => ALERT_KINDS.some((kind) => key.startsWith(`${kind}:${profileId}:`));
    const kept = (await this.options.crossings.read()).filter((key) => !ofProfile(key));
    await this.options.crossings.write(kept);
    this.history.splice(0, this.history.length, ...this.history.filter((a) => a.profileId !== profileId));
  }

  private async applyNow(checks: readonly AlertCheck[]): Promise<RaisedAlert[]> {
    const held = new Set(await this.options.crossings.read());
    const raised: RaisedAlert[] = [];
    let changed = false;
    for (const item of checks) {
      if (item.holds && !held.has(item.key)) {
        held.add(item.key);
        changed = true;
        raised.push(this.toAlert(item));
      } else if (!item.holds && held.has(item.key)) {
        held.delete(item.key);
        changed = true;
      }
    }
    if (changed) await this.options.crossings.write([...held]);
    for (const alert of raised) {
      this.history.unshift(alert);
      this.options.publish(alert);
    }
    this.history.splice(this.options.historyLimit ?? 100);
    return raised;
  }

  private toAlert(item: AlertCheck): RaisedAlert {
    this.counter += 1;
    const raisedAt = this.options.now().toISOString();
    return {
      id: `alert-${Date.parse(raisedAt).toString(36)}-${this.counter}`,
      key: item.key,
      kind: item.kind,
      profileId: item.profileId,
      subjectId: item.subjectId,
      level: item.level ?? 'warning',
      title: item.title ?? item.kind,
      message: item.message ?? '',
      raisedAt,
    };
  }
}
