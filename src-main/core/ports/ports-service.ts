import type {
  IpHistoryEntry,
  MobilePort,
  MobilePortUpdate,
  ProxyServiceClient,
  UsageReport,
} from '../../api';
import { currentOrigin } from '../runtime/call-origin';
import type {
  DomainHandlers,
  PortHealth,
  PortHealthHistory,
  IpHistoryExport,
  IpHistoryView,
  MobilePortView,
  ParsedCallInput,
  RelocationProgress,
  RotateManyOutcome,
  RotationReceipt,
} from '../../../src-shared/contract';
import type { PortsListView } from '../../../src-shared/contract';
import { USAGE_RANGE_MAX_DAYS } from '../../../src-shared/contract/ports';
import { HeldListStore } from '../snapshots/held-lists';
import { SnapshotList } from '../snapshots/snapshot-list';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import type { ApiCaller } from '../session/api-caller';
import { checkUsageStart } from '../usage-range';
import { ipHistoryCsv, mergeReceipts } from './ip-history';
import { publishPortChanges } from './port-changes';
import { portsListView } from './port-rows';
import type { PortHealthReader } from '../health/port-health-reader';
import type { RelocationTracker } from './relocation-tracker';
import type { RotateOptions, RotationService } from './rotation-service';

/** The rotation link carries the API key: it stays in main unless the user asks for it. */
export function toPortView({ rotationLink, ...port }: MobilePort): MobilePortView {
  return { ...port, hasRotationLink: typeof rotationLink === 'string' };
}

/** Pages read for a CSV export at most (100 per page: the sandbox keeps 1,000 entries per port). */
const EXPORT_MAX_PAGES = 200;
const EXPORT_PER_PAGE = 100;

export interface PortsServiceOptions {
  api: Pick<ApiCaller, 'active' | 'forProfile'>;
  events: EventSink;
  /** Wall time, for the usage range's default end (today, UTC). */
  now: () => number;
  /** Rotations (`ports:rotate*`, receipts); absent in a process without them. */
  rotation?: RotationService;
  /** Relocations followed until they end; absent: none are tracked. */
  relocations?: Pick<RelocationTracker, 'track' | 'list'>;
  /** Whether this process runs background jobs: only then are relocations tracked. */
  ownsJobs?: () => boolean;
  /** Main's snapshot of each profile's ports (`HeldAccountData.ports`, shared with the overview). */
  held?: HeldListStore<MobilePortView>;
  /** Scores and uptime bars from the health checks; absent: `ports:health` answers empty scores. */
  health?: PortHealthReader;
  /** A snapshot younger than this is served without reading the service again. Default 5 s. */
  freshForMs?: number;
  log?: (line: string) => void;
}

/** Mobile ports. UI calls go to the active profile; `refresh` serves background jobs. */
export class PortsService implements DomainService<'ports'> {
  private readonly api: Pick<ApiCaller, 'active' | 'forProfile'>;
  private readonly events: EventSink;
  private readonly now: () => number;
  private readonly rotation: RotationService | null;
  private readonly relocations: Pick<RelocationTracker, 'track' | 'list'> | null;
  private readonly ownsJobs: () => boolean;
  private readonly snapshots: SnapshotList<MobilePortView>;
  private readonly healthReader: PortHealthReader | null;

  constructor(options: PortsServiceOptions) {
    this.healthReader = options.health ?? null;
    this.api = options.api;
    this.events = options.events;
    this.now = options.now;
    this.rotation = options.rotation ?? null;
    this.relocations = options.relocations ?? null;
    this.ownsJobs = options.ownsJobs ?? (() => true);
    this.snapshots = new SnapshotList<MobilePortView>({
      name: 'ports',
      held: options.held ?? new HeldListStore<MobilePortView>(),
      now: options.now,
      read: async (profileId, priority) =>
        (
          await this.api.forProfile(profileId, 'authenticated', (client) =>
            client.listMobilePorts({ priority }),
          )
        ).map(toPortView),
      announce: (profileId, { changed, removed, asOf }) =>
        this.events.emit('ports:changed', {
          profileId,
          changed,
          ...(removed.length ? { removed } : {}),
          asOf,
        }),
      ...(options.freshForMs !== undefined ? { freshForMs: options.freshForMs } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  }

  handlers(): DomainHandlers<'ports'> {
    return {
      'ports:list': (input) => this.list(input?.fresh ?? false),
      'ports:get': ({ portId }) => this.get(portId),
      'ports:update': (input) => this.update(input),
      'ports:rotate': ({ portId, untilNew, untilUnique }) =>
        this.rotate(portId, untilNew, untilUnique === undefined ? undefined : { maxTries: untilUnique }),
      'ports:rotateMany': ({ portIds }) => this.rotateMany(portIds),
      'ports:relocate': ({ portId, country, carrier, city }) =>
        this.relocate(portId, { country, carrier, ...(city ? { city } : {}) }),
      'ports:relocations': () => this.relocationsInProgress(),
      'ports:resetPassword': ({ portId }) => this.resetPassword(portId),
      'ports:ipHistory': ({ portId, page, perPage }) => this.ipHistory(portId, page, perPage),
      'ports:exportIpHistory': ({ portId }) => this.exportIpHistory(portId),
      'ports:usage': ({ portId, from, to }) => this.usage(portId, from, to),
      'ports:revealRotationLink': ({ portId }) => this.revealRotationLink(portId),
      'ports:receipts': ({ portId }) => this.receipts(portId),
      'ports:health': (input) => this.health(input?.portId),
      'ports:healthHistory': ({ portId, range }) => this.healthHistory(portId, range),
    };
  }

  /** Scores of one port, or of every port of the active profile (in the list's order). */
  async health(portId?: string): Promise<PortHealth[]> {
    const { profileId } = await this.activeProfile();
    if (portId) await this.checkKnownPort(profileId, portId);
    const ids = portId
      ? [portId]
      : (await this.snapshots.serve(profileId, false)).items.map((port) => port.id);
    if (!this.healthReader) return [];
    return this.healthReader.health(profileId, ids);
  }

  async healthHistory(portId: string, range: '24h' | '30d'): Promise<PortHealthHistory> {
    const { profileId } = await this.activeProfile();
    await this.checkKnownPort(profileId, portId);
    if (!this.healthReader) return { portId, range, segments: [], recent: [] };
    return this.healthReader.history(profileId, portId, range);
  }

  /**
   * Scores of a port the account does not have would be empty, not wrong: say so instead (404 on
   * REST). The held list answers; a port made since it was read is looked for in a fresh one.
   */
  private async checkKnownPort(profileId: string, portId: string): Promise<void> {
    const has = (list: { items: readonly { id: string }[] }) => list.items.some((port) => port.id === portId);
    if (has(await this.snapshots.serve(profileId, false))) return;
    if (has(await this.snapshots.serve(profileId, true))) return;
    throw new AppError('port_not_found', `There is no port ${portId} in this account.`, [
      { field: 'portId', message: 'Unknown port.' },
    ]);
  }

  /**
   * The active profile's ports as the list shows them (`PortsListView`, lean), stale-while-revalidate
   * from main's snapshot (`SnapshotList`); `fresh` (Refresh) waits for the service.
   */
  async list(fresh = false): Promise<PortsListView> {
    const { profileId } = await this.activeProfile();
    return portsListView(profileId, await this.snapshots.serve(profileId, fresh));
  }

  /** The ports list of a profile as main holds it, for the first state of a window; null when none. */
  snapshot(profileId: string): PortsListView | null {
    const held = this.snapshots.peek(profileId, true);
    return held ? portsListView(profileId, held) : null;
  }

  async get(portId: string): Promise<MobilePortView> {
    const { value } = await this.api.active('authenticated', (client) => client.getMobilePort(portId));
    return toPortView(value);
  }

  /**
   * A rotation from a button (`untilNew`: again until the IP is new among the last ones;
   * `untilUnique`: again until the verdict is clean).
   */
  async rotate(
    portId: string,
    untilNew?: RotateOptions['untilNew'],
    untilUnique?: RotateOptions['untilUnique'],
  ): Promise<RotationReceipt> {
    const { profileId } = await this.activeProfile();
    const trigger = currentOrigin() ?? 'button';
    return this.rotationService().rotate(profileId, portId, trigger, {
      ...(untilNew ? { untilNew } : {}),
      ...(untilUnique ? { untilUnique } : {}),
    });
  }

  async rotateMany(portIds: string[]): Promise<RotateManyOutcome[]> {
    const { profileId } = await this.activeProfile();
    return this.rotationService().rotateMany(profileId, portIds, currentOrigin() ?? 'bulk');
  }

  /** The active profile's relocations still followed (by the process owning background jobs). */
  async relocationsInProgress(): Promise<RelocationProgress[]> {
    const { profileId } = await this.activeProfile();
    return this.relocations ? this.relocations.list(profileId) : [];
  }

  resetPassword(portId: string): Promise<MobilePortView> {
    return this.write((client) => client.resetMobilePortPassword(portId));
  }

  /** For an explicit reveal or copy only: the link carries the API key. */
  async revealRotationLink(portId: string): Promise<{ rotationLink: string }> {
    // Deliberately not logged anywhere: the link carries the API key.
    const { value } = await this.api.active('authenticated', (client) => client.getMobilePort(portId));
    return { rotationLink: value.rotationLink };
  }

  async receipts(portId: string): Promise<RotationReceipt[]> {
    const { profileId } = await this.activeProfile();
    return this.rotationService().receipts(profileId, portId);
  }

  /**
   * Reads one profile's ports for a background job (or the overview) and tells the UI what differs
   * from main's snapshot (`ports:changed`, with `asOf`): nobody asked, so the event is how the answer
   * reaches the screen, and a read where nothing moved sends no ports.
   */
  refresh(profileId: string): Promise<MobilePortView[]> {
    return this.snapshots.readWhole(profileId, 'background');
  }

  /** Announces ports whose state main learned of (after a write, or a background read). */
  publish(profileId: string, changed: MobilePortView[], relocations?: RelocationProgress[]): void {
    publishPortChanges(this.events, profileId, changed, relocations);
  }

  private rotationService(): RotationService {
    if (!this.rotation) throw new AppError('internal_error', 'Rotation is not available in this process');
    return this.rotation;
  }

  private async activeProfile(): Promise<{ profileId: string }> {
    // `active` resolves the profile and checks that it has a usable key before anything is sent.
    const { profileId } = await this.api.active('authenticated', () => Promise.resolve(null));
    return { profileId };
  }

  async update(input: ParsedCallInput<'ports:update'>): Promise<MobilePortView> {
    const patch: MobilePortUpdate = {};
    if (input.label !== undefined) patch.label = input.label;
    if (input.autoRenew !== undefined) patch.autoRenew = input.autoRenew;
    if (input.rotation) {
      patch.rotation =
        input.rotation.mode === 'manual'
          ? { mode: 'manual', intervalMinutes: null }
          : { mode: 'interval', intervalMinutes: input.rotation.intervalMinutes };
    }
    return this.write((client) => client.updateMobilePort(input.portId, patch));
  }

  async relocate(
    portId: string,
    request: { country: string; carrier: string; city?: string },
  ): Promise<MobilePortView> {
    const { profileId, value } = await this.api
      .active('authenticated', (client) => client.relocateMobilePort(portId, request))
      .catch((error: unknown) => {
        throw explainRelocationError(error);
      });
    const view = toPortView(value);
    // A read-only process does not track (the job owner's tracker would not know); its UI reads on demand.
    const progress =
      this.relocations && this.ownsJobs() ? await this.relocations.track(profileId, view) : undefined;
    this.publish(profileId, [view], progress ? [progress] : undefined);
    return view;
  }

  /** A write to one port: the answer is the port, announced to every window. */
  private async write(run: (client: ProxyServiceClient) => Promise<MobilePort>): Promise<MobilePortView> {
    const { profileId, value } = await this.api.active('authenticated', run);
    const view = toPortView(value);
    this.publish(profileId, [view]);
    return view;
  }

  async ipHistory(portId: string, page: number, perPage: number): Promise<IpHistoryView> {
    const { profileId, value } = await this.api.active('authenticated', (client) =>
      client.getMobileIpHistory(portId, { page, perPage }),
    );
    const receipts = this.rotation ? await this.rotation.receipts(profileId, portId) : [];
    return { data: mergeReceipts(value.data, receipts), pagination: value.pagination };
  }

  async exportIpHistory(portId: string): Promise<IpHistoryExport> {
    const { profileId, value } = await this.api.active('authenticated', async (client) => {
      const entries: IpHistoryEntry[] = [];
      for (let page = 1; page <= EXPORT_MAX_PAGES; page += 1) {
        const answer = await client.getMobileIpHistory(portId, { page, perPage: EXPORT_PER_PAGE });
        entries.push(...answer.data);
        if (page >= answer.pagination.totalPages || answer.data.length === 0) break;
      }
      return entries;
    });
    const receipts: RotationReceipt[] = this.rotation ? await this.rotation.receipts(profileId, portId) : [];
    const rows = mergeReceipts(value, receipts);
    return {
      fileName: `port-${portId.replace(/[^A-Za-z0-9_-]/g, '_')}-ip-history.csv`,
      csv: ipHistoryCsv(rows),
      rows: rows.length,
    };
  }

  async usage(portId: string, from: string | undefined, to: string | undefined): Promise<UsageReport> {
    checkUsageStart(from, to, this.now(), USAGE_RANGE_MAX_DAYS);
    const { value } = await this.api.active('authenticated', (client) =>
      client.getMobilePortUsage(portId, { ...(from ? { from } : {}), ...(to ? { to } : {}) }),
    );
    return value;
  }
}

/** `location_unavailable` keeps the service's words and adds what the user can do about it. */
function explainRelocationError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'location_unavailable' && error instanceof Error) {
    return new AppError(
      'location_unavailable',
      `${error.message.replace(/\.?$/, '.')} Pick another carrier or city (or leave the city empty) and try again.`,
      [],
      error,
    );
  }
  return error;
}
