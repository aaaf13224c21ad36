import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../../src-main/core/events';
import { SettingsService } from '../../../src-main/core/settings/settings-service';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { ipcCalls, type SettingsView } from '../../../src-main/ipc/contract';

let dataDir: string;
let events: SettingsView[];
let service: SettingsService;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pm-settings-service-'));
  const bus = new EventBus();
  events = [];
  bus.on('settings:changed', (view) => events.push(view));
  service = new SettingsService(await SettingsStore.open({ dataDir }), bus);
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('SettingsService', () => {
  it('shows the desktop preferences with their defaults', async () => {
    expect((await service.handlers()['settings:get'](undefined)).desktop).toEqual({
      closeToTray: true,
      startAtLogin: false,
      startMinimized: false,
    });
  });

  it('updates only the members given, saves them, and announces the new view', async () => {
    const view = await service.handlers()['settings:update']({
      theme: 'dark',
      desktop: { startAtLogin: true },
      polling: { usageMinutes: 5 },
    });
    expect(view).toMatchObject({
      theme: 'dark',
      desktop: { closeToTray: true, startAtLogin: true, startMinimized: false },
      polling: { usageMinutes: 5, topUpVerifyingSeconds: 10 },
    });
    expect(events).toEqual([view]);
    const saved = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.desktop).toEqual({ closeToTray: true, startAtLogin: true, startMinimized: false });
  });

  it('keeps the IP-echo URL of the proxy test (https by default), and the contract takes only http(s) URLs', async () => {
    expect((await service.handlers()['settings:get'](undefined)).proxyTest).toEqual({
      ipEchoUrl: 'https://api.ipify.org?format=json',
    });
    const view = await service.handlers()['settings:update']({
      proxyTest: { ipEchoUrl: 'https://ipinfo.io/json' },
    });
    expect(view.proxyTest.ipEchoUrl).toBe('https://ipinfo.io/json');
    const saved = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.proxyTest).toEqual({ ipEchoUrl: 'https://ipinfo.io/json' });
    const input = ipcCalls['settings:update'].input;
    expect(input.safeParse({ proxyTest: { ipEchoUrl: 'file:///etc/passwd' } }).success).toBe(false);
    expect(input.safeParse({ proxyTest: { ipEchoUrl: 'not a url' } }).success).toBe(false);
  });
});
