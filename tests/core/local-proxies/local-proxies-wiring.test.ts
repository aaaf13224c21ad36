import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { LocalProxyView } from '../../../src-shared/contract';
import {
  listSubUsers,
  manualPort,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  TestSandbox,
} from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';
import {
  echoOf,
  freePort,
  openConnect,
  openSocks,
  viaConnect,
  viaHttp,
  viaSocks,
} from './support/proxy-clients';

/*
 * Local proxies as a user meets them: added through the guarded dispatcher in the demo, then used by
 * tools (plain HTTP, CONNECT, SOCKS5) over real sockets against the sandbox gateway, whose echo says
 * which exit IP each request left from. Only the sandbox's clock is moved; nothing is faked.
 */

describe('local proxies through the composition root, against the sandbox gateway', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    await sandbox.advance(60);
    h = await createHarness(sandbox);
    await h.call('demo:start');
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  const portProxy = async (options: { closeOnRotation?: boolean } = {}) => {
    const port = await manualPort(sandbox);
    const local = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
      ...options,
    });
    return { port, local, listen: local.listen.port };
  };

  const viewOf = async (id: string): Promise<LocalProxyView> => {
    const view = (await h.call('localProxies:list')).proxies.find((proxy) => proxy.id === id);
    if (!view) throw new Error(`no local proxy ${id}`);
    return view;
  };

  const noSecret = (text: string, ...passwords: string[]) => {
    for (const password of passwords) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(Buffer.from(password).toString('base64'));
    }
  };

  it('forwards HTTP, CONNECT and SOCKS5 to a port: it exits at the port’s IP, and at the new one after a rotation', async () => {
    const { port, local, listen } = await portProxy();
    expect(local).toMatchObject({
      state: 'running',
      url: `http://127.0.0.1:${listen}`,
      upstream: { kind: 'port', portId: port.id },
      upstreamEndpoint: { host: '127.0.0.1', port: port.endpoint.httpPort },
      auth: null,
    });
    for (const via of [viaHttp, viaConnect, viaSocks]) {
      const answer = await via(listen);
      expect(answer.status).toBe(200);
      expect(echoOf(answer).exit.ip).toBe(port.currentIp);
      expect(echoOf(answer).account).toMatchObject({ type: 'mobile-port', id: port.id });
      noSecret(answer.raw, port.password);
    }

    await sandbox.advance(31);
    const receipt = await h.call('ports:rotate', { portId: port.id });
    for (const via of [viaHttp, viaConnect, viaSocks]) {
      expect(echoOf(await via(listen)).exit.ip).toBe(receipt.ip);
    }

    await vi.waitFor(async () => expect((await viewOf(local.id)).stats.openConnections).toBe(0));
    const { stats, lastError } = await viewOf(local.id);
    expect(stats).toMatchObject({ requests: 6, failures: 0, rejectedConnections: 0 });
    expect(stats.bytesUp).toBeGreaterThan(6 * 40);
    expect(stats.bytesDown).toBeGreaterThan(6 * 500);
    expect(lastError).toBeNull();
  });

  it('keeps working through a password reset made in the app: the event carries the new password, no 407 reaches a tool', async () => {
    const { port, local, listen } = await portProxy();
    expect((await viaHttp(listen)).status).toBe(200);
    await sandbox.control('DELETE', '/requests');

    const reset = await h.call('ports:resetPassword', { portId: port.id });
    expect(reset.password).not.toBe(port.password);
    // Past the gateway's 60 s grace: the old password is refused from here on.
    await sandbox.advance(61);
    for (const via of [viaHttp, viaConnect, viaSocks]) {
      const answer = await via(listen);
      expect(answer.status).toBe(200);
      expect(echoOf(answer).exit.ip).toBe(port.currentIp);
      noSecret(answer.raw, port.password, reset.password);
    }
    // Nothing was read again: the app's own event had the new password.
    const reads = (await sandbox.requests()).filter((r) => r.method === 'GET' && r.path.includes(port.id));
    expect(reads).toEqual([]);
    expect((await viewOf(local.id)).lastError).toBeNull();
  });

  it('catches a reset made outside the app: the 407 makes it read the port again and retry, the tool sees 200', async () => {
    const { port, local, listen } = await portProxy();
    expect((await viaHttp(listen)).status).toBe(200);
    const reset = await sandbox.request('POST', `/v1/mobile/${port.id}/reset-password`);
    expect(reset.status).toBe(200);
    await sandbox.advance(61);
    await sandbox.control('DELETE', '/requests');

    const answers = await Promise.all([
      viaHttp(listen),
      viaConnect(listen),
      viaSocks(listen),
      viaHttp(listen),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(echoOf(answer).exit.ip).toBe(port.currentIp);
      noSecret(answer.raw, port.password, reset.json.password);
    }
    // Four tools failing at once made one read of the port, not four.
    const reads = (await sandbox.requests()).filter((r) => r.method === 'GET' && r.path.endsWith(port.id));
    expect(reads).toHaveLength(1);
    const view = await viewOf(local.id);
    expect(view.lastError).toBeNull();
    expect(view.stats.failures).toBe(0);
  });

  it('uses a sub-user’s regenerated password at once, and a subscription with country us, state california exits in California', async () => {
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const subUser = (await listSubUsers(sandbox, subscription.id)).find(
      (s) => s.enabled && s.trafficLimitBytes === null,
    );
    const local = await h.call('localProxies:add', {
      upstream: {
        kind: 'subscription',
        subscriptionId: subscription.id,
        subUserId: subUser.id,
        targeting: { country: 'US', state: 'california' },
      },
      listenPort: await freePort(),
    });
    expect(local.label).toContain(subUser.label);
    for (const via of [viaHttp, viaSocks]) {
      const echo = echoOf(await via(local.listen.port));
      expect(echo.exit).toMatchObject({ country: 'US', state: 'california' });
      expect(echo.account).toMatchObject({ type: 'sub-user', id: subUser.id });
    }

    await sandbox.control('DELETE', '/requests');
    const regenerated = await h.call('subscriptions:updateSubUser', {
      subscriptionId: subscription.id,
      subUserId: subUser.id,
      regeneratePassword: true,
    });
    await sandbox.advance(61);
    const answer = await viaConnect(local.listen.port);
    expect(answer.status).toBe(200);
    expect(echoOf(answer).exit).toMatchObject({ country: 'US', state: 'california' });
    noSecret(answer.raw, subUser.password, regenerated.password);
    const reads = (await sandbox.requests()).filter(
      (r) => r.method === 'GET' && r.path.includes(subscription.id),
    );
    // The sub-user list the app read after its own write, nothing more.
    expect(reads.every((r) => r.path.endsWith('/sub-users'))).toBe(true);
  });

  it('reports a targeting the gateway refuses, with the gateway’s words, to the tool and on the screen', async () => {
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const local = await h.call('localProxies:add', {
      upstream: {
        kind: 'subscription',
        subscriptionId: subscription.id,
        targeting: { country: 'US', state: 'bavaria' },
      },
      listenPort: await freePort(),
    });
    const plain = await viaHttp(local.listen.port);
    expect(plain.status).toBe(502);
    const tunnel = await viaConnect(local.listen.port);
    expect(tunnel.status).toBe(502);
    expect(tunnel.body).toContain('No exit IP matches');
    await expect(viaSocks(local.listen.port)).rejects.toThrow(/HostUnreachable/);
    noSecret(plain.raw + tunnel.raw, subscription.password);

    const { lastError, stats } = await viewOf(local.id);
    expect(stats.failures).toBe(3);
    expect(lastError).toMatchObject({ kind: 'no_exit', status: 502, detail: expect.any(String) });
    expect(lastError?.detail?.length).toBeGreaterThan(10);
    expect(JSON.stringify(lastError)).not.toContain(subscription.password);

    // The overview says it too, with the way to the local proxies.
    const overview = await h.call('overview:get');
    expect(overview.items).toContainEqual(
      expect.objectContaining({
        kind: 'local_proxy_failing',
        level: 'warning',
        subject: expect.objectContaining({ type: 'local_proxy', id: local.id }),
        detail: lastError?.message,
        route: '/local-proxies',
      }),
    );
    expect(JSON.stringify(overview)).not.toContain(subscription.password);
  });

  it('serves 200 tools at once', async () => {
    const { port, listen } = await portProxy();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? viaHttp(listen) : viaSocks(listen))),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => echoOf(answer).exit.ip))).toEqual(new Set([port.currentIp]));
  });

  it('asks tools for the local login when it has one, and never forwards it', async () => {
    const port = await manualPort(sandbox);
    const login = { username: 'tool', password: 'local-secret-1' };
    const local = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
      auth: login,
    });
    expect(local.auth).toEqual({ username: 'tool' });
    expect(JSON.stringify(local)).not.toContain(login.password);

    const refused = await viaHttp(local.listen.port);
    expect(refused.status).toBe(407);
    expect(refused.headers['proxy-authenticate']).toContain('Basic');
    expect((await viaConnect(local.listen.port, { ...login, password: 'wrong-password' })).status).toBe(407);
    await expect(viaSocks(local.listen.port)).rejects.toThrow();
    await expect(viaSocks(local.listen.port, { ...login, password: 'wrong-password' })).rejects.toThrow();

    const answer = await viaHttp(local.listen.port, 'http://echo.test/', { login });
    expect(answer.status).toBe(200);
    expect(Object.keys(echoOf(answer).request.headers).map((name) => name.toLowerCase())).not.toContain(
      'proxy-authorization',
    );
    expect(echoOf(await viaSocks(local.listen.port, login)).exit.ip).toBe(port.currentIp);
  });

  it('refuses an address other computers can reach without “allow network” and a local login', async () => {
    const port = await manualPort(sandbox);
    const add = (extra: Record<string, unknown>) =>
      h
        .call('localProxies:add', {
          upstream: { kind: 'port', portId: port.id },
          listenPort: 24_990,
          ...extra,
        })
        .catch((error: unknown) => error);
    expect(await add({ bindAddress: '0.0.0.0' })).toMatchObject({
      code: 'invalid_input',
      fields: expect.arrayContaining([
        expect.objectContaining({ field: 'allowNetwork' }),
        expect.objectContaining({ field: 'auth' }),
      ]),
    });
    expect(await add({ bindAddress: '0.0.0.0', allowNetwork: true })).toMatchObject({
      code: 'invalid_input',
      fields: [expect.objectContaining({ field: 'auth' })],
    });
    expect((await h.call('localProxies:list')).proxies).toEqual([]);

    // Switching an existing loopback one to the network is held to the same rule.
    const local = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
    });
    const update = await h
      .call('localProxies:update', { id: local.id, bindAddress: '0.0.0.0', allowNetwork: true })
      .catch((error: unknown) => error);
    expect(update).toMatchObject({
      code: 'invalid_input',
      fields: [expect.objectContaining({ field: 'auth' })],
    });
    expect((await viewOf(local.id)).listen.host).toBe('127.0.0.1');
  });

  it('names the address when the port is already in use', async () => {
    const port = await manualPort(sandbox);
    const taken = await freePort();
    const { createServer } = await import('node:net');
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(taken, '127.0.0.1', resolve));
    try {
      const error = await h
        .call('localProxies:add', { upstream: { kind: 'port', portId: port.id }, listenPort: taken })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'port_in_use',
        message: `127.0.0.1:${taken} is already in use by another program: choose another port.`,
        fields: [expect.objectContaining({ field: 'listenPort' })],
      });
      expect((await h.call('localProxies:list')).proxies).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('closes open connections at a rotation when asked, so the next request leaves from the new IP', async () => {
    const closing = await portProxy({ closeOnRotation: true });
    const keeping = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: closing.port.id },
      listenPort: await freePort(),
    });
    const closed = await openSocks(closing.listen);
    const kept = (await openConnect(keeping.listen.port)).socket;
    const closedEnded = new Promise<void>((resolve) => closed.once('close', () => resolve()));

    await sandbox.advance(31);
    const receipt = await h.call('ports:rotate', { portId: closing.port.id });
    await closedEnded;
    expect(kept.destroyed).toBe(false);
    kept.destroy();
    expect(echoOf(await viaSocks(closing.listen)).exit.ip).toBe(receipt.ip);
  });

  it('switches its upstream without changing its port', async () => {
    const { local, listen } = await portProxy();
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const updated = await h.call('localProxies:update', {
      id: local.id,
      upstream: { kind: 'subscription', subscriptionId: subscription.id, targeting: { country: 'US' } },
    });
    expect(updated).toMatchObject({ url: local.url, state: 'running' });
    const echo = echoOf(await viaHttp(listen));
    expect(echo.account).toMatchObject({ type: 'subscription', id: subscription.id });
    expect(echo.exit.country).toBe('US');
  });

  it('stops and starts on request, and forgets a removed one', async () => {
    const { local, listen } = await portProxy();
    expect(await h.call('localProxies:stop', { id: local.id })).toMatchObject({
      state: 'stopped',
      enabled: false,
    });
    await expect(viaHttp(listen)).rejects.toThrow(/ECONNREFUSED/);
    expect(await h.call('localProxies:start', { id: local.id })).toMatchObject({
      state: 'running',
      enabled: true,
    });
    expect((await viaHttp(listen)).status).toBe(200);
    await h.call('localProxies:remove', { id: local.id });
    await expect(viaHttp(listen)).rejects.toThrow(/ECONNREFUSED/);
    expect((await h.call('localProxies:list')).proxies).toEqual([]);
    expect(
      h.allEvents.some(
        (event) =>
          event.channel === 'localProxies:changed' &&
          (event.payload as { proxies: LocalProxyView[] }).proxies.some((proxy) => proxy.state === 'stopped'),
      ),
    ).toBe(true);
  });

  it('runs one in the foreground for the command line, by id or for an upstream given on the spot, without saving it', async () => {
    const port = await manualPort(sandbox);
    const failures: string[] = [];
    const run = await h.core.services.localProxies.runDetached({
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
      onFailure: (error) => failures.push(error.kind),
    });
    expect(run.url).toBe(`http://127.0.0.1:${run.listen.port}`);
    expect(echoOf(await viaSocks(run.listen.port)).exit.ip).toBe(port.currentIp);
    expect((await h.call('localProxies:list')).proxies).toEqual([]);

    // It follows the app's own events like a saved one.
    await h.call('ports:resetPassword', { portId: port.id });
    await sandbox.advance(61);
    expect((await viaHttp(run.listen.port)).status).toBe(200);
    expect(run.stats().requests).toBe(2);
    await run.close();
    await expect(viaHttp(run.listen.port)).rejects.toThrow(/ECONNREFUSED/);

    const saved = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
      start: false,
    });
    const byId = await h.core.services.localProxies.runDetached({ id: saved.id });
    expect(byId).toMatchObject({ id: saved.id, label: saved.label, url: saved.url });
    expect((await viaHttp(saved.listen.port)).status).toBe(200);
    await byId.close();
    expect(failures).toEqual([]);
    const unknown = await h.core.services.localProxies
      .runDetached({ upstream: { kind: 'port', portId: 'port_nope' } })
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({ code: 'not_found' });
  });

  it('answers a web page that finds the port with 400, and never relays to anything but its upstream', async () => {
    const { listen } = await portProxy();
    const direct = await fetch(`http://127.0.0.1:${listen}/`);
    expect(direct.status).toBe(400);
    expect(await direct.text()).toContain('This is a proxy');
    // Whatever the target, the request goes to the upstream (the gateway answers it itself).
    const other = echoOf(await viaHttp(listen, 'http://127.0.0.1:1/'));
    expect(other.via).toBe('http');
  });
});

describe('a local proxy across a restart of the app core', () => {
  it('keeps its port and its upstream, and listens again', async () => {
    const sandbox = await TestSandbox.start();
    try {
      const first = await createHarness(sandbox);
      await first.core.start();
      await first.call('demo:start');
      const port = await manualPort(sandbox);
      const listenPort = await freePort();
      const local = await first.call('localProxies:add', {
        upstream: { kind: 'port', portId: port.id },
        listenPort,
      });
      expect((await viaHttp(listenPort)).status).toBe(200);
      await first.core.dispose();
      await expect(viaHttp(listenPort)).rejects.toThrow(/ECONNREFUSED/);

      const second = await createHarness(sandbox, { dataDir: first.dataDir });
      await second.core.start();
      await second.call('demo:start');
      try {
        const { proxies } = await second.call('localProxies:list');
        expect(proxies).toEqual([
          expect.objectContaining({ id: local.id, url: `http://127.0.0.1:${listenPort}`, state: 'running' }),
        ]);
        expect(echoOf(await viaHttp(listenPort)).exit.ip).toBe(port.currentIp);
        // Configuration only: no password of any kind in the settings file.
        const { readFileSync } = await import('node:fs');
        const settings = readFileSync(`${first.dataDir}/settings.json`, 'utf8');
        expect(settings).toContain(`"listenPort": ${listenPort}`);
        expect(settings).not.toContain(port.password);
      } finally {
        await second.core.dispose();
      }
    } finally {
      await sandbox.close();
    }
  });
});

describe('live stats of a local proxy', () => {
  it('reach every window at most once a second while tools use it, on the app’s clock', async () => {
    const sandbox = await TestSandbox.start();
    const clock = new FakeClock(Date.parse('2026-03-10T12:00:00Z'));
    const h = await createHarness(sandbox, { clock });
    try {
      await h.call('demo:start');
      const port = await manualPort(sandbox);
      const local = await h.call('localProxies:add', {
        upstream: { kind: 'port', portId: port.id },
        listenPort: await freePort(),
      });
      const pushes = () =>
        h.allEvents.filter((event) => event.channel === 'localProxies:changed').map((event) => event.payload);
      const before = pushes().length;
      await Promise.all([
        viaHttp(local.listen.port),
        viaSocks(local.listen.port),
        viaConnect(local.listen.port),
      ]);
      // Nothing yet: the push waits for its second.
      expect(pushes()).toHaveLength(before);
      await clock.advance(1_000);
      const pushed = pushes().slice(before) as { proxies: LocalProxyView[] }[];
      expect(pushed).toHaveLength(1);
      expect(pushed[0]?.proxies[0]?.stats).toMatchObject({ requests: 3, failures: 0 });
      expect(pushed[0]?.proxies[0]?.stats.bytesDown).toBeGreaterThan(0);
    } finally {
      await h.core.dispose();
      await sandbox.close();
    }
  });
});

describe('local proxies in a process that does not run the background jobs', () => {
  it('lists them as running elsewhere and sends changes to the process that runs them', async () => {
    const sandbox = await TestSandbox.start();
    const status = { owner: true, message: null as string | null };
    const h = await createHarness(sandbox, {
      jobsOwnership: { status: () => status, onChange: () => () => undefined },
    });
    try {
      await h.call('demo:start');
      const port = await manualPort(sandbox);
      const local = await h.call('localProxies:add', {
        upstream: { kind: 'port', portId: port.id },
        listenPort: await freePort(),
        start: false,
      });
      status.owner = false;
      status.message = 'Background jobs run in the desktop app (pid 42).';
      const view = await h.call('localProxies:list');
      expect(view).toMatchObject({ runsHere: false, message: status.message });
      expect(view.proxies).toEqual([expect.objectContaining({ id: local.id, state: 'elsewhere' })]);
      for (const change of [
        () => h.call('localProxies:start', { id: local.id }),
        () => h.call('localProxies:remove', { id: local.id }),
        () => h.call('localProxies:add', { upstream: { kind: 'port', portId: port.id } }),
      ]) {
        expect(await change().catch((error: unknown) => error)).toMatchObject({
          code: 'not_job_owner',
          message: expect.stringContaining('pid 42'),
        });
      }
      await expect(viaHttp(local.listen.port)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await h.core.dispose();
      await sandbox.close();
    }
  });
});
