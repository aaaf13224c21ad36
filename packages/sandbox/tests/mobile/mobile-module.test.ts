import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  fullHistory,
  getPort,
  listPorts,
  manualPort,
  ms,
  portByLabel,
  SEEDED_PORT_LABELS,
} from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /v1/mobile', () => {
  it('lists every port with every field of the spec, in its documented type', async () => {
    const ports = await listPorts(sandbox);
    expect(ports.length).toBeGreaterThanOrEqual(3);
    for (const port of ports) {
      expect(port).toEqual({
        id: expect.any(String),
        label: expect.any(String),
        status: 'active',
        country: expect.stringMatching(/^[A-Z]{2}$/),
        city: port.city === null ? null : expect.any(String),
        carrier: expect.any(String),
        carrierName: expect.any(String),
        networkType: expect.stringMatching(/^[45]G$/),
        currentIp: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
        ipChangedAt: expect.stringMatching(ISO),
        endpoint: sandbox.sandbox.gateway,
        username: expect.any(String),
        password: expect.any(String),
        rotation:
          port.rotation.mode === 'manual'
            ? { mode: 'manual', intervalMinutes: null }
            : {
                mode: 'interval',
                intervalMinutes: expect.any(Number),
              },
        minRotationIntervalSeconds: 30,
        rotationLink: expect.any(String),
        planId: expect.stringMatching(/^mobile-port-/),
        autoRenew: expect.any(Boolean),
        createdAt: expect.stringMatching(ISO),
        expiresAt: expect.stringMatching(ISO),
      });
    }
  });

  it('needs a key (401 unauthorized) but no scope to read', async () => {
    const anonymous = await sandbox.request('GET', '/v1/mobile', { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe('unauthorized');
    const wrong = await sandbox.request('GET', '/v1/mobile', { key: 'not-a-key' });
    expect(wrong.status).toBe(401);
    const readonly = await sandbox.request('GET', '/v1/mobile', { key: 'readonly-key' });
    expect(readonly.status).toBe(200);
    expect(readonly.json.data.length).toBeGreaterThan(0);
  });

  it('gives each port a rotation link: the GET rotate URL on the host asked, with the key of the request', async () => {
    const [port] = await listPorts(sandbox);
    expect(port.rotationLink).toBe(`${sandbox.baseUrl}/v1/mobile/${port.id}/rotate?key=sandbox-demo-key`);
    const readonly = await sandbox.request('GET', `/v1/mobile/${port.id}`, { key: 'readonly-key' });
    expect(readonly.json.rotationLink).toBe(
      `${sandbox.baseUrl}/v1/mobile/${port.id}/rotate?key=readonly-key`,
    );
  });

  it('builds the link from the Host header of the request', async () => {
    const { request } = await import('node:http');
    const url = new URL(`${sandbox.baseUrl}/v1/mobile`);
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { Host: 'proxy-manager.example:8080', Authorization: 'Bearer sandbox-demo-key' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    const port = JSON.parse(body).data[0];
    expect(port.rotationLink).toBe(
      `http://proxy-manager.example:8080/api/v1/v1/mobile/${port.id}/rotate?key=sandbox-demo-key`,
    );
  });

  it('escapes the key in the link, and the link works as given', async () => {
    const odd = await TestSandbox.start({ keys: [{ key: 'k+y/=&x', scopes: ['proxies'] }] });
    try {
      const answer = await odd.request('GET', '/v1/mobile', { key: 'k+y/=&x' });
      const port = answer.json.data.find((p: any) => p.label === SEEDED_PORT_LABELS.berlin);
      expect(port.rotationLink).toMatch(/\?key=k%2By%2F%3D%26x$/);
      const followed = await fetch(port.rotationLink);
      expect(followed.status).toBe(200);
      expect(((await followed.json()) as { previousIp: string }).previousIp).toBe(port.currentIp);
    } finally {
      await odd.close();
    }
  });
});

describe('GET /v1/mobile/{portId}', () => {
  it('answers the port as the list shows it', async () => {
    const ports = await listPorts(sandbox);
    for (const port of ports) expect(await getPort(sandbox, port.id)).toEqual(port);
  });

  it('is 404 not_found for an unknown id', async () => {
    const answer = await sandbox.request('GET', '/v1/mobile/port_nope');
    expect(answer.status).toBe(404);
    expect(answer.json.error).toMatchObject({ code: 'not_found', message: expect.any(String) });
  });

  it('has the current IP as the open entry of its history', async () => {
    for (const port of await listPorts(sandbox)) {
      const [current] = await fullHistory(sandbox, port.id);
      expect(current).toMatchObject({ ip: port.currentIp, assignedAt: port.ipChangedAt, releasedAt: null });
    }
  });
});

describe('PATCH /v1/mobile/{portId}', () => {
  it('changes label and autoRenew, and keeps them', async () => {
    const port = await manualPort(sandbox);
    const answer = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { label: 'Renamed', autoRenew: !port.autoRenew },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ label: 'Renamed', autoRenew: !port.autoRenew });
    expect(await getPort(sandbox, port.id)).toMatchObject({ label: 'Renamed', autoRenew: !port.autoRenew });
  });

  it('accepts a label of 60 characters and refuses 61 (422 too_long on label)', async () => {
    const port = await manualPort(sandbox);
    const ok = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { body: { label: 'x'.repeat(60) } });
    expect(ok.status).toBe(200);
    const tooLong = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { label: 'y'.repeat(61) },
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.json.error.code).toBe('validation_error');
    expect(tooLong.json.error.fields).toEqual([
      { field: 'label', code: 'too_long', message: expect.any(String) },
    ]);
    expect((await getPort(sandbox, port.id)).label).toBe('x'.repeat(60));
  });

  it('reports every bad field at once and changes nothing', async () => {
    const port = await manualPort(sandbox);
    const answer = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { label: 42, autoRenew: 'yes', rotation: { mode: 'sometimes' } },
    });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields.map((f: any) => f.field).sort()).toEqual([
      'autoRenew',
      'label',
      'rotation.mode',
    ]);
    expect(await getPort(sandbox, port.id)).toEqual(port);
  });

  it('leaves the port as it is on an empty body and ignores unknown members', async () => {
    const port = await manualPort(sandbox);
    const empty = await sandbox.request('PATCH', `/v1/mobile/${port.id}`);
    expect(empty.status).toBe(200);
    const unknown = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { body: { colour: 'red' } });
    expect(unknown.status).toBe(200);
    expect(unknown.json).toEqual(port);
  });

  it('switches rotation to interval and back to manual', async () => {
    const port = await manualPort(sandbox);
    const interval = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { rotation: { mode: 'interval', intervalMinutes: 15 } },
    });
    expect(interval.status).toBe(200);
    expect(interval.json.rotation).toEqual({ mode: 'interval', intervalMinutes: 15 });
    const manual = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { rotation: { mode: 'manual', intervalMinutes: null } },
    });
    expect(manual.json.rotation).toEqual({ mode: 'manual', intervalMinutes: null });
    const manualWithoutMinutes = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { rotation: { mode: 'manual' } },
    });
    expect(manualWithoutMinutes.json.rotation).toEqual({ mode: 'manual', intervalMinutes: null });
  });

  it('accepts intervals from 1 to 1440 minutes and refuses 0 and 1441', async () => {
    const port = await manualPort(sandbox);
    const patch = (intervalMinutes: unknown) =>
      sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
        body: { rotation: { mode: 'interval', intervalMinutes } },
      });
    expect((await patch(1)).status).toBe(200);
    expect((await patch(1440)).status).toBe(200);
    const zero = await patch(0);
    expect(zero.status).toBe(422);
    expect(zero.json.error.fields).toEqual([
      { field: 'rotation.intervalMinutes', code: 'too_small', message: expect.any(String) },
    ]);
    const tooBig = await patch(1441);
    expect(tooBig.json.error.fields[0]).toMatchObject({ field: 'rotation.intervalMinutes', code: 'too_big' });
    expect((await patch(2.5)).json.error.fields[0]).toMatchObject({ field: 'rotation.intervalMinutes' });
    expect((await getPort(sandbox, port.id)).rotation).toEqual({ mode: 'interval', intervalMinutes: 1440 });
  });

  it('needs intervalMinutes with interval mode (422 on rotation.intervalMinutes)', async () => {
    const port = await manualPort(sandbox);
    for (const rotation of [{ mode: 'interval' }, { mode: 'interval', intervalMinutes: null }]) {
      const answer = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { body: { rotation } });
      expect(answer.status).toBe(422);
      expect(answer.json.error.fields[0].field).toBe('rotation.intervalMinutes');
    }
  });

  it('refuses a number of minutes with manual mode (422 must_be_null)', async () => {
    const port = await manualPort(sandbox);
    const answer = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { rotation: { mode: 'manual', intervalMinutes: 10 } },
    });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields).toEqual([
      { field: 'rotation.intervalMinutes', code: 'must_be_null', message: expect.any(String) },
    ]);
  });

  it('refuses rotation that is not an object, or has no mode', async () => {
    const port = await manualPort(sandbox);
    const nullRotation = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { rotation: null },
    });
    expect(nullRotation.json.error.fields[0]).toMatchObject({ field: 'rotation', code: 'invalid_type' });
    const noMode = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { body: { rotation: {} } });
    expect(noMode.json.error.fields[0]).toMatchObject({ field: 'rotation.mode', code: 'required' });
  });

  it('refuses a body that is not a JSON object (422) and malformed JSON (400 invalid_json)', async () => {
    const port = await manualPort(sandbox);
    const array = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { body: [1] });
    expect(array.status).toBe(422);
    expect(array.json.error.fields[0].field).toBe('body');
    const malformed = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { rawBody: '{"label":' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('invalid_json');
  });

  it('needs the proxies scope (403 insufficient_scope) and a known port (404)', async () => {
    const port = await manualPort(sandbox);
    const readonly = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      key: 'readonly-key',
      body: { label: 'nope' },
    });
    expect(readonly.status).toBe(403);
    expect(readonly.json.error.code).toBe('insufficient_scope');
    expect((await getPort(sandbox, port.id)).label).toBe(port.label);
    const unknown = await sandbox.request('PATCH', '/v1/mobile/port_nope', { body: { label: 'x' } });
    expect(unknown.status).toBe(404);
  });
});

describe('POST /v1/mobile/{portId}/reset-password', () => {
  it('gives the port a new password and changes nothing else', async () => {
    const port = await manualPort(sandbox);
    const answer = await sandbox.request('POST', `/v1/mobile/${port.id}/reset-password`);
    expect(answer.status).toBe(200);
    expect(answer.json.password).not.toBe(port.password);
    expect(answer.json.password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect({ ...answer.json, password: port.password }).toEqual(port);
    expect((await getPort(sandbox, port.id)).password).toBe(answer.json.password);
  });

  it('needs the proxies scope and a known port', async () => {
    const port = await manualPort(sandbox);
    const readonly = await sandbox.request('POST', `/v1/mobile/${port.id}/reset-password`, {
      key: 'readonly-key',
    });
    expect(readonly.status).toBe(403);
    expect((await getPort(sandbox, port.id)).password).toBe(port.password);
    expect((await sandbox.request('POST', '/v1/mobile/port_nope/reset-password')).status).toBe(404);
  });
});

describe('GET /v1/mobile/{portId}/ip-history', () => {
  it('pages 20 entries by default, newest first, each closed when the next one opened', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.relocated);
    const answer = await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history`);
    expect(answer.status).toBe(200);
    const all = await fullHistory(sandbox, port.id);
    expect(answer.json.pagination).toEqual({
      page: 1,
      perPage: 20,
      total: all.length,
      totalPages: Math.ceil(all.length / 20),
    });
    expect(all.length).toBeGreaterThan(20);
    expect(answer.json.data).toEqual(all.slice(0, 20));
    for (let i = 1; i < all.length; i += 1) {
      expect(ms(all[i].assignedAt)).toBeLessThan(ms(all[i - 1].assignedAt));
      expect(all[i].releasedAt).toBe(all[i - 1].assignedAt);
    }
    expect(all[0].releasedAt).toBeNull();
    for (const entry of all) {
      expect(entry).toEqual({
        ip: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
        assignedAt: expect.stringMatching(ISO),
        releasedAt: entry.releasedAt === null ? null : expect.stringMatching(ISO),
        trigger: expect.stringMatching(/^(initial|manual|link|interval|relocation)$/),
      });
    }
    expect(all.at(-1).trigger).toBe('initial');
    expect(all.some((e) => e.trigger === 'relocation')).toBe(true);
  });

  it('serves any page and perPage, and an empty page past the end', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.relocated);
    const all = await fullHistory(sandbox, port.id);
    const page2 = await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history?page=2&perPage=7`);
    expect(page2.json.data).toEqual(all.slice(7, 14));
    expect(page2.json.pagination).toEqual({
      page: 2,
      perPage: 7,
      total: all.length,
      totalPages: Math.ceil(all.length / 7),
    });
    const past = await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history?page=99`);
    expect(past.status).toBe(200);
    expect(past.json.data).toEqual([]);
    expect(past.json.pagination.total).toBe(all.length);
  });

  it('refuses page below 1 and perPage outside 1-100, every bad parameter at once (422)', async () => {
    const port = await manualPort(sandbox);
    const both = await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history?page=0&perPage=101`);
    expect(both.status).toBe(422);
    expect(both.json.error.fields.map((f: any) => f.field).sort()).toEqual(['page', 'perPage']);
    const zeroPerPage = await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history?perPage=0`);
    expect(zeroPerPage.json.error.fields[0]).toMatchObject({ field: 'perPage', code: 'too_small' });
    const text = await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history?page=two`);
    expect(text.json.error.fields[0]).toMatchObject({ field: 'page', code: 'invalid_type' });
    const hundred = await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history?perPage=100`);
    expect(hundred.status).toBe(200);
  });

  it('is 404 for an unknown port and 401 without a key', async () => {
    expect((await sandbox.request('GET', '/v1/mobile/port_nope/ip-history')).status).toBe(404);
    const port = await manualPort(sandbox);
    expect((await sandbox.request('GET', `/v1/mobile/${port.id}/ip-history`, { key: null })).status).toBe(
      401,
    );
  });
});

describe('GET /v1/mobile/{portId}/usage', () => {
  it('reports the last 30 days by default, with sums that add up', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.relocated);
    const answer = await sandbox.request('GET', `/v1/mobile/${port.id}/usage`);
    expect(answer.status).toBe(200);
    const report = answer.json;
    expect(report.to).toBe('2026-03-10');
    expect(report.from).toBe('2026-02-09');
    expect(report.points).toHaveLength(30);
    expect(report.totalBytes).toBe(report.points.reduce((s: number, p: any) => s + p.bytes, 0));
    expect(report.totalRequests).toBe(report.points.reduce((s: number, p: any) => s + p.requests, 0));
    expect(report.byCountry.reduce((s: number, c: any) => s + c.bytes, 0)).toBe(report.totalBytes);
    expect(report.byCountry.map((c: any) => c.country)).toEqual(['US']);
  });

  it('has no traffic before the port was created', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.berlin);
    const report = (await sandbox.request('GET', `/v1/mobile/${port.id}/usage`)).json;
    const createdDay = port.createdAt.slice(0, 10);
    for (const point of report.points) {
      if (point.date < createdDay) expect(point.bytes).toBe(0);
      if (point.date > createdDay && point.date < '2026-03-10') expect(point.bytes).toBeGreaterThan(0);
    }
  });

  it('stops counting when the port expires', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    await sandbox.advance(5 * 86_400);
    expect((await getPort(sandbox, port.id)).status).toBe('expired');
    const report = (await sandbox.request('GET', `/v1/mobile/${port.id}/usage`)).json;
    const expiryDay = port.expiresAt.slice(0, 10);
    const after = report.points.filter((p: any) => p.date > expiryDay);
    expect(after.length).toBeGreaterThan(2);
    for (const point of after) expect(point.bytes).toBe(0);
  });

  it('counts traffic in the country the port was in: byCountry follows a relocation', async () => {
    const port = await manualPort(sandbox);
    await sandbox.request('POST', `/v1/mobile/${port.id}/relocate`, {
      body: { country: 'US', carrier: 'verizon', city: 'new_york' },
    });
    await sandbox.advance(2 * 86_400);
    const report = (await sandbox.request('GET', `/v1/mobile/${port.id}/usage`)).json;
    const countries = report.byCountry.map((c: any) => c.country).sort();
    expect(countries).toEqual(['DE', 'US']);
    expect(report.byCountry.reduce((s: number, c: any) => s + c.bytes, 0)).toBe(report.totalBytes);
  });

  it('takes from and to, and refuses bad dates and ranges over 366 days (422)', async () => {
    const port = await manualPort(sandbox);
    const window = await sandbox.request('GET', `/v1/mobile/${port.id}/usage?from=2026-03-01&to=2026-03-07`);
    expect(window.json.points.map((p: any) => p.date)).toEqual([
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
    ]);
    const badDate = await sandbox.request('GET', `/v1/mobile/${port.id}/usage?from=2026-02-30`);
    expect(badDate.status).toBe(422);
    expect(badDate.json.error.fields[0].field).toBe('from');
    const tooLong = await sandbox.request('GET', `/v1/mobile/${port.id}/usage?from=2025-03-09&to=2026-03-10`);
    expect(tooLong.status).toBe(422);
    const longest = await sandbox.request('GET', `/v1/mobile/${port.id}/usage?from=2025-03-10&to=2026-03-10`);
    expect(longest.status).toBe(200);
    expect(longest.json.points).toHaveLength(366);
  });

  it('is 404 for an unknown port', async () => {
    expect((await sandbox.request('GET', '/v1/mobile/port_nope/usage')).status).toBe(404);
  });
});
