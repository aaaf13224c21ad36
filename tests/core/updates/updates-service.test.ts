import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventChannel, UpdatePreferences, UpdateStatus } from '../../../src-shared/contract';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { MemoryJobSection } from '../../../src-main/core/storage/job-section';
import type { Installation } from '../../../src-main/core/updates/install-kind';
import { UpdateHttp } from '../../../src-main/core/updates/update-http';
import { type UpdateMemory, UpdatesService } from '../../../src-main/core/updates/updates-service';
import { CountingProxy, FeedServer, makeKey, sha256, signFeed, type TestKey } from './support/feed-fixtures';

const NOW = Date.UTC(2026, 5, 1);
const OLD_APPIMAGE = Buffer.from('#!/bin/sh\necho old build 0.1.0\n');
const NEW_APPIMAGE = Buffer.alloc(300_000, 7);

let server: FeedServer;
let dir: string;
let appImage: string;
let primary: TestKey;
let second: TestKey;

beforeEach(async () => {
  server = new FeedServer();
  await server.start();
  dir = await fs.mkdtemp(join(tmpdir(), 'pm-updates-'));
  appImage = join(dir, 'proxy-manager.AppImage');
  await fs.writeFile(appImage, OLD_APPIMAGE, { mode: 0o755 });
  primary = makeKey();
  second = makeKey();
  server.set('/files/new.AppImage', { kind: 'body', body: NEW_APPIMAGE });
});

afterEach(async () => {
  await server.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

function signedPart(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    product: 'proxy-manager',
    format: 1,
    version: '0.2.0',
    counter: 5,
    expires: '2026-12-01T00:00:00Z',
    releasedAt: '2026-05-30T12:00:00Z',
    notes: 'Signed updates; faster lists.',
    artefacts: [
      {
        platform: 'linux-x64-appimage',
        url: server.url('/files/new.AppImage'),
        sha256: sha256(NEW_APPIMAGE),
        size: NEW_APPIMAGE.length,
      },
      {
        platform: 'linux-x64-deb',
        url: server.url('/files/new.deb'),
        sha256: sha256(NEW_APPIMAGE),
        size: NEW_APPIMAGE.length,
      },
    ],
    ...overrides,
  };
}

function publish(text: string): void {
  server.set('/feed.json', { kind: 'body', body: text });
}

interface Built {
  service: UpdatesService;
  events: UpdateStatus[];
  memory: MemoryJobSection<UpdateMemory>;
  clock: FakeClock;
  opened: string[];
  preferences: UpdatePreferences;
}

function build(
  options: {
    installation?: Installation;
    memory?: UpdateMemory;
    demo?: boolean;
    preferences?: Partial<UpdatePreferences>;
  } = {},
): Built {
  const events: UpdateStatus[] = [];
  const memory = new MemoryJobSection<UpdateMemory>(options.memory);
  const clock = new FakeClock(NOW);
  const opened: string[] = [];
  const preferences: UpdatePreferences = {
    checkAutomatically: true,
    checkInDemo: false,
    proxyUrl: null,
    ...options.preferences,
  };
  const service = new UpdatesService({
    currentVersion: '0.1.0',
    installation: options.installation ?? {
      kind: 'appimage',
      platform: 'linux-x64-appimage',
      appImagePath: appImage,
    },
    feedUrl: server.url('/feed.json'),
    trustedKeys: [primary.publicHex, second.publicHex],
    clock,
    memory,
    preferences: {
      get: () => ({ ...preferences }),
      set: (patch) => Promise.resolve(Object.assign(preferences, patch)),
    },
    demoRunning: () => options.demo ?? false,
    events: {
      emit: (channel: EventChannel, payload: unknown) => {
        if (channel === 'updates:changed') events.push(payload as UpdateStatus);
      },
    },
    downloadsDir: join(dir, 'downloads'),
    createHttp: (proxyUrl) => new UpdateHttp({ proxyUrl, sleep: () => Promise.resolve(), random: () => 0 }),
    openPath: (path) => {
      opened.push(path);
      return Promise.resolve();
    },
    relaunch: () => undefined,
  });
  return { service, events, memory, clock, opened, preferences };
}

async function folderNames(): Promise<string[]> {
  return (await fs.readdir(dir)).sort();
}

async function expectOldAppImageKept(): Promise<void> {
  expect(await fs.readFile(appImage)).toEqual(OLD_APPIMAGE);
  // No temp file left beside it either.
  expect(await folderNames()).toEqual(['proxy-manager.AppImage']);
}

describe('UpdatesService with a local feed server', () => {
  it('offers a good feed with its notes, then replaces the AppImage in place and offers a restart', async () => {
    publish(signFeed(signedPart(), [primary]));
    const { service, events, memory } = build();

    const checked = await service.check({ background: false });
    expect(checked.problem).toBeNull();
    expect(checked.available).toEqual({
      version: '0.2.0',
      notes: 'Signed updates; faster lists.',
      releasedAt: '2026-05-30T12:00:00Z',
      size: NEW_APPIMAGE.length,
    });
    expect((await memory.read())?.feed?.counter).toBe(5);

    const done = await service.handlers()['updates:download'](undefined);
    expect(done.ready).toEqual({ kind: 'restart', version: '0.2.0' });
    expect(await fs.readFile(appImage)).toEqual(NEW_APPIMAGE);
    expect((await fs.stat(appImage)).mode & 0o777).toBe(0o755);
    expect(await folderNames()).toEqual(['proxy-manager.AppImage']);
    const percents = events.flatMap((e) => (e.progress ? [e.progress.percent] : []));
    expect(percents.at(-1)).toBe(100);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  });

  it('accepts a feed signed by the second trusted key (key rotation)', async () => {
    publish(signFeed(signedPart(), [second]));
    const { service } = build();
    const status = await service.check({ background: false });
    expect(status.problem).toBeNull();
    expect(status.available?.version).toBe('0.2.0');
  });

  it.each([
    [
      'a tampered manifest',
      () => {
        const envelope = JSON.parse(signFeed(signedPart(), [primary])) as { signed: Record<string, unknown> };
        envelope.signed.artefacts = [
          { platform: 'linux-x64-appimage', url: server.url('/files/evil'), sha256: sha256('evil'), size: 4 },
        ];
        return JSON.stringify(envelope);
      },
      'bad_signature',
    ],
    [
      'a bad signature',
      () => {
        const envelope = JSON.parse(signFeed(signedPart(), [primary])) as { signatures: { sig: string }[] };
        envelope.signatures[0]!.sig = Buffer.alloc(64, 1).toString('base64');
        return JSON.stringify(envelope);
      },
      'bad_signature',
    ],
    ['an unknown key', () => signFeed(signedPart(), [makeKey()]), 'unknown_key'],
    [
      'an expired feed',
      () => signFeed(signedPart({ expires: '2026-05-31T23:59:59Z' }), [primary]),
      'expired',
    ],
    ['another product', () => signFeed(signedPart({ product: 'other-app' }), [primary]), 'wrong_product'],
    ['not JSON', () => '<html>captive portal</html>', 'malformed'],
    [
      'a feed over the size cap',
      () => signFeed(signedPart({ notes: 'x'.repeat(70_000) }), [primary]),
      'too_large',
    ],
  ])('refuses %s with a clear reason and replaces nothing', async (_name, feed, reason) => {
    publish(feed());
    const { service, memory } = build();
    const status = await service.check({ background: false });
    expect(status.available).toBeNull();
    expect(status.problem?.reason).toBe(reason);
    expect(status.problem?.message.length).toBeGreaterThan(20);
    await expect(service.download()).rejects.toMatchObject({ code: 'update_refused' });
    await expectOldAppImageKept();
    // Nothing of a refused feed is remembered.
    expect((await memory.read())?.feed ?? null).toBeNull();
    expect(server.hits.get('/files/new.AppImage')).toBeUndefined();
  });

  it('refuses a rollback: a lower counter, or the same counter with other content', async () => {
    const memory: UpdateMemory = { feed: null, installRandom: 0.1 };
    publish(signFeed(signedPart({ counter: 9, version: '0.3.0' }), [primary]));
    const built = build({ memory });
    expect((await built.service.check({ background: false })).available?.version).toBe('0.3.0');
    // The same feed again is the same news, not a refusal.
    expect((await built.service.check({ background: false })).problem).toBeNull();

    publish(signFeed(signedPart({ counter: 8 }), [primary]));
    const lower = await built.service.check({ background: false });
    expect(lower.problem?.reason).toBe('rollback');
    expect(lower.problem?.message).toContain('(8)');

    publish(signFeed(signedPart({ counter: 9, notes: 'other' }), [primary]));
    expect((await built.service.check({ background: false })).problem?.reason).toBe('rollback');
    expect((await built.memory.read())?.feed?.counter).toBe(9);
    await expectOldAppImageKept();
  });

  it('remembers the highest counter across restarts (a new service on the same memory)', async () => {
    publish(signFeed(signedPart({ counter: 12 }), [primary]));
    const first = build();
    await first.service.check({ background: false });
    const stored = await first.memory.read();
    publish(signFeed(signedPart({ counter: 11 }), [primary]));
    const again = build({ memory: stored! });
    expect((await again.service.check({ background: false })).problem?.reason).toBe('rollback');
  });

  it('refuses a download whose sha256 is not the signed one, keeping the old AppImage', async () => {
    publish(
      signFeed(
        signedPart({
          artefacts: [
            {
              platform: 'linux-x64-appimage',
              url: server.url('/files/new.AppImage'),
              sha256: sha256('something else'),
              size: NEW_APPIMAGE.length,
            },
          ],
        }),
        [primary],
      ),
    );
    const { service } = build();
    await service.check({ background: false });
    await expect(service.download()).rejects.toThrow(/sha256/);
    const status = service.status();
    expect(status.problem?.reason).toBe('hash_mismatch');
    expect(status.ready).toBeNull();
    await expectOldAppImageKept();
  });

  it('refuses a truncated download after its retries, keeping the old AppImage', async () => {
    server.set('/files/new.AppImage', {
      kind: 'cut',
      body: NEW_APPIMAGE.subarray(0, 100_000),
      length: NEW_APPIMAGE.length,
    });
    publish(signFeed(signedPart(), [primary]));
    const { service } = build();
    await service.check({ background: false });
    await expect(service.download()).rejects.toThrow(/ended after \d+ of 300000 bytes/);
    expect(service.status().problem?.reason).toBe('size_mismatch');
    expect(server.hits.get('/files/new.AppImage')).toBe(3);
    await expectOldAppImageKept();
  });

  it('refuses a download that ends cleanly but short of the signed size', async () => {
    server.set('/files/new.AppImage', { kind: 'body', body: NEW_APPIMAGE.subarray(0, 1000) });
    publish(signFeed(signedPart(), [primary]));
    const { service } = build();
    await service.check({ background: false });
    await expect(service.download()).rejects.toThrow(/ended after 1000 of 300000 bytes/);
    expect(service.status().problem?.reason).toBe('size_mismatch');
    await expectOldAppImageKept();
  });

  it('refuses a download longer than the signed size', async () => {
    server.set('/files/new.AppImage', {
      kind: 'body',
      body: Buffer.concat([NEW_APPIMAGE, Buffer.from('extra')]),
    });
    publish(signFeed(signedPart(), [primary]));
    const { service } = build();
    await service.check({ background: false });
    await expect(service.download()).rejects.toThrow(/larger than/);
    expect(service.status().problem?.reason).toBe('size_mismatch');
    await expectOldAppImageKept();
  });

  it('holds a staged rollout back from an installation outside its fraction', async () => {
    publish(signFeed(signedPart({ rollout: 0.5 }), [primary]));
    const outside = build({ memory: { feed: null, installRandom: 0.7 } });
    const held = await outside.service.check({ background: false });
    expect(held.available).toBeNull();
    expect(held.heldBack).toEqual({ version: '0.2.0', rollout: 0.5 });

    const inside = build({ memory: { feed: null, installRandom: 0.3 } });
    expect((await inside.service.check({ background: false })).available?.version).toBe('0.2.0');
  });

  it('says up to date when the feed is not newer', async () => {
    publish(signFeed(signedPart({ version: '0.1.0' }), [primary]));
    const { service } = build();
    const status = await service.check({ background: false });
    expect(status.available).toBeNull();
    expect(status.problem).toBeNull();
    expect(status.lastCheckedAt).toBe(new Date(NOW).toISOString());
  });

  it('deb: downloads and verifies the installer, shows the command, and checks it again before opening', async () => {
    server.set('/files/new.deb', { kind: 'body', body: NEW_APPIMAGE });
    publish(signFeed(signedPart(), [primary]));
    const { service, opened } = build({
      installation: { kind: 'deb', platform: 'linux-x64-deb', appImagePath: null },
    });
    const status = await service.download();
    expect(status.ready?.kind).toBe('installer');
    const ready = status.ready as { path: string; command: string };
    expect(ready.path).toBe(join(dir, 'downloads', 'proxy-manager-0.2.0-linux-x64-deb.deb'));
    expect(ready.command).toBe(`sudo apt install '${ready.path}'`);
    await service.openInstaller();
    expect(opened).toEqual([ready.path]);

    // Swapped on disk after the download: never handed to the OS.
    await fs.writeFile(ready.path, Buffer.alloc(NEW_APPIMAGE.length, 9));
    await expect(service.openInstaller()).rejects.toMatchObject({ code: 'update_refused' });
    expect(opened).toHaveLength(1);
    expect(service.status().problem?.reason).toBe('hash_mismatch');
  });

  it('refuses to download for a copy not installed from an installer', async () => {
    publish(signFeed(signedPart(), [primary]));
    const { service } = build({ installation: { kind: 'unpackaged', platform: null, appImagePath: null } });
    expect((await service.check({ background: false })).available?.version).toBe('0.2.0');
    await expect(service.download()).rejects.toThrow(/not installed from an installer/);
  });
});

describe('the same HTTP rules as every request', () => {
  it('retries a feed answered 503 twice, within the budget', async () => {
    server.set('/feed.json', { kind: 'body', body: signFeed(signedPart(), [primary]), failFirst: 2 });
    const { service } = build();
    const status = await service.check({ background: false });
    expect(status.available?.version).toBe('0.2.0');
    expect(server.hits.get('/feed.json')).toBe(3);
  });

  it('goes through the proxy set in Settings → Updates, for the feed and the download', async () => {
    const proxy = new CountingProxy();
    await proxy.start();
    try {
      publish(signFeed(signedPart(), [primary]));
      const { service } = build({ preferences: { proxyUrl: proxy.url } });
      await service.check({ background: false });
      expect(proxy.carried).toBe(1);
      await service.download();
      expect(proxy.carried).toBe(2);
      expect(await fs.readFile(appImage)).toEqual(NEW_APPIMAGE);
    } finally {
      await proxy.stop();
    }
  });
});

describe('the daily check', () => {
  it('checks at start and every 24 hours on the injected clock', async () => {
    publish(signFeed(signedPart(), [primary]));
    const { service, clock } = build();
    await service.job.start('owner');
    await clock.whenSleeping();
    expect(server.hits.get('/feed.json')).toBe(1);
    await clock.advance(24 * 60 * 60 * 1000);
    await clock.whenSleeping();
    expect(server.hits.get('/feed.json')).toBe(2);
    await service.job.stop('quit');
  });

  it.each([
    ['the switch is off', { preferences: { checkAutomatically: false } }],
    ['the demo runs', { demo: true }],
  ])('does not reach out when %s', async (_name, options) => {
    publish(signFeed(signedPart(), [primary]));
    const { service, clock } = build(options);
    await service.job.start('owner');
    await clock.whenSleeping();
    await clock.advance(24 * 60 * 60 * 1000);
    await clock.whenSleeping();
    expect(server.hits.get('/feed.json')).toBeUndefined();
    await service.job.stop('quit');
  });

  it('checks in the demo when asked to', async () => {
    publish(signFeed(signedPart(), [primary]));
    const { service, clock } = build({ demo: true, preferences: { checkInDemo: true } });
    await service.job.start('owner');
    await clock.whenSleeping();
    expect(server.hits.get('/feed.json')).toBe(1);
    await service.job.stop('quit');
  });
});
