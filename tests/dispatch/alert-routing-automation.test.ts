import { describe, expect, it } from 'vitest';
import { buildTools } from '../../src-main/mcp/mcp-tools';
import { TopUpQuotes } from '../../src-main/mcp/topup-quotes';
import { matchRoute, queryInput } from '../../src-main/rest/rest-routes';
import type { CallChannel } from '../../src-shared/contract';
import { deliveryFixture } from '../core/alert-delivery/support/delivery-fixture';

// MCP and REST are generated from the contract: the delivery log reaches them through it, read-only.

describe('alert delivery on the automation surfaces', () => {
  it('offers the channels and the delivery log to a read-only MCP session in one tool, never adding or removing channels', async () => {
    const f = deliveryFixture();
    const added = await f.call('alertRouting:addChannel', {
      kind: 'webhook',
      name: 'Hook',
      url: 'http://127.0.0.1:9/unused',
    });
    await f.call('alertRouting:testChannel', { channelId: added.channel.id });
    const handlers = f.service.handlers() as Record<string, (input: unknown) => Promise<unknown>>;
    const call = async (channel: CallChannel, input: unknown) => {
      const handler = handlers[channel];
      if (!handler) throw new Error(`not an alertRouting channel: ${channel}`);
      return { ok: true as const, value: await handler(input) };
    };
    const quotes = new TopUpQuotes(() => 0);
    const { listed } = buildTools({ grant: new Set(['read']), readOnly: true }, { call, quotes });
    const deliveries = listed.find((tool) => tool.name === 'alert_deliveries');
    expect(deliveries?.scope).toBe('read');
    const outcome = await deliveries?.run({ deadOnly: true });
    expect(JSON.stringify(outcome)).toContain('Could not reach the webhook');
    expect(JSON.stringify(outcome)).toContain('Hook');
    expect(JSON.stringify(outcome)).not.toContain('whsec_');
    // No tool adds or removes a channel, whatever the grant: that is for the window and the CLI.
    const every = buildTools(
      { grant: new Set(['read', 'manage', 'admin', 'secrets', 'rotate', 'spend']) },
      { call, quotes },
    );
    expect(every.every.map((t) => t.name).filter((name) => /alert/.test(name))).toEqual(['alert_deliveries']);
  });

  it('serves the delivery log as a REST route with its filters in the query', () => {
    const matched = matchRoute('GET', '/v1/alert-routing/deliveries');
    if (!matched || !('route' in matched)) throw new Error('no route for the delivery log');
    expect(matched.route).toMatchObject({ channel: 'alertRouting:deliveries', scope: 'read' });
    expect(queryInput(matched.route, new URLSearchParams('deadOnly=true&limit=5'))).toEqual({
      deadOnly: true,
      limit: 5,
    });
    expect(matchRoute('POST', '/v1/alert-routing/add-channel')).toBeNull();
  });
});
