import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Clock } from '../../../src-main/core/runtime/clock';
import {
  JobStateError,
  JobStateStore,
  type JobStateRecovery,
  type JobStateStoreOptions,
} from '../../../src-main/core/storage/job-state-store';
import { writeFileAtomic } from '../../../src-main/lib/atomic-file';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const STAMP = '2026-03-10T12-00-00-000Z';

let dataDir: string;
let file: string;

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'pm-job-state-'));
  dataDir = join(root, 'Proxy Manager');
  file = join(dataDir, 'state.json');
});

afterEach(async () => {
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

/** Lock waits that take one event-loop turn each; time stands still (see the settings tests). */
const turnClock: Clock = {
  now: () => NOW.getTime(),
  sleep: () => new Promise((resolve) => setImmediate(resolve)),
};

const open = (options: Partial<JobStateStoreOptions> = {}): Promise<JobStateStore> =>
  JobStateStore.open({ dataDir, now: () => NOW, lock: { clock: turnClock }, ...options });

// Two features as they will register themselves: neither edits a central schema.
const topUpsSchema = z.object({
  intents: z
    .array(
      z.object({
        id: z.string(),
        idempotencyKey: z.uuid(),
        amount: z.string().regex(/^\d+(\.\d+)?$/),
        state: z.enum(['intended', 'sent', 'confirmed']),
      }),
    )
    .default([]),
});
type TopUps = z.infer<typeof topUpsSchema>;
const schedulesSchema = z.record(
  z.string(),
  z.object({ lastRunAt: z.iso.datetime(), failures: z.int().min(0) }),
);

const intent = (id: string, state: 'intended' | 'sent' = 'intended') => ({
  id,
  idempotencyKey: '6f1c1a52-3a3e-4d8e-9d7c-1b9f3f2a4c11',
  amount: '25.00',
  state,
});

async function writeStateFile(content: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, content);
}

const readState = async (): Promise<{ version: number; sections: Record<string, unknown> }> =>
  JSON.parse(await readFile(file, 'utf8')) as { version: number; sections: Record<string, unknown> };

describe('JobStateStore: sections', () => {
  it('keeps each feature in its own section of state.json in the data folder, across a restart', async () => {
    const store = await open();
    const topUps = store.section<TopUps>('topups', topUpsSchema, { intents: [] });
    const schedules = store.section('rotation-schedules', schedulesSchema, {});
    expect(topUps.get()).toEqual({ intents: [] });
    expect(await readdir(dataDir)).toEqual([]);

    await topUps.update((draft) => {
      draft.intents.push(intent('tu_1'));
    });
    await schedules.update((draft) => ({ ...draft, port_9: { lastRunAt: NOW.toISOString(), failures: 0 } }));
    expect(await readState()).toEqual({
      version: 1,
      sections: {
        topups: { intents: [intent('tu_1')] },
        'rotation-schedules': { port_9: { lastRunAt: NOW.toISOString(), failures: 0 } },
      },
    });

    const restarted = await open();
    expect(restarted.recoveries).toEqual([]);
    expect(restarted.section('topups', topUpsSchema, { intents: [] }).get().intents).toEqual([
      intent('tu_1'),
    ]);
    expect(restarted.section('rotation-schedules', schedulesSchema, {}).get()).toHaveProperty('port_9');
  });

  it('hands out frozen snapshots and tells subscribers about each saved value', async () => {
    const store = await open();
    const topUps = store.section('topups', topUpsSchema, { intents: [] });
    const seen: number[] = [];
    topUps.subscribe((value) => seen.push(value.intents.length));
    const before = topUps.get();
    await topUps.update((draft) => void draft.intents.push(intent('tu_1')));
    expect(Object.isFrozen(topUps.get().intents)).toBe(true);
    expect(before.intents).toEqual([]);
    await Promise.resolve();
    expect(seen).toEqual([1]);
  });

  it('keeps sections nobody registered (a newer feature, a feature turned off) when it writes', async () => {
    const future = { alerts: { crossed: ['traffic-10'] }, somethingElse: [1, 2, 3] };
    await writeStateFile(JSON.stringify({ version: 1, sections: { ...future, topups: { intents: [] } } }));
    const store = await open();
    await store.section('topups', topUpsSchema, { intents: [] }).update((draft) => {
      draft.intents.push(intent('tu_1'));
    });
    expect((await readState()).sections).toEqual({ ...future, topups: { intents: [intent('tu_1')] } });
  });

  it('refuses bad section names, a name registered twice, and defaults that fail the schema', async () => {
    const store = await open();
    store.section('topups', topUpsSchema, { intents: [] });
    expect(() => store.section('topups', topUpsSchema, { intents: [] })).toThrow(/registered already/);
    expect(() => store.section('Top Ups', topUpsSchema, { intents: [] })).toThrow(JobStateError);
    expect(() => store.section('__proto__', topUpsSchema, { intents: [] })).toThrow(JobStateError);
    expect(() => store.section('alerts', z.object({ n: z.int() }), { n: 1.5 })).toThrow(/defaults/);
  });
});

describe('JobStateStore: writes', () => {
  it('resolves an update only once the intent is on disk (write the intent, then send the request)', async () => {
    const writes: { data: string; finish: () => void }[] = [];
    const store = await open({
      writeFile: (target, data) =>
        new Promise<void>((resolve) => {
          writes.push({ data, finish: () => void writeFileAtomic(target, data).then(resolve) });
        }),
    });
    const topUps = store.section('topups', topUpsSchema, { intents: [] });
    let resolved = false;
    const saving = topUps
      .update((draft) => void draft.intents.push(intent('tu_1')))
      .then(() => (resolved = true));
    for (let turn = 0; turn < 100_000 && writes.length === 0; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(writes).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(resolved).toBe(false);
    expect(topUps.get().intents).toEqual([]);
    writes[0]?.finish();
    await saving;
    expect(topUps.get().intents).toEqual([intent('tu_1')]);
  });

  it('with the real atomic write, the bytes are in the file the moment update resolves', async () => {
    const store = await open();
    const topUps = store.section('topups', topUpsSchema, { intents: [] });
    await topUps.update((draft) => void draft.intents.push(intent('tu_1')));
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { sections: { topups: TopUps } };
    expect(onDisk.sections.topups.intents[0]?.idempotencyKey).toBe('6f1c1a52-3a3e-4d8e-9d7c-1b9f3f2a4c11');
  });

  it('leaves the old file and the old value when a write crashes halfway', async () => {
    const first = await open();
    await first
      .section('topups', topUpsSchema, { intents: [] })
      .update((draft) => void draft.intents.push(intent('tu_1')));
    const before = await readFile(file, 'utf8');

    // The crash: the temp file is half written, the rename never happens.
    const crashing = await open({
      writeFile: async (target, data) => {
        await writeFile(join(dataDir, '.state.json.999.crash.tmp'), data.slice(0, data.length / 2));
        throw new Error(`simulated crash while writing ${target}`);
      },
    });
    const topUps = crashing.section('topups', topUpsSchema, { intents: [] });
    await expect(topUps.update((draft) => void draft.intents.push(intent('tu_2')))).rejects.toThrow(
      'simulated crash',
    );
    expect(topUps.get().intents).toEqual([intent('tu_1')]);
    expect(await readFile(file, 'utf8')).toBe(before);

    const afterRestart = await open();
    expect(afterRestart.recoveries).toEqual([]);
    expect(afterRestart.section('topups', topUpsSchema, { intents: [] }).get().intents).toEqual([
      intent('tu_1'),
    ]);
  });

  it('applies concurrent updates one after another, across sections, losing none', async () => {
    const store = await open();
    const topUps = store.section('topups', topUpsSchema, { intents: [] });
    const schedules = store.section('rotation-schedules', schedulesSchema, {});
    await Promise.all(
      Array.from({ length: 12 }, (_, index) => [
        topUps.update((draft) => void draft.intents.push(intent(`tu_${index}`))),
        schedules.update((draft) => ({
          ...draft,
          [`port_${index}`]: { lastRunAt: NOW.toISOString(), failures: index },
        })),
      ]).flat(),
    );
    const onDisk = (await readState()).sections as {
      topups: TopUps;
      'rotation-schedules': Record<string, unknown>;
    };
    expect(onDisk.topups.intents.map((item) => item.id)).toEqual(
      Array.from({ length: 12 }, (_, index) => `tu_${index}`),
    );
    expect(Object.keys(onDisk['rotation-schedules'])).toHaveLength(12);
    expect(await readdir(dataDir)).toEqual(['state.json']);
  });

  it('keeps both processes’ updates when two stores (desktop and web mode) share the folder', async () => {
    const desktop = await open({ lock: { clock: turnClock, pid: 1000, isProcessAlive: () => true } });
    const web = await open({ lock: { clock: turnClock, pid: 2000, isProcessAlive: () => true } });
    const desktopTopUps = desktop.section('topups', topUpsSchema, { intents: [] });
    const webTopUps = web.section('topups', topUpsSchema, { intents: [] });
    const webSchedules = web.section('rotation-schedules', schedulesSchema, {});
    await Promise.all([
      desktopTopUps.update((draft) => void draft.intents.push(intent('from-desktop'))),
      webTopUps.update((draft) => void draft.intents.push(intent('from-web'))),
      webSchedules.update(() => ({ port_1: { lastRunAt: NOW.toISOString(), failures: 0 } })),
      desktopTopUps.update((draft) => void draft.intents.push(intent('from-desktop-2'))),
    ]);
    const ids = ((await readState()).sections.topups as TopUps).intents.map((item) => item.id).sort();
    expect(ids).toEqual(['from-desktop', 'from-desktop-2', 'from-web']);
    expect((await readState()).sections['rotation-schedules']).toHaveProperty('port_1');
  });

  it('shows another process’s change on reload, telling the section subscribers', async () => {
    const owner = await open();
    const viewer = await open();
    const ownerTopUps = owner.section('topups', topUpsSchema, { intents: [] });
    const viewerTopUps = viewer.section('topups', topUpsSchema, { intents: [] });
    const seen: string[][] = [];
    viewerTopUps.subscribe((value) => seen.push(value.intents.map((item) => item.id)));
    await ownerTopUps.update((draft) => void draft.intents.push(intent('tu_1')));
    expect(viewerTopUps.get().intents).toEqual([]);
    await viewer.reload();
    expect(viewerTopUps.get().intents.map((item) => item.id)).toEqual(['tu_1']);
    await Promise.resolve();
    expect(seen).toEqual([['tu_1']]);
  });

  it('rejects a value failing the schema, naming the section and member, and writes nothing', async () => {
    const store = await open();
    const topUps = store.section('topups', topUpsSchema, { intents: [] });
    const error = await topUps
      .update((draft) => void draft.intents.push({ ...intent('tu_1'), amount: '25,00' }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobStateError);
    expect(error).toMatchObject({ code: 'invalid_job_state', section: 'topups' });
    expect((error as Error).message).toMatch(/Invalid topups state: intents\.0\.amount/);
    expect(await readdir(dataDir)).toEqual([]);
    // The queue goes on.
    await topUps.update((draft) => void draft.intents.push(intent('tu_2')));
    expect(topUps.get().intents).toHaveLength(1);
  });

  it('refuses a value that would not read back the same from JSON (a Date)', async () => {
    const store = await open();
    const section = store.section('when', z.object({ at: z.date().nullable() }), { at: null });
    await expect(section.update(() => ({ at: new Date() }))).rejects.toThrow(/does not survive JSON/);
  });

  it('never stores a secret: keys, passwords and rotation links are refused, an Idempotency-Key is fine', async () => {
    const store = await open();
    const loose = store.section('relocations', z.record(z.string(), z.unknown()), {});
    await expect(loose.update(() => ({ apiKey: 'sk_live_x' }))).rejects.toMatchObject({
      code: 'secret_in_job_state',
      message: 'Job state never holds secrets (found at relocations.apiKey)',
    });
    await expect(
      loose.update(() => ({ link: 'https://api.example/v1/ports/p/rotate?key=sk_live_x' })),
    ).rejects.toMatchObject({
      code: 'secret_in_job_state',
    });
    await expect(
      loose.update(() => ({ idempotencyKey: '6f1c1a52-3a3e-4d8e-9d7c-1b9f3f2a4c11' })),
    ).resolves.toBeTruthy();
    expect(await readFile(file, 'utf8')).not.toContain('sk_live_x');
  });
});

describe('JobStateStore: recovery', () => {
  it.each([
    ['bad JSON', '{"version": 1, "sections": {', /not valid JSON/],
    ['an empty file', '', /not valid JSON/],
    ['an array', '[]', /does not hold an object/],
    ['no version', '{"sections": {}}', /version/],
    ['no sections', '{"version": 1}', /no sections/],
  ])(
    'keeps a file with %s aside as state.json.corrupt-<time>, with a notice, and starts afresh',
    async (_label, content, reason) => {
      await writeStateFile(content);
      const store = await open();
      const aside = join(dataDir, `state.json.corrupt-${STAMP}`);
      expect(store.recoveries).toEqual([
        { kind: 'corrupt', recoveredFrom: aside, reason: expect.stringMatching(reason) },
      ]);
      expect(await readFile(aside, 'utf8')).toBe(content);
      const topUps = store.section('topups', topUpsSchema, { intents: [] });
      expect(topUps.get()).toEqual({ intents: [] });
      await topUps.update((draft) => void draft.intents.push(intent('tu_1')));
      expect((await open()).recoveries).toEqual([]);
    },
  );

  it('starts only a damaged section afresh, keeping a copy of the file and the other sections', async () => {
    const content = JSON.stringify({
      version: 1,
      sections: {
        topups: { intents: [{ id: 'tu_1', amount: 'lots' }] },
        'rotation-schedules': { port_1: { lastRunAt: NOW.toISOString(), failures: 2 } },
      },
    });
    await writeStateFile(content);
    const store = await open();
    const notices: JobStateRecovery[] = [];
    store.onRecovery((recovery) => notices.push(recovery));
    const topUps = store.section('topups', topUpsSchema, { intents: [] });
    const schedules = store.section('rotation-schedules', schedulesSchema, {});
    expect(topUps.get()).toEqual({ intents: [] });
    expect(schedules.get().port_1?.failures).toBe(2);
    await store.flush();
    const copy = join(dataDir, `state.json.corrupt-${STAMP}`);
    const expected = {
      kind: 'section-invalid',
      section: 'topups',
      recoveredFrom: copy,
      reason: expect.stringMatching(/saved state of topups was damaged \(intents\.0\.idempotencyKey/),
    };
    expect(store.recoveries).toEqual([expected]);
    await Promise.resolve();
    expect(notices).toEqual([expected]);
    expect(await readFile(copy, 'utf8')).toBe(content);
    await topUps.update((draft) => void draft.intents.push(intent('tu_2')));
    expect((await readState()).sections['rotation-schedules']).toEqual({
      port_1: { lastRunAt: NOW.toISOString(), failures: 2 },
    });
  });

  it('keeps a copy of a file from a newer version and reads what its schemas understand', async () => {
    const content = JSON.stringify({
      version: 2,
      sections: { topups: { intents: [intent('tu_1')], newMember: 1 } },
    });
    await writeStateFile(content);
    const store = await open();
    const copy = join(dataDir, `state.json.newer-${STAMP}`);
    expect(store.recoveries).toEqual([
      { kind: 'newer-version', recoveredFrom: copy, reason: expect.stringMatching(/newer version/) },
    ]);
    expect(store.section('topups', topUpsSchema, { intents: [] }).get().intents).toEqual([intent('tu_1')]);
    expect(await readFile(copy, 'utf8')).toBe(content);
  });

  it('keeps a file damaged by someone else aside at the next update, and writes its last good state', async () => {
    const store = await open();
    const topUps = store.section('topups', topUpsSchema, { intents: [] });
    await topUps.update((draft) => void draft.intents.push(intent('tu_1')));
    await writeFile(file, 'garbage');
    await topUps.update((draft) => void draft.intents.push(intent('tu_2')));
    expect(await readFile(join(dataDir, `state.json.corrupt-${STAMP}`), 'utf8')).toBe('garbage');
    expect(((await readState()).sections.topups as TopUps).intents.map((item) => item.id)).toEqual([
      'tu_1',
      'tu_2',
    ]);
    expect(store.recoveries.map((recovery) => recovery.kind)).toEqual(['corrupt']);
  });

  it('fails, moving nothing, when the file cannot be read at all', async () => {
    await mkdir(file, { recursive: true }); // A folder where the file should be: EISDIR.
    await expect(open()).rejects.toMatchObject({ code: 'job_state_unreadable' });
    expect(await readdir(dataDir)).toEqual(['state.json']);
  });
});
