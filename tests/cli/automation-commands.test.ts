import { describe, expect, it } from 'vitest';
import { runCapture, tempDataDir } from './support/cli-harness';

// `token` and `audit` run in this process with a one-shot core (no app owns the temp data folder).

describe('proxy-manager token and audit', () => {
  it('creates a token shown once, lists it without its value, revokes it', async () => {
    const env = { PROXY_MANAGER_DATA_DIR: tempDataDir() };
    const created = await runCapture(
      ['token', 'create', '--name', 'cron', '--scopes', 'rotate,read', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    const { token, secret } = created.json<{ token: { id: string; scopes: string[] }; secret: string }>();
    expect(token.scopes).toEqual(['read', 'rotate']);
    const listed = await runCapture(['token', 'list'], env);
    expect(listed.stdout).toMatch(/cron\s+read,rotate/);
    expect(listed.stdout).not.toContain(secret);
    expect((await runCapture(['token', 'revoke', token.id], env)).stdout).toBe('Revoked.\n');
    expect((await runCapture(['token', 'list'], env)).stdout).toBe('(none)\n');
    expect((await runCapture(['audit', '--json'], env)).json()).toEqual([]);
  });

  it('answers a bad name or scope with one line and exit code 2, before anything runs', async () => {
    const env = { PROXY_MANAGER_DATA_DIR: tempDataDir() };
    const cases: [string[], string][] = [
      [
        ['token', 'create', '--name', 'x', '--scopes', 'admin'],
        'error: --scopes: A token cannot hold admin\n',
      ],
      [['token', 'create', '--name', 'x'], 'error: --scopes: name the token’s scopes, e.g. read,rotate\n'],
      [['token', 'create', '--name', ' ', '--scopes', 'read'], 'error: --name: Give the token a name\n'],
      [['token', 'revoke', 'nope'], 'error: <token-id>: Not a token id\n'],
      [['serve', '--port', '80'], 'error: --port: a port from 1024 to 65535 (0: a free one), e.g. 24080\n'],
    ];
    for (const [argv, stderr] of cases) {
      const run = await runCapture(argv, env);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toBe(stderr);
    }
  });

  it('refuses to manage tokens without the admin scope', async () => {
    const run = await runCapture(['token', 'list', '--scopes', 'read'], {
      PROXY_MANAGER_DATA_DIR: tempDataDir(),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/needs the "admin" scope/);
  });
});
