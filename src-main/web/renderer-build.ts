import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Web mode must work right after `npm ci`: build the renderer when `out/renderer` is missing or older
 * than its sources (or the shared leaf, whose contract types it was built against). Build output goes
 * to stderr so that stdout carries only the WEB_READY line.
 */
export function ensureRendererBuilt(root: string, log: (line: string) => void): string {
  const outDir = join(root, 'out', 'renderer');
  const index = join(outDir, 'index.html');
  const sources = [join(root, 'src-renderer'), join(root, 'src-shared')];
  const fresh = existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime));
  if (fresh) return outDir;
  log('web: building the renderer (electron-vite build)…');
  const result = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (result.status !== 0 || !existsSync(index))
    throw new Error('building the renderer failed; see the output above');
  return outDir;
}
