import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src-main/cli/command-tree';
import { ipcCalls } from '../../src-shared/contract';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';

// docs/automation.md: its examples run as written (`proxy-manager` on the PATH, a test sandbox given by
// the environment), and its table of commands is the command tree's.

const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'automation.md'), 'utf8');
const run = promisify(execFile);

/** The fenced blocks of one language in one `##` section, in order. */
function fencedBlocks(markdown: string, heading: string, language: string): string[] {
  // The page's title is its first line: its section is the introduction.
  const start = markdown.startsWith(`${heading}\n`) ? -1 : markdown.indexOf(`\n${heading}\n`);
  if (start === -1 && !markdown.startsWith(`${heading}\n`)) throw new Error(`No "${heading}" section`);
  const section = markdown.slice(start + heading.length + 2).split(/\n## /)[0] ?? '';
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map(
    (m) => m[1] ?? '',
  );
}

/**
 * Every fenced block of the page, with its language. `text` blocks are output shown to the reader
 * (a ready line), not commands: the only ones no test runs.
 */
function everyFencedBlock(markdown: string): { language: string; text: string }[] {
  return [...markdown.matchAll(/^ *```(\w*)\n([\s\S]*?)^ *```$/gm)].map((match) => ({
    language: match[1] ?? '',
    text: match[2] ?? '',
  }));
}

/** The blocks the tests below ran (language and text), to prove at the end that they ran them all. */
const ran = new Set<string>();

/** The blocks of one language in one section, noted as run by the test that asks for them. */
function take(heading: string, language = 'sh'): string[] {
  const blocks = fencedBlocks(DOC, heading, language);
  if (blocks.length === 0) throw new Error(`No ${language} block under "${heading}"`);
  for (const block of blocks) ran.add(`${language}\n${block}`);
  return blocks;
}

/** A directory with a `proxy-manager` that runs this checkout's launcher, for the PATH. */
function binShim(): string {
  const bin = mkdtempSync(join(tmpdir(), 'pm-bin-'));
  const shim = join(bin, 'proxy-manager');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'proxy-manager.mjs')}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return bin;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

describe('docs/automation.md', () => {
  it('lists every command with its channels and scope', () => {
    const rows = [...DOC.matchAll(/^\| `([a-z -]+)` \| ([^|]+) \| ([a-z-]+) \|/gm)].map((match) => ({
      command: match[1],
      channels: [...(match[2] ?? '').matchAll(/`([a-zA-Z]+:[a-zA-Z]+)`/g)].map((m) => m[1]),
      scope: match[3],
    }));
    expect(rows).toEqual(
      COMMANDS.map((spec) => ({
        command: spec.path.join(' '),
        channels: spec.channel ? [spec.channel, ...(spec.also ?? [])] : [],
        scope: spec.channel ? ipcCalls[spec.channel].scope : '-',
      })),
    );
  });

  it('runs its examples as written', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'pm-bin-'));
    const shim = join(bin, 'proxy-manager');
    writeFileSync(
      shim,
      `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'proxy-manager.mjs')}" "$@"\n`,
    );
    chmodSync(shim, 0o755);
    const script = `set -eu\n${take('## Examples').join('\n')}`;
    const { stdout, stderr } = await run('bash', ['-c', script], {
      cwd: ROOT,
      timeout: 170_000,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        PROXY_MANAGER_DATA_DIR: mkdtempSync(join(tmpdir(), 'pm-docs-')),
        PROXY_MANAGER_API_KEY: DEMO_KEY,
        PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      },
    });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // The jq recipes: a CSV line of id and IP per port.
    expect(lines.filter((line) => /^"port_\w+","\d+\.\d+\.\d+\.\d+"$/.test(line)).length).toBeGreaterThan(1);
    expect(lines).toContain('exit code 1');
    expect(lines.filter((line) => /^http:\/\/.*-session-job\d+/.test(line))).toHaveLength(10);
    const topUp = (await sandbox.request('GET', '/v1/topups?perPage=1')).json.data[0];
    expect(stdout).toContain(topUp.address);
    expect(stdout).toContain(`${topUp.amountCrypto} USDT`);
    expect(lines).toContain('exit code 2');
    expect(stderr).toMatch(/^error: One rotation per 30 seconds.*\(cooldown: 30 s\)$/m);
    expect(stderr).toMatch(/^error: proxy-manager topups list needs the "read" scope/m);
    expect(stderr).toMatch(/^error: --amount: An amount in USD with two decimals/m);
  }, 180_000);

  it('runs its REST examples as written (on a free port)', async () => {
    // The examples above rotated the same port: its cooldown has passed by now on the sandbox's clock.
    await sandbox.advance(60);
    const bin = binShim();
    const port = await freePort();
    const script = `set -eu\n${take('## REST examples').join('\n')}`.replaceAll('24080', String(port));
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-docs-'));
    const { stdout } = await run('bash', ['-c', script], {
      cwd: dataDir,
      timeout: 100_000,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        PROXY_MANAGER_DATA_DIR: dataDir,
        PROXY_MANAGER_API_KEY: DEMO_KEY,
        PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      },
    });
    const lines = stdout.trim().split('\n');
    const receipt = JSON.parse(lines[0] ?? '{}') as { ip?: string; previousIp?: string };
    expect(receipt.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // The IP history's newest entry is the rotation's IP; its Link leads to page 2.
    expect(lines[1]).toBe(receipt.ip);
    expect(lines[2]).toMatch(
      new RegExp(
        `^<http://127\\.0\\.0\\.1:${port}/v1/ports/[^/>]+/ip-history\\?page=2&perPage=1>; rel="next"$`,
      ),
    );
    expect(lines.slice(3)).toEqual(['429', '401', '403']);
  }, 120_000);

  it('runs its Health example as written (notify-send stands in as a recording script)', async () => {
    const bin = binShim();
    const notified = join(mkdtempSync(join(tmpdir(), 'pm-notify-')), 'calls');
    writeFileSync(join(bin, 'notify-send'), `#!/bin/sh\necho "$@" >> "${notified}"\n`);
    chmodSync(join(bin, 'notify-send'), 0o755);
    const [block = ''] = take('## Health');
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      PROXY_MANAGER_DATA_DIR: mkdtempSync(join(tmpdir(), 'pm-docs-')),
      PROXY_MANAGER_API_KEY: DEMO_KEY,
      PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    };
    await run('bash', ['-c', `set -eu\n${block}`], { cwd: ROOT, timeout: 60_000, env });
    // The notice went out exactly when the check found something (exit code 4).
    const check = await run('bash', ['-c', 'proxy-manager health --check > /dev/null || echo $?'], { env });
    const calls = existsSync(notified) ? readFileSync(notified, 'utf8') : '';
    expect(calls).toBe(check.stdout.trim() === '4' ? 'Proxy Manager Something needs attention\n' : '');
    expect(['', '4']).toContain(check.stdout.trim());
  }, 90_000);

  it('gives an MCP configuration an agent can start as written', async () => {
    const [claude = '', vscode = ''] = take('## MCP server', 'json');
    const claudeServer = (
      JSON.parse(claude) as { mcpServers: Record<string, { command: string; args: string[] }> }
    ).mcpServers['proxy-manager'];
    const vscodeServer = (
      JSON.parse(vscode) as { servers: Record<string, { type: string; command: string; args: string[] }> }
    ).servers['proxy-manager'];
    expect(vscodeServer).toMatchObject({ type: 'stdio', command: 'proxy-manager', args: ['mcp'] });
    expect(claudeServer?.command).toBe('proxy-manager');
    const bin = binShim();
    const transport = new StdioClientTransport({
      command: join(bin, claudeServer?.command ?? ''),
      args: claudeServer?.args ?? [],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        PROXY_MANAGER_DATA_DIR: mkdtempSync(join(tmpdir(), 'pm-docs-')),
        PROXY_MANAGER_API_KEY: DEMO_KEY,
        PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'docs-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('ports_rotate');
      expect(names).not.toContain('topups_quote');
      const result = (await client.callTool({ name: 'ports_list', arguments: { limit: 2 } })) as {
        content: { text: string }[];
      };
      expect((JSON.parse(result.content[0]?.text ?? '{}') as { items: unknown[] }).items).toHaveLength(2);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('runs its first example as written, from the checkout with npx', async () => {
    const [block = ''] = take('# Automation: the command line, an MCP server and a local REST API');
    const { stdout } = await run('bash', ['-c', `set -eu\n${block}`], {
      cwd: ROOT,
      timeout: 60_000,
      env: {
        ...process.env,
        PROXY_MANAGER_DATA_DIR: mkdtempSync(join(tmpdir(), 'pm-docs-')),
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      },
    });
    expect(stdout).toMatch(/^Usage: proxy-manager /m);
    // The demo's ports, one row each.
    expect(stdout.match(/^port_\w+ /gm)?.length).toBeGreaterThan(1);
  }, 90_000);

  it('installs shell completion as written, into a temporary HOME', async () => {
    const home = mkdtempSync(join(tmpdir(), 'pm-home-'));
    const env = { ...process.env, HOME: home, PATH: `${binShim()}:${process.env.PATH ?? ''}` };
    const [block = ''] = take('## Shell completion');
    await run('bash', ['-c', `set -eu\n${block}`], { env, timeout: 30_000 });
    // zsh is not on the machines the tests run on: its line runs in bash, with `fpath` as zsh has it
    // (zsh arrays count from 1, so bash's element 1 stands for zsh's first folder).
    const [zsh = ''] = take('## Shell completion', 'zsh');
    const zshFolder = join(home, '.zfunc');
    mkdirSync(zshFolder);
    await run('bash', ['-c', `set -eu\nfpath=(unused "${zshFolder}")\n${zsh}`], { env, timeout: 30_000 });

    const bash = join(home, '.local/share/bash-completion/completions/proxy-manager');
    // The installed bash script loads, and completes the first word with the commands.
    const loaded = await run(
      'bash',
      [
        '-c',
        `source "${bash}"; complete -p proxy-manager; COMP_WORDS=(proxy-manager po); COMP_CWORD=1; _proxy_manager; echo "\${COMPREPLY[@]}"`,
      ],
      { env },
    );
    expect(loaded.stdout).toMatch(/^complete .* proxy-manager$/m);
    expect(loaded.stdout).toMatch(/\bports\b/);
    expect(readFileSync(join(zshFolder, '_proxy-manager'), 'utf8')).toMatch(/^#compdef proxy-manager\n/);
    expect(readFileSync(join(home, '.config/fish/completions/proxy-manager.fish'), 'utf8')).toMatch(
      /^# fish completion for proxy-manager/,
    );
  }, 60_000);

  it('runs every fenced example of the page (a block no test runs fails here)', () => {
    const blocks = everyFencedBlock(DOC);
    expect(blocks.length).toBeGreaterThan(15);
    const notRun = blocks
      .filter((block) => block.language !== 'text' && !ran.has(`${block.language}\n${block.text}`))
      .map((block) => `${block.language || '(no language)'}: ${block.text.split('\n')[0]}`);
    expect(notRun).toEqual([]);
    // A command shown as an indented block would escape the check above: commands are fenced.
    const indented = DOC.split('\n').filter((line) => /^ {4}(npx |proxy-manager |curl |jq )/.test(line));
    expect(indented).toEqual([]);
  });
});
