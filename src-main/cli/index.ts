/**
 * The `proxy-manager` command line (a surface, like the window and web mode). `runCli` is what the
 * launcher (`bin/proxy-manager.mjs`) and the packaged app's CLI entry call.
 */
export { type CliIo, runCli } from './run-cli';
export type { CliStream } from './output';
