import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '@proxy-manager/sandbox/testing';

// The documentation's promises, checked: the sandbox reference's "Try it" lines run as a user would
// paste them, against a sandbox on a free port (the only change is the port: `PORT` in BASE and
// CONTROL becomes the one the sandbox took); the README stays short; every relative link in the docs
// leads to a file and heading that exist.

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const SANDBOX_README_PATH = join(ROOT, 'packages', 'sandbox', 'README.md');
const TRY_IT = '## Try it';
/** The README is the front page; the manual, the references and the journals live in docs/. */
const README_MAX_BYTES = 12_288;

/** The first indented code block under `heading` (up to the next heading), without its indentation. */
export function codeBlockUnder(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`No "${heading}" section in the markdown`);
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

/** The markdown files whose links are checked: the root's, docs/ and the sandbox package's README. */
function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const inDocs = readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docs, name));
  const atRoot = ['README.md', 'CONTRIBUTING.md', 'DEVELOPERS.md', 'SECURITY.md'].map((name) =>
    join(ROOT, name),
  );
  return [...atRoot, ...inDocs, SANDBOX_README_PATH].filter((file) => existsSync(file));
}

/** Markdown without fenced code blocks and inline code, where `[x](y)` is not a link. */
function proseOf(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a file's headings (lower case, punctuation dropped, spaces to `-`, repeats numbered). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const text = (match[1] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every relative link and image of a markdown file: where it points, as written. */
export function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const match of proseOf(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    targets.push(target);
  }
  return targets;
}

function brokenLinks(file: string): string[] {
  const markdown = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const target of relativeLinks(markdown)) {
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    const fromRoot = relative(ROOT, resolved);
    if (!existsSync(resolved)) {
      // packages/ is being filled by another branch: a link there may lead to a file not merged yet.
      if (fromRoot.startsWith('packages/')) continue;
      broken.push(`${target} (no file ${fromRoot})`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
      if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${target} (no heading #${anchor} in ${fromRoot})`);
      }
    }
  }
  return broken;
}

describe('README', () => {
  it(`is at most ${README_MAX_BYTES} bytes`, () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('names the commands a newcomer needs and links every doc', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const command of ['npm install', 'npm start', 'npm run web -- --demo', 'npm test']) {
      expect(readme).toContain(command);
    }
    for (const doc of [
      'docs/user-guide.md',
      'docs/architecture.md',
      'docs/benchmarks.md',
      'docs/security.md',
      'CONTRIBUTING.md',
      'packages/sandbox/README.md',
    ]) {
      expect(relativeLinks(readme)).toContain(doc);
    }
  });
});

describe('links in the docs', () => {
  it('finds the docs and their links', () => {
    const files = markdownFiles().map((file) => relative(ROOT, file));
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/user-guide.md']));
    expect(relativeLinks('[a](docs/x.md#y) ![b](img.png) [c](https://example.com) `[d](e.md)`')).toEqual([
      'docs/x.md#y',
      'img.png',
    ]);
    expect(
      headingAnchors('## Control API (loopback only), under `controlUrl`\n## Paths\n## Paths\n'),
    ).toEqual(new Set(['control-api-loopback-only-under-controlurl', 'paths', 'paths-1']));
  });

  it.each(markdownFiles().map((file) => [relative(ROOT, file), file]))(
    '%s: every relative link leads to an existing file and heading',
    (_name, file) => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );
});

describe('packages/sandbox/README.md "Try it"', () => {
  const sandboxReadme = readFileSync(SANDBOX_README_PATH, 'utf8');
  let sandbox: TestSandbox;

  beforeAll(async () => {
    // The documented sandbox runs on the real clock; the examples move it forward themselves.
    sandbox = await TestSandbox.start({ clock: 'real' });
  });

  afterAll(async () => {
    await sandbox.close();
  });

  it('starts the sandbox with --port 0 and quotes every URL', () => {
    const block = codeBlockUnder(sandboxReadme, TRY_IT);
    expect(block[0]).toBe('npm run sandbox -- --port 0');
    expect(block.join('\n')).not.toMatch(/4010/);
    for (const line of block.filter((text) => text.includes('curl'))) {
      // Every URL is a quoted variable expansion: `?` and `&` cannot be taken by the shell.
      expect(line).not.toMatch(/\s(https?:\/\/\S+)/);
    }
  });

  it('runs as pasted against a sandbox on a free port and pays the top-up it created', async () => {
    const port = new URL(sandbox.baseUrl).port;
    const block = codeBlockUnder(sandboxReadme, TRY_IT);
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
