import { afterEach, describe, expect, it } from 'vitest';
import type { AlertChannelView, DeliveryLogView } from '../../src-shared/contract';
import { HttpReceiver } from '../core/alert-delivery/support/receivers';
import { runCapture, tempDataDir } from './support/cli-harness';

// A one-shot core on a temp data folder: the queue is that folder's alert-delivery.sqlite.

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe('proxy-manager alerts channels and alerts deliveries', () => {
  it('adds, lists, tests and removes a channel, and reads the delivery log', async () => {
    const ntfy = new HttpReceiver(() => Date.now());
    await ntfy.start();
    stops.push(() => ntfy.stop());
    const env = { PROXY_MANAGER_DATA_DIR: tempDataDir() };
    const added = await runCapture(
      [
        'alerts',
        'channels',
        'add',
        '--kind',
        'ntfy',
        '--name',
        'Phone',
        '--server-url',
        ntfy.url,
        '--topic',
        'pm',
        '--events',
        'port.down,port.up',
        '--json',
      ],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const { channel } = added.json<{ channel: AlertChannelView; signingSecret: null }>();
    expect(channel.rule.events).toEqual(['port.down', 'port.up']);

    const listed = await runCapture(['alerts', 'channels', 'list'], env);
    expect(listed.stdout).toMatch(new RegExp(`${channel.id}\\s+Phone\\s+ntfy\\s+${ntfy.url}/pm`));

    const set = await runCapture(
      ['alerts', 'channels', 'set', channel.id, '--events', 'port.down', '--quiet-minutes', '15', '--json'],
      env,
    );
    expect(set.json<AlertChannelView>().rule).toEqual({
      events: ['port.down'],
      quietMinutes: { 'port.down': 15 },
      digestMinutes: null,
    });

    const tested = await runCapture(['alerts', 'channels', 'test', channel.id], env);
    expect(tested.stdout).toBe('Sent.\n');
    expect(ntfy.requests).toHaveLength(1);
    expect(ntfy.requests[0]?.body).toContain('delivery works');

    const log = (await runCapture(['alerts', 'deliveries', '--json'], env)).json<DeliveryLogView>();
    expect(log.entries).toMatchObject([
      { eventType: 'channel.test', channelName: 'Phone', status: 'sent', attempts: 1 },
    ]);
    expect(log.sendsHere).toBe(false);
    const text = await runCapture(['alerts', 'deliveries'], env);
    expect(text.stdout).toMatch(/channel\.test\s+test_\w+\s+Phone\s+sent\s+1/);

    expect((await runCapture(['alerts', 'channels', 'rm', channel.id], env)).stdout).toBe('Removed.\n');
    expect((await runCapture(['alerts', 'channels', 'list'], env)).stdout).toBe('(none)\n');
  });

  it('answers bad input with one line and exit code 2', async () => {
    const env = { PROXY_MANAGER_DATA_DIR: tempDataDir(), TG: undefined };
    const cases: [string[], RegExp][] = [
      [
        ['alerts', 'channels', 'add', '--kind', 'telegram', '--name', 'x', '--chat-id', '1'],
        /^error: --token-env: Paste the bot token/,
      ],
      [
        ['alerts', 'channels', 'add', '--kind', 'telegram', '--name', 'x', '--token-env', 'TG'],
        /^error: --token-env: the environment variable TG is not set/,
      ],
      [
        ['alerts', 'channels', 'add', '--kind', 'pager', '--name', 'x'],
        /^error: option '--kind <value>' argument 'pager' is invalid/,
      ],
      [['alerts', 'channels', 'test', 'nope'], /^error: <channel-id>: Not a channel id/],
    ];
    for (const [argv, stderr] of cases) {
      const run = await runCapture(argv, env);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toMatch(stderr);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
