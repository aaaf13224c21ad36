#!/usr/bin/env node
// `proxy-sandbox`: the sandbox's CLI (src/cli.ts), which is TypeScript source. tsx's loader is
// registered in this process, as `node --import tsx` does, rather than through the tsx binary: that
// would put a second process in between that relays signals, and under load it can kill the CLI
// before the CLI's own SIGTERM handler has saved and closed.
import 'tsx';

await import('../src/cli.ts');
