import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '../src/testing';
import { listPorts } from './mobile/mobile-test-support';
import {
  expectValidationError,
  listSubUsers,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  SUBSCRIPTIONS,
} from './subscriptions/subscription-helpers';

/** Labels that would corrupt a terminal, a log line or the reading order if stored as sent. */
const UNSAFE_LABELS: Record<string, string> = {
  NUL: 'a\u0000b',
  'ANSI escape': '\u001b[31mred\u001b[0m',
  'line feed': 'one\ntwo',
  tab: 'a\tb',
  DEL: 'a\u007fb',
  'C1 control (CSI)': 'a\u009bb',
  'C1 control (NEL)': 'a\u0085b',
  'right-to-left override': 'invoice\u202egnp.exe',
  'left-to-right embedding': '\u202aabc',
  'pop directional formatting': 'abc\u202c',
  'right-to-left isolate': '\u2067abc',
  'pop directional isolate': 'abc\u2069',
  'lone high surrogate': 'a\ud83db',
  'lone low surrogate': 'a\ude00b',
  'swapped surrogates': '\ude00\ud83d',
};

/** Labels with characters that stay allowed: emoji (a surrogate pair), accents, RTL letters, marks. */
const SAFE_LABELS = ['Crawler 😀', 'Café Zürich', 'שלום', 'a\u200db', 'x\u00a0y'];

describe('labels the sandbox accepts (subscriptions, sub-users, ports)', () => {
  let sandbox: TestSandbox;
  let sub: any;
  let subUser: any;
  let port: any;

  beforeAll(async () => {
    sandbox = await TestSandbox.start();
    sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    subUser = (await listSubUsers(sandbox, sub.id))[0];
    port = (await listPorts(sandbox))[0];
  });
  afterAll(() => sandbox.close());

  const writes = () => [
    { name: 'PATCH subscription', method: 'PATCH', path: `${SUBSCRIPTIONS}/${sub.id}` },
    { name: 'POST sub-user', method: 'POST', path: `${SUBSCRIPTIONS}/${sub.id}/sub-users` },
    {
      name: 'PATCH sub-user',
      method: 'PATCH',
      path: `${SUBSCRIPTIONS}/${sub.id}/sub-users/${subUser.id}`,
    },
    { name: 'PATCH port', method: 'PATCH', path: `/v1/mobile/${port.id}` },
  ];

  it.each(Object.entries(UNSAFE_LABELS))(
    'refuses a label with a %s (422 invalid_value), storing nothing',
    async (_, label) => {
      const before = {
        sub: (await sandbox.request('GET', `${SUBSCRIPTIONS}/${sub.id}`)).json,
        subUsers: await listSubUsers(sandbox, sub.id),
        port: (await sandbox.request('GET', `/v1/mobile/${port.id}`)).json,
      };
      for (const write of writes()) {
        const answer = await sandbox.request(write.method, write.path, { body: { label } });
        expectValidationError(answer, { label: 'invalid_value' });
        expect(answer.json.error.fields[0].message, write.name).toMatch(/control characters/);
      }
      expect((await sandbox.request('GET', `${SUBSCRIPTIONS}/${sub.id}`)).json).toEqual(before.sub);
      expect(await listSubUsers(sandbox, sub.id)).toEqual(before.subUsers);
      expect((await sandbox.request('GET', `/v1/mobile/${port.id}`)).json).toEqual(before.port);
    },
  );

  it.each(SAFE_LABELS)('still takes %j as a label everywhere', async (label) => {
    for (const write of writes()) {
      const answer = await sandbox.request(write.method, write.path, { body: { label } });
      expect(answer.status, write.name).toBe(write.method === 'POST' ? 201 : 200);
      expect(answer.json.label, write.name).toBe(label);
      if (write.method === 'POST') {
        await sandbox.request('DELETE', `${write.path}/${answer.json.id}`);
      }
    }
  });
});
