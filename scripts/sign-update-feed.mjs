// Writes and signs the update feed (update-feed.json) from the built installers: the release step of
// .github/workflows/release.yml. The format, the canonicalisation and how to verify a feed by hand are
// in docs/install.md ("The update feed"). The private key comes from the environment
// (UPDATE_FEED_SIGNING_KEY, a PKCS#8 PEM) and never from a file in the repository.
//
//   UPDATE_FEED_SIGNING_KEY="$(cat update-key-1.private.pem)" node scripts/sign-update-feed.mjs \
//     --dir out/dist --base-url https://github.com/OWNER/REPO/releases/download/v0.2.0 \
//     --notes-file notes.md [--version 0.2.0] [--counter N] [--expires-days 180] [--rollout 0.25] \
//     [--out out/dist/update-feed.json]
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** RFC 8785 canonical JSON: the same function as src-main/core/updates/canonical-json.ts (a test compares them). */
export function canonicalJson(value) {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no NaN or Infinity');
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}

/** Which feed platform an installer's file name is (electron-builder's names, electron-builder.yml). */
export function platformOf(fileName) {
  if (/-x86_64\.AppImage$/.test(fileName)) return 'linux-x64-appimage';
  if (/_amd64\.deb$/.test(fileName)) return 'linux-x64-deb';
  if (/\.x86_64\.rpm$/.test(fileName)) return 'linux-x64-rpm';
  if (/-mac-arm64\.dmg$/.test(fileName)) return 'mac-arm64-dmg';
  if (/-mac-x64\.dmg$/.test(fileName)) return 'mac-x64-dmg';
  if (/ Setup .*\.exe$/.test(fileName)) return 'win-x64-nsis';
  return null;
}

/** Raw Ed25519 public key in hex: the feed's `keyid` and the form the app lists its trusted keys in. */
export function publicKeyHex(privateKey) {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return Buffer.from(jwk.x, 'base64url').toString('hex');
}

/** The keys the app trusts, read from its source, so that a release is never signed with another. */
export function trustedKeysOfApp(root = ROOT) {
  const source = readFileSync(join(root, 'src-main', 'core', 'updates', 'update-config.ts'), 'utf8');
  const list = source.slice(source.indexOf('TRUSTED_UPDATE_KEYS'), source.indexOf('];'));
  return [...list.matchAll(/'([0-9a-f]{64})'/g)].map((match) => match[1]);
}

async function sha256Of(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/** Every installer below `dir` (the release job downloads each runner's artifacts into a folder of its own). */
export async function artefactsIn(dir, baseUrl) {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (platformOf(entry.name)) found.push(path);
    }
  };
  walk(dir);
  const artefacts = [];
  for (const path of found.sort()) {
    const platform = platformOf(basename(path));
    if (artefacts.some((a) => a.platform === platform)) throw new Error(`two installers for ${platform}`);
    artefacts.push({
      platform,
      url: `${baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(basename(path))}`,
      sha256: await sha256Of(path),
      size: statSync(path).size,
    });
  }
  return artefacts;
}

/**
 * The signed feed document. `signed` goes out in canonical form too, so that the bytes on the wire
 * are the bytes signed (a reader that canonicalises again gets the same).
 */
export function signFeedDocument(signed, privateKeyPem) {
  const privateKey = createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the signing key must be an Ed25519 key');
  const bytes = Buffer.from(canonicalJson(signed), 'utf8');
  const sig = sign(null, bytes, privateKey);
  const keyid = publicKeyHex(privateKey);
  if (!verify(null, bytes, createPublicKey(privateKey), sig))
    throw new Error('the signature does not verify');
  return `{"signatures":[${canonicalJson({ keyid, sig: sig.toString('base64') })}],"signed":${canonicalJson(signed)}}\n`;
}

export async function buildFeed(options) {
  const artefacts = await artefactsIn(options.dir, options.baseUrl);
  if (artefacts.length === 0) throw new Error(`no installers found under ${options.dir}`);
  const now = options.now ?? Date.now();
  const signed = {
    product: 'proxy-manager',
    format: 1,
    version: options.version,
    counter: options.counter ?? Math.floor(now / 1000),
    expires: new Date(now + options.expiresDays * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    releasedAt: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    notes: options.notes,
    ...(options.rollout !== undefined ? { rollout: options.rollout } : {}),
    artefacts,
  };
  return signFeedDocument(signed, options.privateKeyPem);
}

async function main() {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string', default: 'out/dist' },
      'base-url': { type: 'string' },
      version: { type: 'string' },
      counter: { type: 'string' },
      'expires-days': { type: 'string', default: '180' },
      'notes-file': { type: 'string' },
      rollout: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const privateKeyPem = process.env.UPDATE_FEED_SIGNING_KEY;
  if (!privateKeyPem)
    throw new Error('UPDATE_FEED_SIGNING_KEY is not set (the Ed25519 private key, PKCS#8 PEM)');
  if (!values['base-url']) throw new Error('--base-url is required (where the installers can be downloaded)');
  const keyid = publicKeyHex(createPrivateKey(privateKeyPem));
  if (!trustedKeysOfApp().includes(keyid)) {
    throw new Error(
      `the signing key ${keyid} is not one the app trusts (src-main/core/updates/update-config.ts)`,
    );
  }
  const version = values.version ?? JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  const text = await buildFeed({
    dir: values.dir,
    baseUrl: values['base-url'],
    version,
    ...(values.counter ? { counter: Number(values.counter) } : {}),
    expiresDays: Number(values['expires-days']),
    notes: values['notes-file'] ? readFileSync(values['notes-file'], 'utf8') : `Proxy Manager ${version}`,
    ...(values.rollout ? { rollout: Number(values.rollout) } : {}),
    privateKeyPem,
  });
  const out = values.out ?? join(values.dir, 'update-feed.json');
  writeFileSync(out, text);
  process.stderr.write(`signed ${out} with key ${keyid}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    process.stderr.write(`sign-update-feed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
