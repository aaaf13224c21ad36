import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../../src-main/core/events';
import { SettingsService } from '../../../src-main/core/settings/settings-service';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { ipcCalls, type SavedTableView } from '../../../src-shared/contract';

let dataDir: string;
let service: SettingsService;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pm-table-views-'));
  service = new SettingsService(await SettingsStore.open({ dataDir }), new EventBus());
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const activeUs: SavedTableView = {
  name: 'Active in the US',
  search: '',
  filters: { status: ['Active'], country: ['United States'] },
  sort: { column: 'expires', direction: 'ascending' },
  hidden: ['nextRun'],
};

describe('saved table views (settings:tableViews, settings:saveTableViews)', () => {
  it('keeps each list its own views in settings.json, and a second process reads them', async () => {
    expect(await service.handlers()['settings:tableViews'](undefined)).toEqual({});
    const saved = await service.handlers()['settings:saveTableViews']({ list: 'ports', views: [activeUs] });
    expect(saved).toEqual({ ports: [activeUs] });
    const file = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(file.tableViews.ports).toEqual([activeUs]);
    const other = new SettingsService(await SettingsStore.open({ dataDir }), new EventBus());
    expect(await other.handlers()['settings:tableViews'](undefined)).toEqual({ ports: [activeUs] });
  });

  it('replaces a list whole, and an empty list leaves the file', async () => {
    await service.handlers()['settings:saveTableViews']({ list: 'ports', views: [activeUs] });
    await service.handlers()['settings:saveTableViews']({
      list: 'subscriptions',
      views: [{ ...activeUs, name: 'Mine' }],
    });
    const after = await service.handlers()['settings:saveTableViews']({ list: 'ports', views: [] });
    expect(after).toEqual({ subscriptions: [{ ...activeUs, name: 'Mine' }] });
  });

  it('refuses an unknown list, a nameless view and two views of one name', () => {
    const schema = ipcCalls['settings:saveTableViews'].input;
    expect(schema.safeParse({ list: 'nope', views: [] }).success).toBe(false);
    expect(schema.safeParse({ list: 'ports', views: [{ ...activeUs, name: ' ' }] }).success).toBe(false);
    expect(schema.safeParse({ list: 'ports', views: [activeUs, activeUs] }).success).toBe(false);
    expect(schema.safeParse({ list: 'ports', views: [activeUs] }).success).toBe(true);
  });
});
