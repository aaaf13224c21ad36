import { expect } from 'vitest';
import type { TestSandbox } from '../../src/testing';

export { fullHistory, listPorts, manualPort, portByLabel, SEEDED_PORT_LABELS } from '../../src/testing';

export async function getPort(sandbox: TestSandbox, id: string): Promise<any> {
  const answer = await sandbox.request('GET', `/v1/mobile/${id}`);
  expect(answer.status).toBe(200);
  return answer.json;
}

export const ms = (iso: string): number => Date.parse(iso);

export async function setInterval(sandbox: TestSandbox, id: string, minutes: number): Promise<void> {
  const answer = await sandbox.request('PATCH', `/v1/mobile/${id}`, {
    body: { rotation: { mode: 'interval', intervalMinutes: minutes } },
  });
  expect(answer.status).toBe(200);
}

/** Advances in steps (each its own control request, each settling the sandbox). */
export async function advanceInSteps(sandbox: TestSandbox, totalSeconds: number, stepSeconds: number) {
  for (let done = 0; done < totalSeconds; done += stepSeconds) {
    await sandbox.advance(Math.min(stepSeconds, totalSeconds - done));
  }
}
