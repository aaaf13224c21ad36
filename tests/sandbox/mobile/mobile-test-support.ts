import { expect } from 'vitest';
import type { TestSandbox } from '../../support/sandbox-harness';

export const SEED_LABELS = {
  interval: 'Sneaker drops LA',
  relocated: 'Ad verification NYC',
  berlin: 'Berlin price monitor',
  expiringSoon: 'Social QA',
} as const;

export async function listPorts(sandbox: TestSandbox): Promise<any[]> {
  const answer = await sandbox.request('GET', '/v1/mobile');
  expect(answer.status).toBe(200);
  return answer.json.data as any[];
}

export async function portByLabel(sandbox: TestSandbox, label: string): Promise<any> {
  const port = (await listPorts(sandbox)).find((p) => p.label === label);
  if (!port) throw new Error(`no seeded port labelled ${label}`);
  return port;
}

export async function getPort(sandbox: TestSandbox, id: string): Promise<any> {
  const answer = await sandbox.request('GET', `/v1/mobile/${id}`);
  expect(answer.status).toBe(200);
  return answer.json;
}

/** The whole IP history, newest first, read through every page. */
export async function fullHistory(sandbox: TestSandbox, id: string): Promise<any[]> {
  const entries: any[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await sandbox.request('GET', `/v1/mobile/${id}/ip-history?page=${page}&perPage=100`);
    expect(answer.status).toBe(200);
    entries.push(...answer.json.data);
    if (page >= answer.json.pagination.totalPages) return entries;
  }
}

/** The seeded port in manual mode that the tests rotate (no timer interferes). */
export const manualPort = (sandbox: TestSandbox) => portByLabel(sandbox, SEED_LABELS.berlin);

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
