import { homedir } from 'node:os';
import { join } from 'node:path';

const APP_DIR_NAME = 'proxy-manager';

/**
 * The folder for settings and demo data, shared by the desktop app and web mode so that both see the
 * same profiles. `PROXY_MANAGER_DATA_DIR` overrides it (tests, portable setups).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.PROXY_MANAGER_DATA_DIR) return env.PROXY_MANAGER_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME);
}
