import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildFeed,
  canonicalJson as scriptCanonicalJson,
  platformOf,
  trustedKeysOfApp,
} from '../../scripts/sign-update-feed.mjs';
import { canonicalJson } from '../../src-main/core/updates/canonical-json';
import { TRUSTED_UPDATE_KEYS } from '../../src-main/core/updates/update-config';
import { publicKeyFromHex, verifyFeed } from '../../src-main/core/updates/update-feed';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pm-feed-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function testKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x ?? '';
  return {
    publicHex: Buffer.from(x, 'base64url').toString('hex'),
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Stand-ins named as electron-builder names the installers, in per-runner folders as the release job has them. */
function standInInstallers(): Record<string, Buffer> {
  const files: Record<string, Buffer> = {
    'proxy-manager-Linux/proxy-manager-0.2.0-x86_64.AppImage': Buffer.alloc(1000, 1),
    'proxy-manager-Linux/proxy-manager_0.2.0_amd64.deb': Buffer.alloc(900, 2),
    'proxy-manager-Linux/proxy-manager-0.2.0.x86_64.rpm': Buffer.alloc(800, 3),
    'proxy-manager-macOS/proxy-manager-0.2.0-mac-arm64.dmg': Buffer.alloc(700, 4),
    'proxy-manager-macOS/proxy-manager-0.2.0-mac-x64.dmg': Buffer.alloc(600, 5),
    'proxy-manager-macOS/proxy-manager-0.2.0-mac-x64.zip': Buffer.alloc(10, 6),
    'proxy-manager-Windows/Proxy Manager Setup 0.2.0.exe': Buffer.alloc(500, 7),
  };
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  return files;
}

describe('scripts/sign-update-feed.mjs', () => {
  it('writes a feed of every installer that the app’s verifier believes', async () => {
    const files = standInInstallers();
    const key = testKey();
    const now = Date.UTC(2026, 5, 1);
    const text = await buildFeed({
      dir,
      baseUrl: 'https://releases.example/v0.2.0/',
      version: '0.2.0',
      counter: 42,
      expiresDays: 180,
      notes: 'Signed updates.',
      rollout: 0.25,
      privateKeyPem: key.pem,
      now,
    });
    const { feed, keyId } = verifyFeed(text, { trustedKeys: [key.publicHex], now, seen: null });
    expect(keyId).toBe(key.publicHex);
    expect(feed).toMatchObject({
      version: '0.2.0',
      counter: 42,
      rollout: 0.25,
      expires: '2026-11-28T00:00:00Z',
    });
    expect(feed.artefacts.map((a) => a.platform).sort()).toEqual([
      'linux-x64-appimage',
      'linux-x64-deb',
      'linux-x64-rpm',
      'mac-arm64-dmg',
      'mac-x64-dmg',
      'win-x64-nsis',
    ]);
    const exe = feed.artefacts.find((a) => a.platform === 'win-x64-nsis');
    const data = files['proxy-manager-Windows/Proxy Manager Setup 0.2.0.exe']!;
    expect(exe).toEqual({
      platform: 'win-x64-nsis',
      url: 'https://releases.example/v0.2.0/Proxy%20Manager%20Setup%200.2.0.exe',
      sha256: createHash('sha256').update(data).digest('hex'),
      size: data.length,
    });
    // Another key's signature is not believed.
    expect(() => verifyFeed(text, { trustedKeys: [testKey().publicHex], now, seen: null })).toThrow(
      /does not trust/,
    );
  });

  it('canonicalises exactly as the app does', () => {
    const samples = [{ b: 1, a: [true, null, 'é\u2028'], '\u20ac': { z: 0.1, y: 1e21 } }, 'x', 3, [], {}];
    for (const sample of samples) expect(scriptCanonicalJson(sample)).toBe(canonicalJson(sample));
  });

  it('names the platforms by electron-builder’s file names and skips the rest', () => {
    expect(platformOf('proxy-manager-0.2.0-x86_64.AppImage')).toBe('linux-x64-appimage');
    expect(platformOf('proxy-manager-0.2.0-mac-x64.zip')).toBeNull();
    expect(platformOf('proxy-manager-0.2.0-mac-arm64.dmg.blockmap')).toBeNull();
  });

  it('refuses to sign without the key in the environment, or with a key the app does not trust', async () => {
    standInInstallers();
    const script = join(ROOT, 'scripts', 'sign-update-feed.mjs');
    const args = [script, '--dir', dir, '--base-url', 'https://releases.example/v0.2.0'];
    await expect(run(process.execPath, args, { env: { PATH: process.env.PATH } })).rejects.toMatchObject({
      stderr: expect.stringContaining('UPDATE_FEED_SIGNING_KEY is not set'),
    });
    await expect(
      run(process.execPath, args, {
        env: { PATH: process.env.PATH, UPDATE_FEED_SIGNING_KEY: testKey().pem },
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('is not one the app trusts') });
  });
});

describe('the app’s trusted update keys', () => {
  it('are two distinct real Ed25519 public keys, the ones the script checks against', () => {
    expect(TRUSTED_UPDATE_KEYS).toHaveLength(2);
    expect(new Set(TRUSTED_UPDATE_KEYS).size).toBe(2);
    for (const hex of TRUSTED_UPDATE_KEYS) expect(publicKeyFromHex(hex).asymmetricKeyType).toBe('ed25519');
    expect(trustedKeysOfApp()).toEqual([...TRUSTED_UPDATE_KEYS]);
  });

  it('have no private half anywhere in the repository', async () => {
    const { stdout } = await run('git', ['ls-files', '-z'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const files = stdout
      .split('\0')
      .filter((f) => f && !f.startsWith('node_modules/') && !/\.(png|ico|icns)$/.test(f));
    const offending = files.filter((file) => {
      try {
        return readFileSync(join(ROOT, file), 'utf8').includes(['PRIVATE', 'KEY-----'].join(' '));
      } catch {
        return false;
      }
    });
    expect(offending).toEqual([]);
  });

  it('are used by the release workflow, which signs the feed with the key from its secrets', () => {
    const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
    expect(workflow).toContain('node scripts/sign-update-feed.mjs');
    expect(workflow).toMatch(/UPDATE_FEED_SIGNING_KEY: \$\{\{ secrets\.UPDATE_FEED_SIGNING_KEY \}\}/);
  });
});

describe('docs/install.md, Verifying a release by hand', () => {
  it('its one-line node check says good for a signed feed and not for a tampered one', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'install.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Verifying a release by hand'));
    const line = /```sh\n(node -e '[^\n]+') update-feed\.json [0-9a-f]{64}\n```/.exec(section)?.[1];
    expect(line).toBeDefined();
    standInInstallers();
    const key = testKey();
    const text = await buildFeed({
      dir,
      baseUrl: 'https://r.example',
      version: '0.2.0',
      expiresDays: 1,
      notes: 'n',
      privateKeyPem: key.pem,
    });
    writeFileSync(join(dir, 'update-feed.json'), text);
    const check = async () =>
      (await run('bash', ['-c', `${line} update-feed.json ${key.publicHex}`], { cwd: dir })).stdout.trim();
    expect(await check()).toBe(`Good signature by ${key.publicHex}`);
    writeFileSync(join(dir, 'update-feed.json'), text.replace('"notes":"n"', '"notes":"m"'));
    expect(await check()).toBe(`NOT signed by ${key.publicHex}`);
  });
});
