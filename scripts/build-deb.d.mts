// Types for scripts/build-deb.mjs (`npm run dist:deb`).
import type { spawnSync } from 'node:child_process';

export function parseFpmArgs(args: string[]): {
  flags: Record<string, string>;
  mappings: { source: string; destination: string }[];
};
export function controlFile(fields: {
  name: string;
  version: string;
  architecture: string;
  maintainer: string;
  installedSizeKiB: number;
  depends: string[];
  recommends: string[];
  section?: string;
  priority?: string;
  homepage?: string;
  description: string;
}): string;
export function assembleDeb(options: {
  fpmArgs: string[];
  depends: string[];
  recommends: string[];
  section?: string;
  run?: typeof spawnSync;
}): string;
/** electron-builder.yml, as far as the scripts and tests read it. */
export interface ExtraResource {
  from: string;
  to: string;
  filter?: string[];
}
export interface BuilderConfig {
  appId: string;
  productName: string;
  afterPack?: string;
  fileAssociations?: unknown[];
  protocols?: unknown[];
  linux: { executableName: string; icon: string; extraResources: ExtraResource[] };
  mac: { icon: string; extraResources: ExtraResource[] };
  win: { icon: string; extraResources: ExtraResource[] };
  deb: { depends: string[]; recommends?: string[]; packageCategory?: string };
}
export function readBuilderConfig(projectDir?: string): BuilderConfig;
export function buildDeb(options: {
  projectDir?: string;
  unpackedDir: string;
  outDir: string;
  homepage?: string;
  arch?: string;
}): Promise<string>;
