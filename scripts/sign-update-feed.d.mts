// Types for scripts/sign-update-feed.mjs (the release step that writes and signs update-feed.json).
import type { KeyObject } from 'node:crypto';

export function canonicalJson(value: unknown): string;
export function platformOf(fileName: string): string | null;
export function publicKeyHex(privateKey: KeyObject | string): string;
export function trustedKeysOfApp(root?: string): string[];
export interface FeedArtefactOut {
  platform: string;
  url: string;
  sha256: string;
  size: number;
}
export function artefactsIn(dir: string, baseUrl: string): Promise<FeedArtefactOut[]>;
export function signFeedDocument(signed: Record<string, unknown>, privateKeyPem: string): string;
export function buildFeed(options: {
  dir: string;
  baseUrl: string;
  version: string;
  counter?: number;
  expiresDays: number;
  notes: string;
  rollout?: number;
  privateKeyPem: string;
  now?: number;
}): Promise<string>;
