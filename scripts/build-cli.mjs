#!/usr/bin/env node
// Builds the command line once (`npm install` runs it as `prepare`; `npm test` and the vitest setup
// run it too): one minified ES module bundle in out/cli/, split at the CLI's lazy `import()`s so that
// `--help` loads the command tree and commander only, a command the contract, and a core only when one
// runs here. Nothing is compiled when `proxy-manager` starts.
import { build } from 'esbuild';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}out/cli`;
// Built beside it, then swapped in: the old bundle stays whole until the new one is.
const building = `${outdir}.building-${process.pid}`;

rmSync(building, { recursive: true, force: true });
/**
 * zod re-exports every locale (`z.locales`, some 360 kB); the app speaks English only, which zod's
 * default configuration imports itself. The other locales are left out of the bundle: loading them
 * was a quarter of a command's start.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(builder) {
    builder.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), args.path), namespace: 'zod-locales' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

const { metafile } = await build({
  plugins: [englishOnlyZod],
  absWorkingDir: root,
  entryPoints: { 'proxy-manager': 'src-main/cli/index.ts' },
  outdir: building,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  outExtension: { '.js': '.mjs' },
  // The keychain is a native module; `electron` is only imported by the shell, never by the CLI.
  external: ['electron', '@napi-rs/keyring'],
  // Bundled CommonJS packages call require(): give the ES modules one.
  banner: {
    js: "import{createRequire as __pmRequire}from'node:module';const require=__pmRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});
// What each chunk holds and imports: tests check that help loads no more than it needs.
writeFileSync(
  `${building}/meta.json`,
  JSON.stringify(metafile).replaceAll(building.slice(root.length), 'out/cli'),
);
rmSync(outdir, { recursive: true, force: true });
renameSync(building, outdir);
