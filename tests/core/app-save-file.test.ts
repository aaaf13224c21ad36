import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app-core';
import { createHarness } from './support/core-harness';

/** `app:saveFile` (the desktop's CSV exports) through the composition root and the guarded dispatcher. */
describe('app:saveFile', () => {
  let core: AppCore | null = null;
  afterEach(async () => {
    await core?.dispose();
    core = null;
  });

  async function dispatcher(saveFile?: (fileName: string, content: string) => Promise<string | null>) {
    const harness = await createHarness(null, {
      mode: saveFile ? 'desktop' : 'web',
      ...(saveFile ? { saveFile } : {}),
    });
    core = harness.core;
    return (input: unknown) => harness.dispatch('app:saveFile', input);
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
