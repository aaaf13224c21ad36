#!/usr/bin/env node
// `proxy-manager` from a checkout (`npx proxy-manager …` after `npm install`): the prebuilt bundle in
// out/cli/ (scripts/build-cli.mjs, run by `npm install` and `npm test`), so nothing is compiled at
// start. The packaged app calls the same `runCli`.
import { readFileSync } from 'node:fs';
import module from 'node:module';

// V8's code cache for the bundle: a second start skips most of the compiling.
module.enableCompileCache?.();

let runCli;
try {
  ({ runCli } = await import('../out/cli/proxy-manager.mjs'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write('error: the command line is not built: run `npm run build:cli` (or `npm install`)\n');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  version,
});
