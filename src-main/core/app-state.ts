import type {
  AppState,
  ConnectionState,
  DomainHandlers,
  InitialState,
  JobsStatus,
  Notice,
  ProfileSummary,
  SnapshotScreen,
} from '../../src-shared/contract';
import type { DomainService } from './domain-service';
import { AppError } from './errors';
import type { EventSink } from './events';
import type { KeyStatus, ProfileChange, ProfilesService, ProfileView } from './profiles/profiles-service';
import type { KeychainProbeResult } from './secrets/keychain-probe';

export interface AppStateOptions {
  mode: 'desktop' | 'web';
  /** Main's snapshot of a screen's list for a profile, for the first state of a window (`app:getState`'s `screen`). */
  snapshotsOf?: (screen: SnapshotScreen, profileId: string) => InitialState['snapshots'];
  events: EventSink;
  profiles: Pick<ProfilesService, 'list' | 'keyStatus' | 'onChange'>;
  connection: () => ConnectionState;
  /** Subscribes to changes of the connection state (`ConnectionMonitor.subscribe`): each is pushed. */
  connectionChanges?: (listener: () => void) => () => void;
  /**
   * The settings file, shared with the other process: re-read before `app:getState` answers, and
   * each change it adopts (profiles added, renamed or switched over there) is pushed.
   */
  settings?: { reload(): Promise<unknown>; subscribe(listener: () => void): () => void };
  keychainStatus: () => KeychainProbeResult;
  demoRunning: () => boolean;
  jobs: () => JobsStatus;
  /** Cancels a UI call in flight (`app:cancelCall`); false when it already ended. */
  cancelCall?: (callId: string) => boolean;
  /** `app:openExternal`: checks the link and hands it to the OS (desktop); absent in web mode. */
  openExternal?: (url: string) => Promise<void>;
  /** `app:saveFile`: a save dialog, then the file written; the path, or null when cancelled (desktop). */
  saveFile?: (fileName: string, content: string) => Promise<string | null>;
}

const NO_KEY: ProfileSummary['key'] = { configured: false, masked: null, source: null };

/**
 * The app state the UI's shell shows (`app:getState`, pushed as `app:stateChanged` on every change).
 * Assembling it is cheap: the key status of each profile (which may need the OS keychain) is cached
 * and read again only when that profile's key changes or the keychain comes or goes.
 */
export class AppStateService implements DomainService<'app'> {
  private notices: Notice[] = [];
  private noticeCounter = 0;
  private pushes = 0;
  private readonly keyStatuses = new Map<string, Promise<ProfileSummary['key']>>();
  private keychainAvailable: boolean | null = null;
  private readonly unsubscribe: (() => void)[];

  constructor(private readonly options: AppStateOptions) {
    this.unsubscribe = [
      options.profiles.onChange((change: ProfileChange) => {
        if (change.kind === 'key' || change.kind === 'deleted' || change.kind === 'created') {
          this.keyStatuses.delete(change.profileId);
        }
      }),
      options.connectionChanges?.(() => void this.push()) ?? (() => undefined),
      options.settings?.subscribe(() => void this.push()) ?? (() => undefined),
    ];
  }

  handlers(): DomainHandlers<'app'> {
    return {
      'app:getState': async (input) => {
        await this.options.settings?.reload();
        const state: InitialState = await this.getState();
        // The list of the screen the window opens on, when main holds it: rendered with no other call.
        const profileId = state.activeProfile?.id;
        const snapshots =
          input?.screen && profileId ? this.options.snapshotsOf?.(input.screen, profileId) : undefined;
        return snapshots ? { ...state, snapshots } : state;
      },
      'app:dismissNotice': (input) => this.dismissNotice(input.noticeId),
      'app:cancelCall': (input) => this.cancelCall(input.callId),
      'app:openExternal': (input) => this.openExternal(input.url),
      'app:saveFile': (input) => this.saveFile(input.fileName, input.content),
    };
  }

  /** Cancels a UI call in flight; false when it already ended. */
  cancelCall(callId: string): Promise<{ cancelled: boolean }> {
    return Promise.resolve({ cancelled: this.options.cancelCall?.(callId) ?? false });
  }

  async openExternal(url: string): Promise<{ opened: true }> {
    if (!this.options.openExternal) {
      // The browser opens links itself in web mode; the page never needs main for it.
      throw new AppError('not_implemented', 'Links open in your browser directly in web mode.');
    }
    await this.options.openExternal(url);
    return { opened: true };
  }

  async saveFile(fileName: string, content: string): Promise<{ saved: boolean; path: string | null }> {
    if (!this.options.saveFile) {
      throw new AppError('not_implemented', 'Files download through the browser in web mode.');
    }
    const path = await this.options.saveFile(fileName, content);
    return { saved: path !== null, path };
  }

  async getState(): Promise<AppState> {
    const keychain = this.options.keychainStatus();
    if (keychain.available !== this.keychainAvailable) {
      this.keyStatuses.clear();
      this.keychainAvailable = keychain.available;
    }
    const profiles = await Promise.all(this.options.profiles.list().map((view) => this.summarize(view)));
    return {
      mode: this.options.mode,
      profiles,
      activeProfile: profiles.find((p) => p.active) ?? null,
      connection: this.options.connection(),
      keychain: { available: keychain.available, reason: keychain.available ? null : keychain.reason },
      demo: { running: this.options.demoRunning() },
      jobs: { ...this.options.jobs() },
      notices: [...this.notices],
    };
  }

  /**
   * Sends the current state to every window. When pushes overlap, only the newest is sent, so a
   * slow older one never overwrites it.
   */
  async push(): Promise<AppState> {
    const push = ++this.pushes;
    const state = await this.getState();
    if (push === this.pushes) this.options.events.emit('app:stateChanged', state);
    return state;
  }

  addNotice(level: Notice['level'], message: string): void {
    this.noticeCounter += 1;
    this.notices.push({ id: `notice-${this.noticeCounter}`, level, message });
  }

  dismissNotice(noticeId: string): Promise<AppState> {
    this.notices = this.notices.filter((notice) => notice.id !== noticeId);
    return this.push();
  }

  stop(): void {
    for (const off of this.unsubscribe) off();
  }

  private async summarize(view: ProfileView): Promise<ProfileSummary> {
    return {
      id: view.id,
      name: view.name,
      baseUrl: view.baseUrl,
      pathStyle: view.pathStyle,
      kind: view.provided === 'demo' ? 'demo' : view.provided === 'environment' ? 'environment' : 'account',
      active: view.active,
      key: await this.keyStatusOf(view.id),
    };
  }

  private keyStatusOf(profileId: string): Promise<ProfileSummary['key']> {
    let status = this.keyStatuses.get(profileId);
    if (!status) {
      status = this.options.profiles.keyStatus(profileId).then(toKeySummary, () => NO_KEY);
      this.keyStatuses.set(profileId, status);
    }
    return status;
  }
}

function toKeySummary(status: KeyStatus): ProfileSummary['key'] {
  return {
    configured: status.configured,
    masked: status.masked,
    source: status.configured ? status.source : null,
  };
}
