import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { IpcResult, ProxyTestResult, ProxyTestTarget } from '../../../../src-shared/contract';
import { SubscriptionStringTest } from '../../../../src-renderer/src/features/proxy-test/SubscriptionStringTest';
import { TestAllResults } from '../../../../src-renderer/src/features/proxy-test/TestAllResults';
import { TestProxyButton } from '../../../../src-renderer/src/features/proxy-test/TestProxyButton';
import { useProxyTestStore } from '../../../../src-renderer/src/features/proxy-test/proxy-test-store';
import { ok } from '../../support/fake-api';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { cities, countries } from '../../support/fixtures';

const result = (target: ProxyTestTarget, overrides: Partial<ProxyTestResult> = {}): ProxyTestResult => ({
  target,
  proxy: { protocol: 'http', host: '127.0.0.1', port: 8080 },
  echoUrl: 'http://ip-echo.sandbox.invalid/',
  checkedAt: '2026-03-10T12:00:00.000Z',
  ok: true,
  exit: { ip: '100.85.1.9', country: 'US', city: 'los_angeles', asn: null, carrier: 'T-Mobile US' },
  timings: { connectMs: 3, firstByteMs: 41, totalMs: 42 },
  failure: null,
  ...overrides,
});

describe('Test this proxy', () => {
  const fake = useFakeApi(() => ({
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': ({ countryCodes }) =>
      ok(Object.fromEntries(countryCodes.map((code) => [code, code === 'US' ? cities() : []]))),
  }));

  it('tests a port by id only and shows its exit IP, place and times', async () => {
    fake.current.handle('proxy:test', ({ target }) => ok(result(target as ProxyTestTarget)));
    render(<TestProxyButton target={{ kind: 'port', portId: 'port_1' }} label="LA" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test proxy LA' }));
    await settle();
    expect(fake.current.callsTo('proxy:test')).toEqual([{ target: { kind: 'port', portId: 'port_1' } }]);
    const shown = screen.getByTestId('proxy-test-result');
    expect(within(shown).getByTestId('exit-ip').textContent).toBe('100.85.1.9');
    await within(shown).findByText('Los Angeles, United States');
    // Catalog names for the exit's place (ids only in the tooltip), not `US · los_angeles`.
    expect(shown.textContent).toContain('Los Angeles, United States · T-Mobile US');
    expect(shown.textContent).not.toContain('los_angeles');
    expect(within(shown).getByText('Los Angeles, United States').getAttribute('title')).toBe(
      'Location id: US · los_angeles',
    );
    expect(shown.textContent).toContain('connect 3 ms');
    expect(shown.textContent).toContain('first byte 41 ms');
  });

  it("explains a refusal in the app's words and the gateway's", async () => {
    fake.current.handle('proxy:test', ({ target }) =>
      ok(
        result(target as ProxyTestTarget, {
          ok: false,
          exit: null,
          failure: {
            kind: 'credentials',
            status: 407,
            message: 'The proxy refused the username or password (407).',
            detail: 'Proxy authentication required',
          },
        }),
      ),
    );
    render(<TestProxyButton target={{ kind: 'port', portId: 'port_1' }} label="LA" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test proxy LA' }));
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('refused the username or password (407)');
    expect(alert.textContent).toContain('Proxy said: Proxy authentication required');
  });

  it('sends a built string as subscription, protocol and targeting (never credentials)', async () => {
    fake.current.handle('proxy:test', ({ target }) => ok(result(target as ProxyTestTarget)));
    render(<SubscriptionStringTest subscriptions={[{ id: 'sub_1', label: 'Price monitoring' }]} />);
    fireEvent.change(screen.getByLabelText('Protocol'), { target: { value: 'socks5' } });
    fireEvent.change(screen.getByLabelText('Country'), { target: { value: 'us' } });
    fireEvent.change(screen.getByLabelText('ZIP'), { target: { value: '90210' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test proxy Price monitoring string' }));
    await settle();
    expect(fake.current.callsTo('proxy:test')).toEqual([
      {
        target: {
          kind: 'subscription',
          subscriptionId: 'sub_1',
          protocol: 'socks5',
          targeting: { country: 'US', zip: '90210' },
        },
      },
    ]);
    expect(screen.getByTestId('exit-ip').textContent).toBe('100.85.1.9');
  });

  it('tests all in one call and keeps each row with its last-checked time', async () => {
    let answer: (value: IpcResult<ProxyTestResult[]>) => void = () => undefined;
    fake.current.handle(
      'proxy:testMany',
      () => new Promise<IpcResult<ProxyTestResult[]>>((resolve) => (answer = resolve)),
    );
    const targets = [
      { target: { kind: 'port' as const, portId: 'port_1' }, label: 'LA' },
      { target: { kind: 'port' as const, portId: 'port_2' }, label: 'Berlin' },
    ];
    render(<TestAllResults targets={targets} what="ports" />);
    fireEvent.click(screen.getByRole('button', { name: 'Test all ports (2)' }));
    await settle();
    expect(screen.getByRole('button', { name: 'Testing…' })).toHaveProperty('disabled', true);
    expect(fake.current.callsTo('proxy:testMany')).toEqual([{ targets: targets.map((t) => t.target) }]);
    answer(
      ok([
        result({ kind: 'port', portId: 'port_1', protocol: 'http' }),
        result(
          { kind: 'port', portId: 'port_2', protocol: 'http' },
          {
            ok: false,
            exit: null,
            timings: { connectMs: 2, firstByteMs: null, totalMs: 15_000 },
            failure: { kind: 'timeout', status: null, message: 'No answer within 15 seconds.', detail: null },
          },
        ),
      ]),
    );
    await settle();
    const table = screen.getByRole('table', { name: 'Proxy test results: ports' });
    const [la, berlin] = within(table).getAllByRole('row').slice(1);
    expect(la?.textContent).toContain('100.85.1.9');
    expect(la?.textContent).toContain('Works');
    expect(within(la!).getByRole('time').getAttribute('datetime')).toBe('2026-03-10T12:00:00.000Z');
    expect(berlin?.textContent).toContain('No answer within 15 seconds.');
    expect(berlin?.textContent).toContain('—');
  });

  it('drops an answer that comes after the account changed (reset)', async () => {
    let answer: (value: IpcResult<ProxyTestResult>) => void = () => undefined;
    fake.current.handle('proxy:test', () => new Promise((resolve) => (answer = resolve)));
    const pending = useProxyTestStore.getState().test({ kind: 'port', portId: 'port_1' });
    useProxyTestStore.getState().reset();
    answer(ok(result({ kind: 'port', portId: 'port_1', protocol: 'http' })));
    await pending;
    expect(useProxyTestStore.getState().entries).toEqual({});
  });
});
