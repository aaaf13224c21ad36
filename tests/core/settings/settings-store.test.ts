import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/core/runtime/clock';
import {
  defaultSettings,
  SETTINGS_VERSION,
  type Settings,
} from '../../../src-main/core/settings/settings-schema';
import { FileLockTimeoutError } from '../../../src-main/core/storage/file-lock';
import {
  SETTINGS_MIGRATIONS,
  SettingsError,
  SettingsStore,
  type SettingsStoreOptions,
} from '../../../src-main/core/settings/settings-store';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const STAMP = '2026-03-10T12-00-00-000Z';

let dataDir: string;
let file: string;

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'pm-settings-'));
  // A folder that does not exist yet, as on a first start.
  dataDir = join(root, 'Proxy Manager');
  file = join(dataDir, 'settings.json');
});

afterEach(async () => {
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

const open = (options: Partial<SettingsStoreOptions> = {}): Promise<SettingsStore> =>
  SettingsStore.open({ dataDir, now: () => NOW, ...options });

async function writeSettingsFile(content: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, content);
}

const profile = (id: string, name = `Profile ${id}`) => ({
  id,
  name,
  baseUrl: 'https://proxy.example.com/api/v1',
  pathStyle: 'literal' as const,
  keyStorage: 'keychain' as const,
  createdAt: '2026-03-01T09:00:00.000Z',
});

describe('SettingsStore: defaults and round trip', () => {
  it('starts with every default when there is no file, and writes nothing until an update', async () => {
    const store = await open();
    expect(store.recovery).toBeNull();
    expect(store.get()).toEqual({
      version: 2,
      profiles: [],
      activeProfileId: null,
      polling: {
        usageMinutes: 15,
        usageVisibleMinutes: 5,
        topUpVerifyingSeconds: 10,
        topUpAwaitingPaymentSeconds: 30,
      },
      alerts: {
        trafficRemainingPercent: 10,
        expiryWarningDays: 3,
        trafficRemainingGb: null,
        trafficBySubscription: {},
        runsOutWithinDays: 7,
        disabledKinds: [],
        subUserAlertSubscriptions: [],
      },
      ui: { theme: 'system', density: 'comfortable', lastScreen: 'ports' },
      desktop: { closeToTray: true, startAtLogin: false, startMinimized: false },
      automation: { rest: { enabled: false, port: 24080 } },
      localProxies: [],
      notifications: {
        'rotation-new-ip': true,
        'rotation-same-ip': true,
        'rotation-failed': true,
        'relocation-done': true,
        'port-health': true,
      },
      tray: { pinned: {} },
      shortcut: { enabled: false, accelerator: 'CommandOrControl+Alt+R' },
      proxyTest: { ipEchoUrl: 'https://api.ipify.org?format=json' },
      updates: { checkAutomatically: true, checkInDemo: false, proxyUrl: null },
      healthChecks: {
        portsEverySeconds: 300,
        subscriptionsEverySeconds: 0,
        localProxiesEverySeconds: 300,
        downAfter: 3,
        upAfter: 2,
        checkUrl: null,
        repeatWindowHours: 24,
        repeatWindowRotations: 50,
        selfHealAfter: 0,
      },
      tableViews: {},
    });
    expect(store.get()).toEqual(defaultSettings());
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('writes a versioned JSON file and reads it back after a restart', async () => {
    const store = await open();
    await store.update((draft) => {
      draft.profiles.push(profile('p1'));
      draft.activeProfileId = 'p1';
      draft.polling.usageMinutes = 5;
      draft.alerts.trafficRemainingPercent = 25;
      draft.tray.pinned.p1 = ['port-1', 'port-2'];
      draft.ui.theme = 'dark';
      draft.ui.lastScreen = 'catalog';
    });
    const onDisk = JSON.parse(await readFile(file, 'utf8'));
    expect(onDisk.version).toBe(SETTINGS_VERSION);
    const reopened = await open();
    expect(reopened.recovery).toBeNull();
    expect(reopened.get()).toEqual(store.get());
    expect(reopened.get().tray.pinned.p1).toEqual(['port-1', 'port-2']);
  });

  it('hands out frozen snapshots that later updates do not change', async () => {
    const store = await open();
    const before = store.get();
    expect(() => {
      (before.ui as { theme: string }).theme = 'dark';
    }).toThrow(TypeError);
    await store.update((draft) => {
      draft.ui.theme = 'light';
    });
    expect(before.ui.theme).toBe('system');
    expect(store.get().ui.theme).toBe('light');
  });

  it('accepts a mutator that returns a new object', async () => {
    const store = await open();
    const saved = await store.update((draft) => ({
      ...draft,
      activeProfileId: null,
      ui: { ...draft.ui, theme: 'dark' },
    }));
    expect(saved.ui.theme).toBe('dark');
  });

  it('tells subscribers about each saved update', async () => {
    const store = await open();
    const seen: string[] = [];
    const unsubscribe = store.subscribe((settings) => seen.push(settings.ui.theme));
    await store.update((draft) => {
      draft.ui.theme = 'dark';
    });
    await Promise.resolve();
    unsubscribe();
    await store.update((draft) => {
      draft.ui.theme = 'light';
    });
    await Promise.resolve();
    expect(seen).toEqual(['dark']);
  });
});

describe('SettingsStore: writes', () => {
  it('leaves only the settings file in the folder after many writes', async () => {
    const store = await open();
    for (let minutes = 1; minutes <= 10; minutes += 1) {
      await store.update((draft) => {
        draft.polling.usageMinutes = minutes;
      });
    }
    expect(await readdir(dataDir)).toEqual(['settings.json']);
    expect(JSON.parse(await readFile(file, 'utf8')).polling.usageMinutes).toBe(10);
  });

  it('applies concurrent updates one after another, each on the result of the previous', async () => {
    const store = await open();
    const updates = Array.from({ length: 25 }, (_, index) =>
      store.update((draft) => {
        draft.alerts.subUserAlertSubscriptions = [...draft.alerts.subUserAlertSubscriptions, `sub_${index}`];
      }),
    );
    await Promise.all(updates);
    const expected = Array.from({ length: 25 }, (_, index) => `sub_${index}`);
    expect(store.get().alerts.subUserAlertSubscriptions).toEqual(expected);
    expect(JSON.parse(await readFile(file, 'utf8')).alerts.subUserAlertSubscriptions).toEqual(expected);
  });

  it('never starts a write before the previous one finished', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const releases: (() => void)[] = [];
    const written: number[] = [];
    const store = await open({
      writeFile: async (_file, data) => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        written.push(JSON.parse(data).polling.usageMinutes);
        inFlight -= 1;
      },
    });
    const all = Promise.all(
      [1, 2, 3].map((minutes) =>
        store.update((draft) => {
          draft.polling.usageMinutes = minutes;
        }),
      ),
    );
    for (let round = 0; round < 3; round += 1) {
      await settleUntil(() => releases.length > round);
      expect(store.get().polling.usageMinutes).toBe(round === 0 ? 15 : round);
      releases[round]?.();
    }
    await all;
    expect(maxInFlight).toBe(1);
    expect(written).toEqual([1, 2, 3]);
  });

  it('keeps the previous settings when a write fails, and goes on with the next update', async () => {
    let fail = true;
    const store = await open({
      writeFile: (target, data) =>
        fail ? Promise.reject(new Error('ENOSPC: disk full')) : writeFile(target, data),
    });
    await expect(
      store.update((draft) => {
        draft.ui.theme = 'dark';
      }),
    ).rejects.toThrow('ENOSPC');
    expect(store.get().ui.theme).toBe('system');
    fail = false;
    await store.update((draft) => {
      draft.ui.lastScreen = 'settings';
    });
    expect(store.get().ui).toEqual({ theme: 'system', density: 'comfortable', lastScreen: 'settings' });
  });

  it('rejects an update whose result breaks the schema, naming the field, and changes nothing', async () => {
    const store = await open();
    const error = await store
      .update((draft) => {
        draft.polling.topUpVerifyingSeconds = 2;
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SettingsError);
    expect(error).toMatchObject({ code: 'invalid_settings', field: 'polling.topUpVerifyingSeconds' });
    expect(store.get().polling.topUpVerifyingSeconds).toBe(10);
    await expect(readdir(dataDir)).resolves.toEqual([]);
  });

  it('rejects a mutator that throws and keeps serving later updates', async () => {
    const store = await open();
    await expect(
      store.update(() => {
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      store.update((draft) => {
        draft.ui.theme = 'dark';
      }),
    ).resolves.toMatchObject({ ui: { theme: 'dark' } });
  });

  it('refuses to save anything that looks like a key, password or rotation link', async () => {
    const store = await open();
    const link = 'https://proxy.example.com/api/v1/v1/mobile/port-1/rotate?key=sk_live_abcdef';
    // The members whose names or values the schema leaves open: record keys, URLs.
    const attempts: [string, (draft: Settings) => void][] = [
      ['tray.pinned.rotationLink', (draft) => void (draft.tray.pinned.rotationLink = ['port-1'])],
      ['tray.pinned.apiKey', (draft) => void (draft.tray.pinned.apiKey = ['port-1'])],
      [
        'alerts.trafficBySubscription.password',
        (draft) => void (draft.alerts.trafficBySubscription.password = {}),
      ],
      ['proxyTest.ipEchoUrl', (draft) => void (draft.proxyTest.ipEchoUrl = link)],
    ];
    for (const [field, mutate] of attempts) {
      const error = await store.update(mutate).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'secret_in_settings', field });
      expect((error as Error).message).not.toContain('sk_live_abcdef');
    }
    expect(store.get()).toEqual(defaultSettings());
  });

  it('drops unknown members, so that a key pasted into the file by hand is gone at the next save', async () => {
    await writeSettingsFile(
      JSON.stringify({
        version: 1,
        apiKey: 'sk_hand_edited',
        profiles: [{ ...profile('p1'), key: 'sk_hand_edited' }],
      }),
    );
    const store = await open();
    await store.update((draft) => {
      draft.ui.theme = 'dark';
    });
    expect(await readFile(file, 'utf8')).not.toContain('sk_hand_edited');
    expect(store.get().profiles).toEqual([profile('p1')]);
  });
});

describe('SettingsStore: recovery', () => {
  it.each([
    ['bad JSON', '{"version": 1, "profiles": [', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['a JSON array', '[]', /does not hold a settings object/],
    ['a bad version', '{"version": "one"}', /version is not a whole number/],
    ['a value failing the schema', '{"version": 1, "ui": {"theme": "blue"}}', /ui\.theme/],
    [
      'duplicate profile ids',
      JSON.stringify({ version: 1, profiles: [profile('p1'), profile('p1', 'Other')] }),
      /duplicate profile id p1/,
    ],
  ])('keeps a file with %s aside and starts with defaults', async (_label, content, reason) => {
    await writeSettingsFile(content);
    const store = await open();
    const aside = join(dataDir, `settings.json.corrupt-${STAMP}`);
    expect(store.recovery).toEqual({
      kind: 'corrupt',
      recoveredFrom: aside,
      reason: expect.stringMatching(reason),
    });
    expect(store.get()).toEqual(defaultSettings());
    expect(await readFile(aside, 'utf8')).toBe(content);
    expect(await readdir(dataDir)).toEqual([`settings.json.corrupt-${STAMP}`]);

    await store.update((draft) => {
      draft.ui.theme = 'dark';
    });
    const next = await open();
    expect(next.recovery).toBeNull();
    expect(next.get().ui.theme).toBe('dark');
  });

  it('never overwrites an earlier corrupt copy', async () => {
    await writeSettingsFile('first damage');
    await open();
    await writeSettingsFile('second damage');
    const store = await open();
    expect(store.recovery?.recoveredFrom).toBe(join(dataDir, `settings.json.corrupt-${STAMP}-1`));
    expect(await readFile(join(dataDir, `settings.json.corrupt-${STAMP}`), 'utf8')).toBe('first damage');
    expect(await readFile(join(dataDir, `settings.json.corrupt-${STAMP}-1`), 'utf8')).toBe('second damage');
  });

  it('fails, moving nothing, when the file cannot be read at all', async () => {
    await mkdir(file, { recursive: true });
    await expect(open()).rejects.toMatchObject({ code: 'settings_unreadable' });
    expect(await readdir(dataDir)).toEqual(['settings.json']);
  });

  it('fills members missing from an older or partial file with defaults', async () => {
    await writeSettingsFile(
      JSON.stringify({
        version: 1,
        profiles: [{ ...profile('p1'), pathStyle: undefined }],
        polling: { usageMinutes: 60 },
      }),
    );
    const store = await open();
    expect(store.recovery).toBeNull();
    expect(store.get().profiles[0]?.pathStyle).toBe('literal');
    expect(store.get().polling).toEqual({
      usageMinutes: 60,
      usageVisibleMinutes: 5,
      topUpVerifyingSeconds: 10,
      topUpAwaitingPaymentSeconds: 30,
    });
    expect(store.get().ui).toEqual({ theme: 'system', density: 'comfortable', lastScreen: 'ports' });
  });

  it('reads a file without a version (version 0) through the migrations', async () => {
    await writeSettingsFile(JSON.stringify({ profiles: [profile('p1')], activeProfileId: 'p1' }));
    const store = await open();
    expect(store.recovery).toBeNull();
    expect(store.get()).toMatchObject({ version: SETTINGS_VERSION, activeProfileId: 'p1' });
  });

  it('drops the dead job members of a version 1 file (job state lives in state.json), losing nothing else', async () => {
    const v1 = {
      version: 1,
      profiles: [profile('p1')],
      activeProfileId: 'p1',
      polling: { usageMinutes: 30 },
      rotationSchedules: [{ portId: 'port-1', profileId: 'p1', everyMinutes: 30 }],
      pendingTopUps: { p1: ['tu_1'] },
      ui: { theme: 'dark', lastScreen: 'catalog' },
      tray: { pinned: { p1: ['port-1'] } },
    };
    await writeSettingsFile(JSON.stringify(v1));
    const store = await open();
    expect(store.recovery).toBeNull();
    const defaults = defaultSettings();
    expect(store.get()).toEqual({
      ...defaults,
      version: SETTINGS_VERSION,
      profiles: [profile('p1')],
      activeProfileId: 'p1',
      polling: { ...defaults.polling, usageMinutes: 30 },
      ui: { theme: 'dark', density: 'comfortable', lastScreen: 'catalog' },
      tray: { pinned: { p1: ['port-1'] } },
    });
    await store.update((draft) => {
      draft.ui.theme = 'light';
    });
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(onDisk.version).toBe(SETTINGS_VERSION);
    expect(onDisk).not.toHaveProperty('rotationSchedules');
    expect(onDisk).not.toHaveProperty('pendingTopUps');
    expect(onDisk).toMatchObject({ profiles: [profile('p1')], tray: { pinned: { p1: ['port-1'] } } });
  });

  it('runs an injected migration from an older version', async () => {
    await writeSettingsFile(JSON.stringify({ version: 0, theme: 'dark', accounts: [profile('p1')] }));
    const store = await open({
      migrations: {
        ...SETTINGS_MIGRATIONS,
        0: ({ theme, accounts, ...rest }) => ({ ...rest, version: 1, ui: { theme }, profiles: accounts }),
      },
    });
    expect(store.get().ui.theme).toBe('dark');
    expect(store.get().profiles.map((p) => p.id)).toEqual(['p1']);
  });

  it('keeps an older file it cannot migrate aside', async () => {
    await writeSettingsFile(JSON.stringify({ version: 0 }));
    const store = await open({ migrations: {} });
    expect(store.recovery).toMatchObject({
      kind: 'corrupt',
      reason: expect.stringMatching(/cannot upgrade/),
    });
  });

  it('keeps a file aside when its migration throws', async () => {
    await writeSettingsFile(JSON.stringify({ version: 0 }));
    const store = await open({
      migrations: {
        0: () => {
          throw new Error('bad data');
        },
      },
    });
    expect(store.recovery).toMatchObject({
      kind: 'corrupt',
      reason: expect.stringMatching(/could not be upgraded/),
    });
  });

  it('loads what it understands of a newer version and keeps a copy of the original', async () => {
    const newer = JSON.stringify({
      version: SETTINGS_VERSION + 1,
      profiles: [profile('p1')],
      futureFeature: { on: true },
    });
    await writeSettingsFile(newer);
    const store = await open();
    const copy = join(dataDir, `settings.json.newer-${STAMP}`);
    expect(store.recovery).toEqual({
      kind: 'newer-version',
      recoveredFrom: copy,
      reason: expect.stringMatching(/newer version/),
    });
    expect(store.get().profiles.map((p) => p.id)).toEqual(['p1']);
    expect(await readFile(copy, 'utf8')).toBe(newer);
    expect(await readFile(file, 'utf8')).toBe(newer);
  });

  it('repairs an active profile id that names no profile', async () => {
    await writeSettingsFile(
      JSON.stringify({ version: 1, profiles: [profile('p1'), profile('p2')], activeProfileId: 'gone' }),
    );
    expect((await open()).get().activeProfileId).toBe('p1');
  });
});

/**
 * Lock waits that take one event-loop turn each, so contention resolves without real time.
 * Time stands still unless `advancing` (then each wait moves it on by its length): a waiter
 * retries on every turn while the holder's fsync takes many, and would otherwise reach its
 * timeout in fake time while the holder is still writing.
 */
const turnClock = (advancing = false): Clock => {
  let now = NOW.getTime();
  return {
    now: () => now,
    sleep: (ms) => {
      if (advancing) now += ms;
      return new Promise((resolve) => setImmediate(resolve));
    },
  };
};

describe('SettingsStore: two processes on one data folder', () => {
  // Two stores on one folder stand for the desktop app and web mode: each has its own memory.
  const openProcess = (pid: number, overrides: Partial<SettingsStoreOptions> = {}) =>
    open({ lock: { clock: turnClock(), pid, isProcessAlive: () => true }, ...overrides });

  it('keeps both updates when each process changes the settings it loaded earlier', async () => {
    const desktop = await openProcess(1000);
    const web = await openProcess(2000);
    await desktop.update((draft) => {
      draft.profiles.push(profile('from-desktop'));
    });
    const saved = await web.update((draft) => {
      draft.profiles.push(profile('from-web'));
      draft.ui.theme = 'dark';
    });
    expect(saved.profiles.map((p) => p.id)).toEqual(['from-desktop', 'from-web']);
    await desktop.update((draft) => {
      draft.polling.usageMinutes = 5;
    });
    const reopened = await open();
    expect(reopened.get().profiles.map((p) => p.id)).toEqual(['from-desktop', 'from-web']);
    expect(reopened.get().ui.theme).toBe('dark');
    expect(reopened.get().polling.usageMinutes).toBe(5);
    expect(desktop.get().ui.theme).toBe('dark');
  });

  it('loses nothing when both processes update at the same time, many times', async () => {
    const stores = [await openProcess(1000), await openProcess(2000), await openProcess(3000)];
    const updates = stores.flatMap((store, storeIndex) =>
      Array.from({ length: 8 }, (_, index) =>
        store.update((draft) => {
          draft.tray.pinned[`p${storeIndex}`] = [
            ...(draft.tray.pinned[`p${storeIndex}`] ?? []),
            `port-${index}`,
          ];
        }),
      ),
    );
    await Promise.all(updates);
    const onDisk = (await open()).get().tray.pinned;
    const expected = Array.from({ length: 8 }, (_, index) => `port-${index}`);
    expect(onDisk).toEqual({ p0: expected, p1: expected, p2: expected });
    expect(await readdir(dataDir)).toEqual(['settings.json']);
  });

  it("shows the other process's change on reload, telling subscribers", async () => {
    const desktop = await openProcess(1000);
    const web = await openProcess(2000);
    const seen: string[] = [];
    web.subscribe((settings) => seen.push(settings.ui.theme));
    await desktop.update((draft) => {
      draft.ui.theme = 'light';
    });
    expect(web.get().ui.theme).toBe('system');
    expect((await web.reload()).ui.theme).toBe('light');
    await Promise.resolve();
    expect(seen).toEqual(['light']);
    await web.reload();
    await Promise.resolve();
    expect(seen).toEqual(['light']);
  });

  it('waits for a lock held by the other process and fails, changing nothing, when it is never freed', async () => {
    const store = await openProcess(1000, {
      lock: {
        clock: turnClock(true),
        pid: 1000,
        isProcessAlive: () => true,
        hostname: 'h',
        timeoutMs: 1_000,
      },
    });
    await writeFile(
      `${file}.lock`,
      JSON.stringify({
        pid: 2000,
        hostname: 'h',
        token: 'x',
        since: NOW.getTime(),
        heartbeatAt: NOW.getTime(),
        mode: 'settings-update',
      }),
    );
    await expect(
      store.update((draft) => {
        draft.ui.theme = 'dark';
      }),
    ).rejects.toBeInstanceOf(FileLockTimeoutError);
    expect(store.get().ui.theme).toBe('system');
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('keeps a file damaged by someone else aside and writes its own last good settings', async () => {
    const store = await openProcess(1000);
    await store.update((draft) => {
      draft.ui.theme = 'dark';
    });
    await writeFile(file, '{ broken');
    await store.update((draft) => {
      draft.polling.usageMinutes = 7;
    });
    expect(await readFile(join(dataDir, `settings.json.corrupt-${STAMP}`), 'utf8')).toBe('{ broken');
    const reopened = await open();
    expect(reopened.get().ui.theme).toBe('dark');
    expect(reopened.get().polling.usageMinutes).toBe(7);
  });

  it('copies a newer file only once, not again at each update', async () => {
    await writeSettingsFile(JSON.stringify({ version: SETTINGS_VERSION + 1, profiles: [profile('p1')] }));
    const store = await openProcess(1000);
    await store.update((draft) => {
      draft.ui.theme = 'dark';
    });
    await store.update((draft) => {
      draft.ui.theme = 'light';
    });
    expect((await readdir(dataDir)).sort()).toEqual(['settings.json', `settings.json.newer-${STAMP}`]);
  });
});

/**
 * Lets the event loop run until `condition` holds (no timers). Each update takes the settings
 * lock through real file I/O first, which may need many turns on a loaded machine: the bound
 * only stops a hang.
 */
async function settleUntil(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200_000 && !condition(); turn += 1)
    await new Promise<void>((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('condition never became true');
}
