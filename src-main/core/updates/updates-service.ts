/**
 * `updates:*`: learns of a new release from the signed feed, and downloads it safely. Nothing of a
 * feed is read before its signature is checked (`verifyFeed`), nothing downloaded is kept unless its
 * size and sha256 are the feed's, and nothing is replaced or opened before that. The check at start
 * and every day runs in each app process (`job`, started by the composition root); a CLI command
 * checks only when asked.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DomainHandlers, UpdatePreferences, UpdateStatus } from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';
import type { EventSink } from '../events';
import type { BackgroundJob } from '../runtime/background-jobs';
import type { Clock } from '../runtime/clock';
import type { JobSection } from '../storage/job-section';
import type { Installation } from './install-kind';
import { UPDATE_CHECK_INTERVAL_MS } from './update-config';
import {
  compareVersions,
  type FeedArtefact,
  type FeedMemory,
  type SignedFeed,
  UpdateRefusedError,
  verifyFeed,
} from './update-feed';
import { installerFileName, replaceFileAtomically, saveVerifiedFile, verifyFileOnDisk } from './update-files';
import type { DownloadProgress, UpdateHttp } from './update-http';

/** What survives a restart (`state.json`, section `updates`): never a secret. */
export interface UpdateMemory {
  /** The newest feed believed: a later one must carry a higher counter. */
  feed: FeedMemory | null;
  /** [0, 1), drawn once per installation: inside a rollout of fraction f when below f. */
  installRandom: number;
}

export interface UpdatesServiceOptions {
  currentVersion: string;
  installation: Installation;
  feedUrl: string;
  trustedKeys: readonly string[];
  clock: Clock;
  memory: JobSection<UpdateMemory>;
  preferences: {
    get(): UpdatePreferences;
    set(patch: Partial<UpdatePreferences>): Promise<UpdatePreferences>;
  };
  /** The demo is running: automatic checks stay off unless `checkInDemo`. */
  demoRunning: () => boolean;
  events: EventSink;
  /** Where installers are kept (`<data folder>/updates`). */
  downloadsDir: string;
  /** The HTTP client for the current proxy setting. */
  createHttp: (proxyUrl: string | null) => UpdateHttp;
  /** Desktop: hands a verified installer to the OS (`shell/open-external.ts`); absent: the path is shown. */
  openPath?: (path: string) => Promise<void>;
  /** Desktop: starts the app again (`app.relaunch` then quit). */
  relaunch?: () => void;
  log?: (line: string) => void;
}

const INSTALL_COMMANDS: Partial<Record<Installation['kind'], (path: string) => string>> = {
  deb: (path) => `sudo apt install '${path}'`,
  rpm: (path) => `sudo dnf install '${path}'`,
};

export class UpdatesService implements DomainService<'updates'> {
  readonly job: BackgroundJob;
  readonly #options: UpdatesServiceOptions;
  readonly #log: (line: string) => void;
  #status: UpdateStatus;
  /** The feed behind `available`: the artefact to download. */
  #offered: SignedFeed | null = null;
  #verifiedInstaller: { path: string; artefact: FeedArtefact } | null = null;
  #checking: Promise<UpdateStatus> | null = null;
  #downloading: Promise<UpdateStatus> | null = null;
  #jobAbort: AbortController | null = null;

  constructor(options: UpdatesServiceOptions) {
    this.#options = options;
    this.#log = options.log ?? (() => undefined);
    this.#status = {
      currentVersion: options.currentVersion,
      installKind: options.installation.kind,
      preferences: options.preferences.get(),
      phase: 'idle',
      lastCheckedAt: null,
      available: null,
      heldBack: null,
      progress: null,
      ready: null,
      problem: null,
    };
    this.job = {
      name: 'update checks',
      start: () => this.#startDailyChecks(),
      stop: () => this.#stopDailyChecks(),
    };
  }

  handlers(): DomainHandlers<'updates'> {
    return {
      'updates:status': () => Promise.resolve(this.status()),
      'updates:check': () => this.check({ background: false }),
      'updates:download': () => this.download(),
      'updates:openInstaller': () => this.openInstaller(),
      'updates:restart': () => this.restart(),
      'updates:setPreferences': (input) => this.setPreferences(input),
    };
  }

  status(): UpdateStatus {
    return structuredClone({ ...this.#status, preferences: this.#options.preferences.get() });
  }

  /** One check at a time; a second asker joins the one under way. */
  check(options: { background: boolean; signal?: AbortSignal }): Promise<UpdateStatus> {
    this.#checking ??= this.#check(options).finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #check({ background, signal }: { background: boolean; signal?: AbortSignal }): Promise<UpdateStatus> {
    const previousPhase = this.#status.phase;
    if (previousPhase === 'idle') this.#set({ phase: 'checking' });
    const http = this.#options.createHttp(this.#options.preferences.get().proxyUrl);
    try {
      const text = await http.fetchFeed(this.#options.feedUrl, { background, ...(signal ? { signal } : {}) });
      const memory = await this.#memory();
      const verified = verifyFeed(text, {
        trustedKeys: this.#options.trustedKeys,
        now: this.#options.clock.now(),
        seen: memory.feed,
      });
      // Remembered as soon as it is believed: from now on nothing older is.
      await this.#options.memory.update((current) => ({
        installRandom: current?.installRandom ?? memory.installRandom,
        feed: { counter: verified.feed.counter, digest: verified.digest },
      }));
      this.#log(
        `[updates] feed ${verified.feed.counter} (${verified.feed.version}) signed by ${verified.keyId.slice(0, 12)}…`,
      );
      this.#offer(verified.feed, memory.installRandom);
    } catch (error) {
      // Stopped (the jobs moved to another process, or the app quits): not a problem to show.
      if (signal?.aborted) throw error;
      this.#fail(error, { keepOffer: true });
    } finally {
      await http.close();
      if (this.#status.phase === 'checking') this.#set({ phase: 'idle' });
    }
    this.#set({ lastCheckedAt: new Date(this.#options.clock.now()).toISOString() });
    return this.status();
  }

  #offer(feed: SignedFeed, installRandom: number): void {
    const newer = compareVersions(feed.version, this.#options.currentVersion) > 0;
    const inRollout = feed.rollout === undefined || installRandom < feed.rollout;
    const platform = this.#options.installation.platform;
    const artefact = platform ? feed.artefacts.find((a) => a.platform === platform) : undefined;
    if (newer && inRollout) {
      const sameAsOffered = this.#offered?.version === feed.version;
      this.#offered = feed;
      this.#set({
        available: {
          version: feed.version,
          notes: feed.notes,
          releasedAt: feed.releasedAt,
          size: artefact?.size ?? null,
        },
        heldBack: null,
        problem: null,
        ...(sameAsOffered ? {} : { ready: null }),
      });
      return;
    }
    this.#offered = null;
    this.#set({
      available: null,
      ready: null,
      problem: null,
      heldBack: newer && feed.rollout !== undefined ? { version: feed.version, rollout: feed.rollout } : null,
    });
  }

  /** Downloads and verifies the offered release (checking first when nothing is offered yet). */
  download(): Promise<UpdateStatus> {
    this.#downloading ??= this.#download().finally(() => {
      this.#downloading = null;
    });
    return this.#downloading;
  }

  async #download(): Promise<UpdateStatus> {
    if (!this.#offered) await this.check({ background: false });
    const feed = this.#offered;
    if (!feed) {
      const problem = this.#status.problem;
      throw new AppError(
        'update_refused',
        problem ? problem.message : `No newer release than ${this.#options.currentVersion} is offered.`,
      );
    }
    const { installation } = this.#options;
    const artefact = installation.platform
      ? feed.artefacts.find((a) => a.platform === installation.platform)
      : undefined;
    if (!installation.platform || !artefact) {
      throw new AppError(
        'update_refused',
        installation.platform
          ? `Release ${feed.version} has no ${installation.platform} build; download it from the release page.`
          : 'This copy was not installed from an installer (a source checkout or web mode): update it the way it was installed.',
      );
    }
    if (this.#status.ready?.version === feed.version) return this.status();
    this.#set({
      phase: 'downloading',
      progress: { receivedBytes: 0, totalBytes: artefact.size, percent: 0 },
      problem: null,
    });
    const http = this.#options.createHttp(this.#options.preferences.get().proxyUrl);
    const write = (temp: string) =>
      http.download({
        url: artefact.url,
        size: artefact.size,
        sha256: artefact.sha256,
        file: temp,
        onProgress: (progress: DownloadProgress) => this.#set({ progress }),
      });
    try {
      if (installation.kind === 'appimage' && installation.appImagePath) {
        await replaceFileAtomically(installation.appImagePath, write);
        this.#set({ phase: 'ready', progress: null, ready: { kind: 'restart', version: feed.version } });
      } else {
        const path = join(this.#options.downloadsDir, installerFileName(feed.version, artefact.platform));
        await saveVerifiedFile(path, write);
        this.#verifiedInstaller = { path, artefact };
        const command = INSTALL_COMMANDS[installation.kind]?.(path) ?? null;
        this.#set({
          phase: 'ready',
          progress: null,
          ready: { kind: 'installer', version: feed.version, path, command },
        });
      }
      this.#log(`[updates] ${feed.version} downloaded and verified (${artefact.size} bytes)`);
    } catch (error) {
      this.#set({ phase: 'idle', progress: null });
      this.#fail(error, { keepOffer: true });
      throw new AppError('update_refused', this.#status.problem?.message ?? 'The download failed.');
    } finally {
      await http.close();
    }
    return this.status();
  }

  async openInstaller(): Promise<UpdateStatus> {
    const installer = this.#verifiedInstaller;
    if (!installer || this.#status.ready?.kind !== 'installer') {
      throw new AppError(
        'update_refused',
        'No verified installer has been downloaded (run a download first).',
      );
    }
    if (!this.#options.openPath) {
      throw new AppError(
        'update_refused',
        `Open ${installer.path} yourself: this surface cannot open files.`,
      );
    }
    try {
      await verifyFileOnDisk(installer.path, installer.artefact.size, installer.artefact.sha256);
    } catch (error) {
      this.#verifiedInstaller = null;
      this.#set({ phase: 'idle', ready: null });
      this.#fail(error, { keepOffer: true });
      throw new AppError('update_refused', this.#status.problem?.message ?? 'The installer changed on disk.');
    }
    await this.#options.openPath(installer.path);
    return this.status();
  }

  restart(): Promise<UpdateStatus> {
    if (this.#status.ready?.kind !== 'restart') {
      return Promise.reject(new AppError('update_refused', 'No update is waiting for a restart.'));
    }
    if (!this.#options.relaunch) {
      return Promise.reject(
        new AppError('update_refused', 'Restart the app yourself to start the new version.'),
      );
    }
    this.#options.relaunch();
    return Promise.resolve(this.status());
  }

  async setPreferences(patch: Partial<UpdatePreferences>): Promise<UpdateStatus> {
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    await this.#options.preferences.set(defined);
    const status = this.status();
    this.#options.events.emit('updates:changed', status);
    return status;
  }

  async #memory(): Promise<UpdateMemory> {
    const current = await this.#options.memory.read();
    if (current && typeof current.installRandom === 'number') return current;
    // Drawn once and kept: the same installation stays in (or out of) a rollout across checks.
    const installRandom = randomBytes(6).readUIntBE(0, 6) / 2 ** 48;
    return this.#options.memory.update((value) => ({
      feed: value?.feed ?? null,
      installRandom: value?.installRandom ?? installRandom,
    }));
  }

  #fail(error: unknown, { keepOffer }: { keepOffer: boolean }): void {
    const problem =
      error instanceof UpdateRefusedError
        ? { reason: error.reason, message: error.message }
        : { reason: 'failed', message: error instanceof Error ? error.message : String(error) };
    this.#log(`[updates] ${problem.reason}: ${problem.message}`);
    this.#set({ problem, ...(keepOffer ? {} : { available: null }) });
  }

  #set(patch: Partial<UpdateStatus>): void {
    this.#status = { ...this.#status, ...patch };
    this.#options.events.emit('updates:changed', this.status());
  }

  #startDailyChecks(): void {
    this.#stopDailyChecks();
    const abort = new AbortController();
    this.#jobAbort = abort;
    void this.#loop(abort.signal);
  }

  #stopDailyChecks(): void {
    this.#jobAbort?.abort();
    this.#jobAbort = null;
  }

  async #loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const preferences = this.#options.preferences.get();
      const allowed =
        preferences.checkAutomatically && (preferences.checkInDemo || !this.#options.demoRunning());
      if (allowed) {
        try {
          await this.check({ background: true, signal });
        } catch (error) {
          if (signal.aborted) return;
          this.#log(`[updates] check failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      try {
        await this.#options.clock.sleep(UPDATE_CHECK_INTERVAL_MS, signal);
      } catch {
        return;
      }
    }
  }
}
