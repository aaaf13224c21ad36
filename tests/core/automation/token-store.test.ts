import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src-main/core/automation/audit-log';
import { TokenStore } from '../../../src-main/core/automation/token-store';

const dataDir = () => mkdtempSync(join(tmpdir(), 'pm-automation-'));

describe('TokenStore', () => {
  it('stores only a hash, shows the value once, and verifies it', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const dir = dataDir();
    const store = new TokenStore({ dataDir: dir, now: () => now });
    const created = await store.create('cron', ['rotate', 'read']);
    expect(created.secret).toMatch(/^pmt_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({ name: 'cron', scopes: ['read', 'rotate'], lastUsedAt: null });
    const file = join(dir, 'automation-tokens.json');
    expect(readFileSync(file, 'utf8')).not.toContain(created.secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await store.verify(`pmt_${'A'.repeat(43)}`)).toBeNull();
    expect(await store.verify(null)).toBeNull();
    now += 1000;
    expect((await store.verify(created.secret))?.lastUsedAt).toBe('2026-01-01T00:00:01.000Z');
    // At most one write a minute per token.
    now += 30_000;
    expect((await store.verify(created.secret))?.lastUsedAt).toBe('2026-01-01T00:00:01.000Z');
    now += 60_000;
    expect((await store.verify(created.secret))?.lastUsedAt).toBe('2026-01-01T00:01:31.000Z');
  });

  it('refuses a second token of the same name, and a revoked token opens nothing (also for another process)', async () => {
    const dir = dataDir();
    const store = new TokenStore({ dataDir: dir, now: () => 0 });
    const other = new TokenStore({ dataDir: dir, now: () => 0 });
    const created = await store.create('cron', ['read']);
    await expect(store.create('cron', ['read'])).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await other.verify(created.secret)).not.toBeNull();
    expect(await store.revoke(created.token.id)).toBe(true);
    expect(await other.verify(created.secret)).toBeNull();
    expect(await store.revoke(created.token.id)).toBe(false);
    expect(await store.list()).toEqual([]);
  });
});

describe('AuditLog', () => {
  it('keeps the newest entries, newest first, bounded', async () => {
    const dir = dataDir();
    const log = new AuditLog({ dataDir: dir, max: 5 });
    for (let index = 0; index < 23; index += 1) {
      await log.record({
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
        surface: 'rest',
        caller: { kind: 'token', tokenId: 'tok_0123456789ab', name: 'cron' },
        channel: 'ports:rotate',
        outcome: index % 2 === 0 ? 'ok' : 'rate_limited',
        durationMs: index,
      });
    }
    const entries = await log.list();
    expect(entries).toHaveLength(5);
    expect(entries.map((entry) => entry.durationMs)).toEqual([22, 21, 20, 19, 18]);
    expect(await log.list(2)).toHaveLength(2);
    const lines = readFileSync(join(dir, 'automation-audit.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThan(10);
  });

  it('refuses an entry with anything beyond its fields (no inputs sneak in)', async () => {
    const dir = dataDir();
    const log = new AuditLog({ dataDir: dir });
    await log.record({
      at: '2026-01-01T00:00:00.000Z',
      surface: 'mcp',
      caller: { kind: 'mcp' },
      channel: 'ports:get',
      outcome: 'ok',
      durationMs: 1,
      input: { password: 'hunter2' },
    } as never);
    expect(readFileSync(join(dir, 'automation-audit.jsonl'), 'utf8')).not.toContain('hunter2');
  });
});
