/*
 * A child process for the kill -9 test of the whole app: the core as web mode builds it
 * (`createNodeAppCore`: settings, job state, the jobs lock, `health.sqlite` in the data folder),
 * connected to a test sandbox with a key from the environment, its health checks running on a fake
 * clock that this script moves forward in small steps, in real time, until it is killed. Prints
 * `RUNNING` once the core has started.
 */
import { DEMO_KEY } from '@proxy-manager/sandbox/testing';
import { createNodeAppCore } from '../../../../src-main/core/node-app-core';
import { FakeClock } from '../../../../src-main/core/runtime/fake-clock';

const [dataDir = '', baseUrl = ''] = process.argv.slice(2);
/** Fake time per step, and the real pause between steps: checks' 10 s deadlines are 50+ real ms away. */
const STEP_MS = 200;
const PAUSE_MS = 4;

async function main(): Promise<void> {
  const clock = new FakeClock(Date.parse('2026-03-10T12:00:00.000Z'));
  const core = await createNodeAppCore({
    mode: 'web',
    dataDir,
    clock,
    skipKeychainProbe: true,
    log: () => undefined,
  });
  await core.start({ environment: { apiKey: DEMO_KEY, baseUrl } });
  process.stdout.write('RUNNING\n');
  for (;;) {
    await clock.advance(STEP_MS);
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}

void main();
