import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '@proxy-manager/sandbox/testing';

// The README's "Try it" lines, run as a user would paste them, against a sandbox on a free port. The
// only change is the port: `PORT` in BASE and CONTROL becomes the one the sandbox took.

const run = promisify(execFile);
const README = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

/** The first indented code block under `heading` (up to the next heading), without its indentation. */
export function codeBlockUnder(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`No "${heading}" section in the README`);
  const section = markdown.slice(start + heading.length + 2).split(/\n#{2,3} /)[0] ?? '';
  const lines = section.split('\n');
  const first = lines.findIndex((line) => line.startsWith('    '));
  if (first < 0) throw new Error(`No code block under "${heading}"`);
  const block: string[] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('    ') && line.trim() !== '') break;
    block.push(line.slice(4));
  }
  return block;
}

let sandbox: TestSandbox;

beforeAll(async () => {
  // The README's sandbox runs on the real clock; the examples move it forward themselves.
  sandbox = await TestSandbox.start({ clock: 'real' });
});

afterAll(async () => {
  await sandbox.close();
});

describe('README "Try it"', () => {
  it('starts the sandbox with --port 0 and quotes every URL', () => {
    const block = codeBlockUnder(README, '### Try it');
    expect(block[0]).toBe('npm run sandbox -- --port 0');
    expect(block.join('\n')).not.toMatch(/4010/);
    for (const line of block.filter((text) => text.includes('curl'))) {
      // Every URL is a quoted variable expansion: `?` and `&` cannot be taken by the shell.
      expect(line).not.toMatch(/\s(https?:\/\/\S+)/);
    }
  });

  it('runs as pasted against a sandbox on a free port and pays the top-up it created', async () => {
    const port = new URL(sandbox.baseUrl).port;
    const block = codeBlockUnder(README, '### Try it');
    const script = block
      .filter((line) => !line.startsWith('npm run sandbox'))
      .map((line) => (/^(BASE|CONTROL)=/.test(line) ? line.replace('PORT', port) : line))
      .join('\n');
    expect(script).toContain(`BASE='${sandbox.baseUrl}'`);
    expect(script).toContain(`CONTROL='${sandbox.controlUrl}'`);

    for (const shell of ['bash', 'zsh']) {
      const available = await run(shell, ['-c', 'true']).then(
        () => true,
        () => false,
      );
      if (!available) continue;
      // Each answer on its own line, so that every one can be read back (curl prints none after the body).
      const prelude = 'set -eu\ncurl() { command curl --fail-with-body "$@"; echo; }\n';
      const { stdout } = await run(shell, ['-c', prelude + script], { timeout: 60_000 });
      const answers = stdout
        .split('\n')
        .filter((line) => line.startsWith('{') || line.startsWith('['))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const [countries, ports, transfer, clock, topUp] = answers;
      expect(Array.isArray((countries as { data?: unknown[] }).data ?? countries)).toBe(true);
      expect(ports).toBeDefined();
      expect(transfer).toHaveProperty('txid');
      expect(clock).toHaveProperty('now');
      expect(topUp).toMatchObject({ coin: 'USDT', network: 'tron' });
      expect(['verifying', 'credited']).toContain(topUp!.status);
    }
  });
});
