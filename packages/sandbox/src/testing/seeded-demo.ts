import type { TestSandbox } from './test-sandbox';

/** Labels of the seeded demo ports (`TestSandbox`'s seed 7): what each one is there to show. */
export const SEEDED_PORT_LABELS = {
  interval: 'Sneaker drops LA',
  relocated: 'Ad verification NYC',
  berlin: 'Berlin price monitor',
  expiringSoon: 'Social QA',
} as const;

/** Labels of the seeded demo subscriptions (seed 7): what each one is there to show. */
export const SEEDED_SUBSCRIPTION_LABELS = {
  /** residential, 3 sub-users (one at its cap, one uncapped, one disabled), auto-renews in 20 days. */
  withSubUsers: 'Price monitoring',
  /** mobile-gb, about 93% used, auto-renews in 9 days. */
  nearlyDepleted: 'Social accounts',
  /** residential, expires in 2 days without auto-renewal, no sub-users. */
  expiringSoon: 'SEO rank tracker',
  /** mobile-gb, expiresAt null. */
  neverExpires: 'Ad verification',
} as const;

const SUBSCRIPTIONS = '/v1/residential/subscriptions';

/** The body of a `GET` that must answer 200; anything else throws with the sandbox's answer. */
async function read(sandbox: TestSandbox, path: string): Promise<any> {
  const answer = await sandbox.request('GET', path);
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

export async function listPorts(sandbox: TestSandbox): Promise<any[]> {
  return (await read(sandbox, '/v1/mobile')).data;
}

export async function portByLabel(sandbox: TestSandbox, label: string): Promise<any> {
  const port = (await listPorts(sandbox)).find((p) => p.label === label);
  if (!port) throw new Error(`no seeded port labelled ${label}`);
  return port;
}

/** The seeded port in manual mode that tests rotate (no timer interferes). */
export const manualPort = (sandbox: TestSandbox): Promise<any> =>
  portByLabel(sandbox, SEEDED_PORT_LABELS.berlin);

/** A port's whole IP history, newest first, read through every page. */
export async function fullHistory(sandbox: TestSandbox, portId: string): Promise<any[]> {
  const entries: any[] = [];
  for (let page = 1; ; page += 1) {
    const body = await read(sandbox, `/v1/mobile/${portId}/ip-history?page=${page}&perPage=100`);
    entries.push(...body.data);
    if (page >= body.pagination.totalPages) return entries;
  }
}

export async function listSubscriptions(sandbox: TestSandbox, query = ''): Promise<any[]> {
  return (await read(sandbox, `${SUBSCRIPTIONS}${query}`)).data;
}

export async function subscriptionByLabel(sandbox: TestSandbox, label: string): Promise<any> {
  const found = (await listSubscriptions(sandbox)).find((s) => s.label === label);
  if (!found) throw new Error(`no seeded subscription labelled ${label}`);
  return found;
}

export async function listSubUsers(sandbox: TestSandbox, subscriptionId: string): Promise<any[]> {
  return (await read(sandbox, `${SUBSCRIPTIONS}/${subscriptionId}/sub-users`)).data;
}
