/**
 * The signed update feed: its format, and the one function that decides whether a feed may be
 * believed. Modelled on Mullvad's `mullvad-update` metadata: an Ed25519 signature over the canonical
 * JSON (RFC 8785, `canonical-json.ts`) of the `signed` member, an expiry, a counter that only goes up,
 * sha256 and size per installer, an optional staged rollout. Format reference: docs/install.md
 * ("The update feed").
 *
 *     { "signed": { "product": "proxy-manager", "format": 1, "version": "0.2.0", "counter": 7,
 *                   "expires": "2027-06-01T00:00:00Z", "releasedAt": "...", "notes": "...",
 *                   "rollout": 0.25, "artefacts": [ { "platform": "linux-x64-appimage",
 *                   "url": "https://...", "sha256": "<64 hex>", "size": 123456 } ] },
 *       "signatures": [ { "keyid": "<public key, 64 hex>", "sig": "<base64>" } ] }
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from './canonical-json';

const FEED_PRODUCT = 'proxy-manager';
const FEED_FORMAT = 1;
/** The manifest is a few kilobytes; anything past this is refused before it is parsed. */
export const FEED_MAX_BYTES = 64 * 1024;
/** No installer of ours comes near this; a feed naming a larger one is not believed. */
const ARTEFACT_MAX_BYTES = 2 * 1024 ** 3;
const NOTES_MAX = 20_000;
const SIGNATURES_MAX = 8;

/** Where each installer goes: `<os>-<arch>-<kind>`, the names the release script writes. */
const UPDATE_PLATFORMS = [
  'linux-x64-appimage',
  'linux-x64-deb',
  'linux-x64-rpm',
  'mac-arm64-dmg',
  'mac-x64-dmg',
  'win-x64-nsis',
] as const;
export type UpdatePlatform = (typeof UPDATE_PLATFORMS)[number];

/** Why a feed or a download was not believed; each has one sentence for the user. */
export type UpdateRefusalCode =
  | 'malformed'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_product'
  | 'expired'
  | 'rollback'
  | 'too_large'
  | 'size_mismatch'
  | 'hash_mismatch';

export class UpdateRefusedError extends Error {
  constructor(
    readonly reason: UpdateRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'UpdateRefusedError';
  }
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;
/** https only; plain http only to this computer (the tests' feed server). */
const downloadUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .refine((url) => {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || LOOPBACK.test(parsed.hostname);
  }, 'an https:// URL');

const SEMVER = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?$/;

const artefactSchema = z.strictObject({
  platform: z.enum(UPDATE_PLATFORMS),
  url: downloadUrl,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, '64 lower-case hex digits'),
  size: z.int().min(1).max(ARTEFACT_MAX_BYTES),
});
export type FeedArtefact = z.infer<typeof artefactSchema>;

const signedSchema = z.strictObject({
  product: z.string().max(64),
  format: z.literal(FEED_FORMAT),
  version: z.string().regex(SEMVER, 'a version such as 1.2.3'),
  counter: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  expires: z.iso.datetime(),
  releasedAt: z.iso.datetime(),
  notes: z.string().max(NOTES_MAX),
  rollout: z.number().min(0).max(1).optional(),
  artefacts: z
    .array(artefactSchema)
    .max(UPDATE_PLATFORMS.length)
    .refine((list) => new Set(list.map((a) => a.platform)).size === list.length, 'a platform twice'),
});
export type SignedFeed = z.infer<typeof signedSchema>;

/** The envelope, read only as far as the signature check needs: `signed` stays opaque until then. */
const envelopeSchema = z.object({
  signed: z.record(z.string(), z.unknown()),
  signatures: z
    .array(z.object({ keyid: z.string().max(128), sig: z.string().max(256) }))
    .min(1)
    .max(SIGNATURES_MAX),
});

/** A trusted Ed25519 public key, by its raw 32 bytes in hex (which is also its `keyid`). */
export function publicKeyFromHex(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new TypeError('an Ed25519 public key is 64 hex digits');
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

export interface VerifiedFeed {
  feed: SignedFeed;
  /** The key that signed it (hex), for the log and the status. */
  keyId: string;
  /** sha256 of the signed canonical bytes: tells the same feed seen again from a new one. */
  digest: string;
}

/** What the app remembers of the newest feed it believed (`state.json`, section `updates`). */
export interface FeedMemory {
  counter: number;
  digest: string;
}

export interface FeedCheckOptions {
  /** Keys whose signature is believed, hex; more than one so that a key can be rotated. */
  trustedKeys: readonly string[];
  /** Epoch ms. */
  now: number;
  /** The newest feed believed before, or null on a first check. */
  seen: FeedMemory | null;
}

/**
 * Believes a feed or says why not. The signature is checked first, over the canonical form of
 * `signed`, before any member of it is read; then its shape, product, expiry and counter. A feed
 * equal to the one seen last (same counter, same bytes) is the same news again; any other feed must
 * carry a higher counter, so an old feed (or an old signed release) cannot be replayed.
 */
export function verifyFeed(text: string, options: FeedCheckOptions): VerifiedFeed {
  if (Buffer.byteLength(text, 'utf8') > FEED_MAX_BYTES) {
    throw new UpdateRefusedError('too_large', `The update feed is larger than ${FEED_MAX_BYTES} bytes.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new UpdateRefusedError('malformed', 'The update feed is not JSON.');
  }
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success) {
    throw new UpdateRefusedError('malformed', 'The update feed has no signed part or no signatures.');
  }
  const signedBytes = Buffer.from(canonicalJson(envelope.data.signed), 'utf8');
  const trusted = new Set(options.trustedKeys);
  const candidates = envelope.data.signatures.filter((s) => trusted.has(s.keyid));
  if (candidates.length === 0) {
    throw new UpdateRefusedError(
      'unknown_key',
      'The update feed is signed by a key this app does not trust (expected one of its built-in keys).',
    );
  }
  const good = candidates.find((s) => {
    const sig = Buffer.from(s.sig, 'base64');
    if (sig.length !== 64) return false;
    try {
      return verify(null, signedBytes, publicKeyFromHex(s.keyid), sig);
    } catch {
      return false;
    }
  });
  if (!good) {
    throw new UpdateRefusedError(
      'bad_signature',
      'The update feed’s signature does not match its content: it was changed after it was signed.',
    );
  }
  const parsed = signedSchema.safeParse(envelope.data.signed);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'unknown problem';
    throw new UpdateRefusedError('malformed', `The update feed is signed but not valid (${where}).`);
  }
  const feed = parsed.data;
  if (feed.product !== FEED_PRODUCT) {
    throw new UpdateRefusedError('wrong_product', `The update feed is for "${feed.product}", not this app.`);
  }
  if (Date.parse(feed.expires) <= options.now) {
    throw new UpdateRefusedError(
      'expired',
      `The update feed expired on ${feed.expires}: an old copy is being served (or the clock is wrong).`,
    );
  }
  const digest = createHash('sha256').update(signedBytes).digest('hex');
  const seen = options.seen;
  if (seen && (feed.counter < seen.counter || (feed.counter === seen.counter && digest !== seen.digest))) {
    throw new UpdateRefusedError(
      'rollback',
      `The update feed’s counter (${feed.counter}) is not above the newest one seen (${seen.counter}): an older feed is being replayed.`,
    );
  }
  return { feed, keyId: good.keyid, digest };
}

/** -1, 0 or 1: semantic version order (a pre-release sorts before its release). */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) return a === b ? 0 : a < b ? -1 : 1;
  for (let i = 1; i <= 3; i += 1) {
    const diff = Number(pa[i]) - Number(pb[i]);
    if (diff !== 0) return Math.sign(diff);
  }
  const [preA, preB] = [pa[4], pb[4]];
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  const partsA = preA.split('.');
  const partsB = preB.split('.');
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i += 1) {
    const [x, y] = [partsA[i], partsB[i]];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return Math.sign(Number(x) - Number(y));
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}
