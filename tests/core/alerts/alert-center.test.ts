import { describe, expect, it } from 'vitest';
import {
  AlertCenter,
  type CrossingStore,
  type RaisedAlert,
} from '../../../src-main/core/alerts/alert-center';
import type { AlertCheck } from '../../../src-main/core/alerts/alert-rules';

function memoryStore(
  initial: string[] = [],
): Omit<CrossingStore, 'read'> & { writes: string[][]; read: () => readonly string[] } {
  let keys = [...initial];
  const writes: string[][] = [];
  return {
    writes,
    read: () => keys,
    write: (next) => {
      keys = [...next];
      writes.push([...next]);
      return Promise.resolve();
    },
  };
}

const low = (holds: boolean, subjectId = 'sub-1', profileId = 'p'): AlertCheck => ({
  key: `traffic_low:${profileId}:${subjectId}`,
  kind: 'traffic_low',
  profileId,
  subjectId,
  holds,
  ...(holds ? { title: 'Traffic running low', message: 'x', level: 'warning' as const } : {}),
});

function center(store: CrossingStore) {
  const published: RaisedAlert[] = [];
  const alerts = new AlertCenter({
    crossings: store,
    now: () => new Date('2026-06-01T00:00:00.000Z'),
    publish: (alert) => published.push(alert),
  });
  return { alerts, published };
}

describe('AlertCenter', () => {
  it('fires once per crossing, not on every poll, and re-arms when the value recovers', async () => {
    const store = memoryStore();
    const { alerts, published } = center(store);
    expect(await alerts.apply([low(true)])).toHaveLength(1);
    expect(await alerts.apply([low(true)])).toHaveLength(0);
    expect(await alerts.apply([low(true)])).toHaveLength(0);
    await alerts.apply([low(false)]);
    expect(await alerts.apply([low(true)])).toHaveLength(1);
    expect(published.map((a) => a.key)).toEqual(['traffic_low:p:sub-1', 'traffic_low:p:sub-1']);
  });

  it('stores the crossing before publishing, and a restart does not repeat it', async () => {
    const store = memoryStore();
    let storedWhenPublished: readonly string[] = [];
    const first = new AlertCenter({
      crossings: store,
      now: () => new Date(),
      publish: () => {
        storedWhenPublished = store.read();
      },
    });
    await first.apply([low(true)]);
    expect(storedWhenPublished).toEqual(['traffic_low:p:sub-1']);
    const { alerts: restarted, published } = center(store);
    expect(await restarted.apply([low(true)])).toEqual([]);
    expect(published).toEqual([]);
  });

  it('leaves subjects that were not evaluated as they were', async () => {
    const store = memoryStore(['traffic_low:p:sub-2']);
    const { alerts } = center(store);
    await alerts.apply([low(true, 'sub-1')]);
    expect([...store.read()].sort()).toEqual(['traffic_low:p:sub-1', 'traffic_low:p:sub-2']);
  });

  it('writes nothing when nothing crossed', async () => {
    const store = memoryStore(['traffic_low:p:sub-1']);
    const { alerts } = center(store);
    await alerts.apply([low(true)]);
    expect(store.writes).toEqual([]);
  });

  it('forgets the crossings and alerts of a deleted profile only', async () => {
    const store = memoryStore();
    const { alerts } = center(store);
    await alerts.apply([low(true, 'a', 'p1'), low(true, 'b', 'p2')]);
    await alerts.forgetProfile('p1');
    expect(store.read()).toEqual(['traffic_low:p2:b']);
    expect(alerts.recent().map((a) => a.profileId)).toEqual(['p2']);
  });
});
