import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../src-shared/contract';
import { FeedServer, makeKey, signFeed } from '../core/updates/support/feed-fixtures';
import { runCapture, tempDataDir } from './support/cli-harness';

// `proxy-manager update check|download` through a one-shot core, against a local feed server. The
// app trusts only its built-in keys, whose private halves are not here: a feed signed by a key made
// in this test must be refused, by name, with exit code 1.

let server: FeedServer;

beforeAll(async () => {
  server = new FeedServer();
  await server.start();
  vi.stubEnv('PROXY_MANAGER_UPDATE_FEED_URL', server.url('/feed.json'));
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server.stop();
});

const feedOf = () =>
  signFeed(
    {
      product: 'proxy-manager',
      format: 1,
      version: '99.0.0',
      counter: 1,
      expires: '2099-01-01T00:00:00Z',
      releasedAt: '2026-05-30T12:00:00Z',
      notes: 'From a key the app does not know.',
      artefacts: [],
    },
    [makeKey()],
  );

describe('proxy-manager update', () => {
  it('check refuses a feed signed by an unknown key: exit 1, the reason in JSON and one line on stderr', async () => {
    server.set('/feed.json', { kind: 'body', body: feedOf() });
    const run = await runCapture(['update', 'check', '--json'], { PROXY_MANAGER_DATA_DIR: tempDataDir() });
    expect(run.code).toBe(1);
    const status = run.json<UpdateStatus>();
    expect(status.problem?.reason).toBe('unknown_key');
    expect(status.available).toBeNull();
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);

    const text = await runCapture(['update', 'check'], { PROXY_MANAGER_DATA_DIR: tempDataDir() });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^Not believed: The update feed is signed by a key this app does not trust/);
  });

  it('download offers nothing to download when the feed is not believed', async () => {
    server.set('/feed.json', { kind: 'body', body: feedOf() });
    const run = await runCapture(['update', 'download'], { PROXY_MANAGER_DATA_DIR: tempDataDir() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('does not trust');
  });
});
