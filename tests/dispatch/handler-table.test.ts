import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipcCalls } from '../../src-shared/contract';
import { createIpcHandlers } from '../../src-main/dispatch/handler-table';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../core/support/core-harness';

describe('the handler table merged from the domain services', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    h = await createHarness(sandbox);
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  it('has exactly one handler per contract call, each a function', () => {
    const handlers = createIpcHandlers(h.core) as unknown as Record<string, unknown>;
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(ipcCalls).sort());
    for (const [channel, handler] of Object.entries(handlers))
      expect(typeof handler, channel).toBe('function');
  });

  it('gives each domain’s channels to that domain’s service only', () => {
    for (const [domain, service] of Object.entries(h.core.services)) {
      for (const channel of Object.keys(service.handlers())) expect(channel.split(':')[0]).toBe(domain);
    }
  });
});
