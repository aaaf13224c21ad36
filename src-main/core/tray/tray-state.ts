import type {
  DomainHandlers,
  EventChannel,
  EventPayload,
  MobilePortView,
  PendingTopUpSummary,
  RotationReceipt,
  RotationTrigger,
  SchedulesView,
  TrayView,
} from '../../../src-shared/contract';
import { TRAY_ALL_PORTS_MAX } from '../../../src-shared/contract/tray';
import type { DomainService, Lifecycle } from '../domain-service';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import { isAbortError, type Clock } from '../runtime/clock';
import type { Settings } from '../settings/settings-schema';
import {
  EMPTY_PORTS_TRAY_STATE,
  inCooldown,
  type PortsTrayAction,
  type PortsTrayState,
  type TrayPayment,
  type TrayPort,
  UNTIL_NEW_TRAY_TRIES,
} from './tray-menu';

interface TrayEvents extends EventSink {
  on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void;
}

interface TrayRotation {
  rotate(
    profileId: string,
    portId: string,
    trigger: RotationTrigger,
    options?: { untilUnique?: { maxTries: number } },
  ): Promise<unknown>;
  rotateMany(profileId: string, portIds: string[], trigger: RotationTrigger): Promise<unknown>;
  /**
   * The newest stored receipt of each port: after a restart the tray knows which ports are still
   * in cooldown (and the last receipt for the tooltip) before any new rotation.
   */
  latestReceipts?(profileId: string): Promise<Record<string, RotationReceipt>>;
}

interface TraySchedules {
  readonly paused: boolean;
  pause(paused: boolean): Promise<SchedulesView>;
  view(profileId: string): SchedulesView;
}

export interface TrayStateOptions {
  settings: {
    get(): Pick<Settings, 'tray'>;
    update(mutate: (draft: Settings) => void): Promise<unknown>;
  };
  events: TrayEvents;
  clock: Clock;
  activeProfileId: () => string | null;
  /**
   * Whether this process owns the background jobs (runs the schedules); default true. Read on
   * every app state change (ownership changes push one).
   */
  ownsJobs?: () => boolean;
  /** Reads the profile's ports (labels, current IPs); `PortsService.refresh`. */
  listPorts: (profileId: string) => Promise<MobilePortView[]>;
  rotation: TrayRotation;
  schedules: TraySchedules;
  /** Open top-ups of every profile (`TopUpWatcher.pending`); re-read on `paymentsChanged`. */
  pendingPayments?: () => Promise<PendingTopUpSummary[]>;
  /** Subscribes to changes of the pending payments (`TopUpWatcher.onChange`) while the tray runs. */
  onPaymentsChange?: (listener: () => void) => () => void;
  log?: (line: string) => void;
}

/**
 * The one state object the tray shows (pinned ports with their IPs and cooldowns, schedules, the
 * last receipt), kept from the app's events. Listeners hear of it only when it changes; the
 * countdown moves it once a second, and only while a listed port is in cooldown.
 */
export class TrayStateService implements DomainService<'tray'>, Lifecycle {
  readonly name = 'tray state';
  private state: PortsTrayState = EMPTY_PORTS_TRAY_STATE;
  private readonly known = new Map<string, MobilePortView>();
  private readonly cooldowns = new Map<string, number>();
  private readonly rotating = new Set<string>();
  private lastReceipt: PortsTrayState['lastReceipt'] = null;
  private payments: TrayPayment[] = [];
  private paymentsRead = 0;
  private started = false;
  private readonly listeners = new Set<(state: PortsTrayState) => void>();
  private readonly unsubscribe: (() => void)[] = [];
  private ticker: AbortController | null = null;
  private readonly log: (line: string) => void;

  constructor(private readonly options: TrayStateOptions) {
    this.log = options.log ?? (() => undefined);
  }

  handlers(): DomainHandlers<'tray'> {
    return {
      'tray:get': () => Promise.resolve(this.view()),
      'tray:setPinned': (input) => this.setPinned(input.portIds),
    };
  }

  get current(): PortsTrayState {
    return this.state;
  }

  /** Called with each new state (not with an equal one). */
  subscribe(listener: (state: PortsTrayState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    const { events } = this.options;
    this.unsubscribe.push(
      events.on('ports:changed', ({ profileId, changed }) => {
        if (profileId !== this.options.activeProfileId()) return;
        for (const port of changed) this.known.set(port.id, port);
        this.recompute();
      }),
      events.on('ports:rotation', (event) => {
        if (event.profileId !== this.options.activeProfileId()) return;
        if (event.phase === 'started') this.rotating.add(event.portId);
        else this.rotating.delete(event.portId);
        if (event.phase === 'finished' && event.receipt) {
          const { receipt } = event;
          this.cooldowns.set(event.portId, Date.parse(receipt.nextRotationAvailableAt));
          const port = this.known.get(event.portId);
          if (port) this.known.set(event.portId, { ...port, currentIp: receipt.ip });
          this.lastReceipt = {
            label: port?.label ?? event.portId,
            previousIp: receipt.previousIp,
            ip: receipt.ip,
            sameIp: receipt.sameIp,
            at: receipt.finishedAt,
          };
        }
        if (event.phase === 'failed' && event.error?.retryAfterMs !== undefined) {
          this.cooldowns.set(event.portId, this.options.clock.now() + event.error.retryAfterMs);
        }
        this.recompute();
      }),
      events.on('schedules:changed', () => this.recompute()),
      this.options.onPaymentsChange?.(() => this.paymentsChanged()) ?? (() => undefined),
      events.on('app:stateChanged', () => {
        if (this.state.profileId !== this.options.activeProfileId()) void this.reload();
        // Job ownership may have changed (the owning process quit): the pause item follows it.
        else this.recompute();
      }),
    );
    this.started = true;
    await this.readPayments();
    await this.reload();
  }

  /** The top-up watcher's set changed (watched, read, dropped): the pending payments are read again. */
  paymentsChanged(): void {
    if (!this.started) return;
    void this.readPayments().then(() => {
      if (this.started) this.recompute();
    });
  }

  private async readPayments(): Promise<void> {
    if (!this.options.pendingPayments) return;
    // Reads can overlap; only the newest one's answer is kept.
    const read = ++this.paymentsRead;
    try {
      const pending = await this.options.pendingPayments();
      if (read !== this.paymentsRead) return;
      this.payments = pending.map(({ topUpId, text }) => ({ topUpId, text }));
    } catch (error) {
      this.log(
        `[tray] cannot read pending top-ups: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  stop(): void {
    this.started = false;
    for (const off of this.unsubscribe.splice(0)) off();
    this.ticker?.abort();
    this.ticker = null;
  }

  view(): TrayView {
    const profileId = this.options.activeProfileId();
    return { profileId, pinnedPortIds: this.pinnedIds(profileId) };
  }

  async setPinned(portIds: string[]): Promise<TrayView> {
    const profileId = this.options.activeProfileId();
    if (profileId === null) throw new AppError('not_configured', 'Add a profile first.');
    await this.options.settings.update((draft) => {
      if (portIds.length === 0) delete draft.tray.pinned[profileId];
      else draft.tray.pinned[profileId] = [...portIds];
    });
    const view = this.view();
    this.options.events.emit('tray:changed', view);
    this.recompute();
    return view;
  }

  /** What a tray click asks for. Failures reach the user as `ports:rotation` (and a notification). */
  async handleAction(action: PortsTrayAction): Promise<void> {
    const profileId = this.options.activeProfileId();
    try {
      if (action.type === 'pause-schedules') {
        await this.options.schedules.pause(action.paused);
      } else if (profileId === null) {
        return;
      } else if (action.type === 'rotate-port') {
        await this.options.rotation.rotate(profileId, action.portId, 'tray');
      } else if (action.type === 'rotate-until-new') {
        await this.options.rotation.rotate(profileId, action.portId, 'tray', {
          untilUnique: { maxTries: UNTIL_NEW_TRAY_TRIES },
        });
      } else {
        const ids = this.state.ports.map((port) => port.portId);
        if (ids.length > 0) await this.options.rotation.rotateMany(profileId, ids, 'tray');
      }
    } catch (error) {
      this.log(`[tray] ${action.type} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The global shortcut: rotates the first listed port, if it may rotate now. */
  async rotateFirstPinned(): Promise<boolean> {
    const profileId = this.options.activeProfileId();
    const first = this.state.ports[0];
    if (profileId === null || !first || first.rotating || inCooldown(first, this.options.clock.now())) {
      return false;
    }
    try {
      await this.options.rotation.rotate(profileId, first.portId, 'shortcut');
    } catch (error) {
      this.log(`[tray] shortcut rotation failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return true;
  }

  private async reload(): Promise<void> {
    const profileId = this.options.activeProfileId();
    this.known.clear();
    this.cooldowns.clear();
    this.rotating.clear();
    this.lastReceipt = null;
    if (profileId !== null) {
      try {
        for (const port of await this.options.listPorts(profileId)) this.known.set(port.id, port);
      } catch (error) {
        this.log(`[tray] cannot read the ports: ${error instanceof Error ? error.message : String(error)}`);
      }
      await this.seedFromReceipts(profileId);
    }
    this.recompute();
  }

  /** Cooldowns and the last receipt from the stored receipts (they outlive a restart; the tray's maps do not). */
  private async seedFromReceipts(profileId: string): Promise<void> {
    if (!this.options.rotation.latestReceipts) return;
    let latest: Record<string, RotationReceipt>;
    try {
      latest = await this.options.rotation.latestReceipts(profileId);
    } catch (error) {
      this.log(`[tray] cannot read the receipts: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    // A rotation that finished while the receipts were read is newer: keep what the events said.
    if (profileId !== this.options.activeProfileId()) return;
    let newest: RotationReceipt | null = null;
    for (const [portId, receipt] of Object.entries(latest)) {
      if (!this.cooldowns.has(portId))
        this.cooldowns.set(portId, Date.parse(receipt.nextRotationAvailableAt));
      if (!newest || receipt.finishedAt > newest.finishedAt) newest = receipt;
    }
    if (newest && !this.lastReceipt) {
      this.lastReceipt = {
        label: this.known.get(newest.portId)?.label ?? newest.portId,
        previousIp: newest.previousIp,
        ip: newest.ip,
        sameIp: newest.sameIp,
        at: newest.finishedAt,
      };
    }
  }

  private pinnedIds(profileId: string | null): string[] {
    if (profileId === null) return [];
    return [...(this.options.settings.get().tray.pinned[profileId] ?? [])];
  }

  private recompute(): void {
    const profileId = this.options.activeProfileId();
    const pinnedIds = this.pinnedIds(profileId).filter((id) => this.known.has(id));
    const pinned = pinnedIds.length > 0;
    const ids = pinned
      ? pinnedIds
      : this.known.size <= TRAY_ALL_PORTS_MAX
        ? [...this.known.values()].sort((a, b) => a.label.localeCompare(b.label)).map((p) => p.id)
        : [];
    const now = this.options.clock.now();
    const ports: TrayPort[] = ids.map((id) => {
      const port = this.known.get(id) as MobilePortView;
      const until = this.cooldowns.get(id) ?? null;
      return {
        portId: id,
        label: port.label,
        currentIp: port.currentIp,
        cooldownUntil: until !== null && until > now ? until : null,
        rotating: this.rotating.has(id),
      };
    });
    const schedules = profileId === null ? null : this.options.schedules.view(profileId);
    const anyCooldown = ports.some((port) => port.cooldownUntil !== null);
    const next: PortsTrayState = {
      profileId,
      ports,
      pinned,
      hasSchedules: (schedules?.schedules.length ?? 0) > 0,
      schedulesPaused: this.options.schedules.paused,
      ownsSchedules: this.options.ownsJobs?.() ?? true,
      lastReceipt: this.lastReceipt,
      payments: this.payments,
      // Whole seconds, and only while a countdown shows: otherwise time does not change the menu.
      nowMs: anyCooldown ? Math.floor(now / 1000) * 1000 : 0,
    };
    if (anyCooldown) this.startTicker();
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener(next);
  }

  private startTicker(): void {
    if (this.ticker) return;
    const ticker = new AbortController();
    this.ticker = ticker;
    const { clock } = this.options;
    const loop = async (): Promise<void> => {
      while (!ticker.signal.aborted) {
        await clock.sleep(1000 - (clock.now() % 1000), ticker.signal);
        const active = this.state.ports.some((port) => port.cooldownUntil !== null);
        if (!active) break;
        this.recompute();
        if (!this.state.ports.some((port) => port.cooldownUntil !== null)) break;
      }
    };
    loop()
      .catch((error: unknown) => {
        if (!isAbortError(error)) this.log(`[tray] countdown stopped: ${String(error)}`);
      })
      .finally(() => {
        if (this.ticker === ticker) this.ticker = null;
      });
  }
}
