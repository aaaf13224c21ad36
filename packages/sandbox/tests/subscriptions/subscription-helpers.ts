import { expect } from 'vitest';
import { listSubUsers, type TestSandbox } from '../../src/testing';

export {
  listSubscriptions,
  listSubUsers,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
} from '../../src/testing';

export const SUBSCRIPTIONS = '/v1/residential/subscriptions';
export const HOUR = 3600;
export const DAY = 86_400;
export const GB = 1_000_000_000;

export async function getSubscription(sandbox: TestSandbox, id: string): Promise<any> {
  const answer = await sandbox.request('GET', `${SUBSCRIPTIONS}/${id}`);
  expect(answer.status).toBe(200);
  return answer.json;
}

export async function subUserByLabel(
  sandbox: TestSandbox,
  subscriptionId: string,
  label: string,
): Promise<any> {
  const found = (await listSubUsers(sandbox, subscriptionId)).find((s) => s.label === label);
  if (!found) throw new Error(`no sub-user labelled ${label}`);
  return found;
}

export async function createSubUser(
  sandbox: TestSandbox,
  subscriptionId: string,
  body: unknown,
): Promise<any> {
  const answer = await sandbox.request('POST', `${SUBSCRIPTIONS}/${subscriptionId}/sub-users`, { body });
  expect(answer.status).toBe(201);
  return answer.json;
}

export async function usage(sandbox: TestSandbox, subscriptionId: string, query = ''): Promise<any> {
  const answer = await sandbox.request('GET', `${SUBSCRIPTIONS}/${subscriptionId}/usage${query}`);
  expect(answer.status).toBe(200);
  return answer.json;
}

/** The whole life of a subscription created at most 366 days ago, as one report. */
export async function lifetimeUsage(
  sandbox: TestSandbox,
  subscription: any,
  subUserId?: string,
): Promise<any> {
  const from = String(subscription.createdAt).slice(0, 10);
  const suffix = subUserId ? `&subUserId=${subUserId}` : '';
  return usage(sandbox, subscription.id, `?from=${from}&to=${await today(sandbox)}${suffix}`);
}

export async function today(sandbox: TestSandbox): Promise<string> {
  return (await sandbox.now()).slice(0, 10);
}

export function expectValidationError(
  answer: { status: number; json: any },
  fields: Record<string, string>,
): void {
  expect(answer.status).toBe(422);
  expect(answer.json.error.code).toBe('validation_error');
  const actual = Object.fromEntries(answer.json.error.fields.map((f: any) => [f.field, f.code]));
  expect(actual).toEqual(fields);
}

/**
 * Mobile ports renew from the same account balance; tests of subscription renewals turn theirs off
 * (through the API) so that the balance moves only for subscriptions.
 */
export async function stopPortRenewals(sandbox: TestSandbox): Promise<void> {
  const ports = await sandbox.request('GET', '/v1/mobile');
  expect(ports.status).toBe(200);
  for (const port of ports.json.data) {
    const answer = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { body: { autoRenew: false } });
    expect(answer.status).toBe(200);
  }
}
