import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeBaseUrl, ProxyServiceClient } from '../../src-main/api';
import type { AppCore } from '../../src-main/core/app-core';
import { buildAppCore } from '../../src-main/core/create-app-core';
import { SessionSecretStore } from '../../src-main/core/secrets/session-secret-store';
import { SettingsStore } from '../../src-main/core/settings/settings-store';
import { createGuardedDispatcher } from '../../src-main/dispatch/guarded-dispatcher';
import { createIpcHandlers } from '../../src-main/dispatch/handler-table';

/** `app:saveFile` (the desktop's CSV exports) through the composition root and the guarded dispatcher. */
describe('app:saveFile', () => {
  let core: AppCore | null = null;
  afterEach(async () => {
    await core?.dispose();
    core = null;
  });

  async function dispatcher(saveFile?: (fileName: string, content: string) => Promise<string | null>) {
    core = buildAppCore({
      mode: saveFile ? 'desktop' : 'web',
      settings: await SettingsStore.open({ dataDir: mkdtempSync(join(tmpdir(), 'pm-save-')) }),
      keychain: new SessionSecretStore(),
      keychainStatus: () => ({ available: true }),
      createClient: (config) => new ProxyServiceClient(config),
      probeBaseUrl: (baseUrl) => probeBaseUrl(baseUrl),
      startDemoSandbox: () => Promise.reject(new Error('no demo here')),
      ...(saveFile ? { saveFile } : {}),
    });
    const dispatch = createGuardedDispatcher({
      handlers: createIpcHandlers(core),
      isTrustedSender: () => true,
      log: () => undefined,
    });
    return (input: unknown) => dispatch('ui', 'app:saveFile', input);
  }

  it('hands a file name and its content to the shell, and says where it went or that it was cancelled', async () => {
    const saved: [string, string][] = [];
    let answer: string | null = '/home/me/Downloads/topups.csv';
    const save = await dispatcher((fileName, content) => {
      saved.push([fileName, content]);
      return Promise.resolve(answer);
    });
    expect(await save({ fileName: 'topups.csv', content: 'id\n' })).toEqual({
      ok: true,
      value: { saved: true, path: '/home/me/Downloads/topups.csv' },
    });
    answer = null;
    expect(await save({ fileName: 'topups.csv', content: 'id\n' })).toEqual({
      ok: true,
      value: { saved: false, path: null },
    });
    expect(saved).toHaveLength(2);
  });

  it('refuses a path or a hidden file instead of a name, before the shell sees it', async () => {
    const saved: string[] = [];
    const save = await dispatcher((fileName) => {
      saved.push(fileName);
      return Promise.resolve(null);
    });
    for (const fileName of ['../x.csv', '/etc/passwd', 'C:\\x.csv', '.bashrc', 'a\nb.csv', '']) {
      expect(await save({ fileName, content: 'x' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
    }
    expect(saved).toEqual([]);
  });

  it('is refused in web mode (the browser downloads)', async () => {
    const save = await dispatcher();
    expect(await save({ fileName: 'topups.csv', content: 'id\n' })).toMatchObject({
      ok: false,
      error: { code: 'not_implemented' },
    });
  });
});
