#!/usr/bin/env node
// `proxy-manager` from a checkout (`npx proxy-manager …` after `npm install`): the TypeScript sources
// run through tsx's loader, as `npm run web` does. The packaged app calls the same `runCli`.
import { readFileSync } from 'node:fs';
import module from 'node:module';

// V8's code cache for the modules loaded below (zod, undici, the app's own): a second start
// skips most of the compiling.
module.enableCompileCache?.();

// The same hooks as `node --import tsx` (ESM and CommonJS: the sources are CommonJS TypeScript).
await import('tsx');
const { runCli } = await import('../src-main/cli/index.ts');

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, version });
process.exitCode = code;
