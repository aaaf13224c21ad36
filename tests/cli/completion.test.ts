import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { completionScript, completionTree } from '../../src-main/cli/completion';

const run = promisify(execFile);
const hasBash = await run('bash', ['-c', 'true']).then(
  () => true,
  () => false,
);

/** What bash offers after `line` (the cursor at its end), with the generated script loaded. */
async function complete(line: string): Promise<string[]> {
  const words = line.split(' ');
  const script = `${completionScript('bash')}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_proxy_manager
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await run('bash', ['-c', script]);
  return stdout.split('\n').filter(Boolean);
}

describe('completion', () => {
  it('is built from the command tree, flags from the contract’s schemas', () => {
    const tree = completionTree();
    expect(tree.children.get('')).toEqual(
      expect.arrayContaining([
        'ports',
        'subs',
        'topups',
        'catalog',
        'alerts',
        'test',
        'profiles',
        'completion',
      ]),
    );
    expect(tree.children.get('ports schedule')).toEqual(['list', 'set', 'rm', 'pause', 'resume']);
    expect(tree.options.get('subs string')).toEqual(
      expect.arrayContaining(['--country', '--state', '--city', '--asn', '--zip', '--session', '--count']),
    );
    expect(tree.valued).toContain('--profile');
  });

  it.runIf(hasBash)('completes commands, sub-commands and flags in bash', async () => {
    expect(await complete('proxy-manager po')).toEqual(['ports']);
    expect(await complete('proxy-manager ports ro')).toEqual(['rotate']);
    expect(await complete('proxy-manager --profile Work ports schedule s')).toEqual(['set']);
    expect(await complete('proxy-manager ports rotate port_1 --unt')).toEqual([
      '--until-new',
      '--until-unique',
    ]);
    expect(await complete('proxy-manager completion f')).toEqual(['fish']);
  });

  it('writes zsh and fish scripts for the same tree', () => {
    expect(completionScript('zsh')).toMatch(/^#compdef proxy-manager\n/);
    expect(completionScript('zsh')).toContain('"ports rotate"|"ports rotate "*) candidates=(--until-new');
    const fish = completionScript('fish');
    expect(fish).toContain(`complete -c proxy-manager -n '__proxy_manager_at "ports"' -a 'list show rotate`);
    expect(fish).toContain(
      `complete -c proxy-manager -n '__proxy_manager_in "ports rotate"' -l until-new -r`,
    );
  });
});
