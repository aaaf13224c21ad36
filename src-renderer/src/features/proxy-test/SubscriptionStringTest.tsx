import { useState } from 'react';
import type { ProxyProtocol, ProxyTestTargetInput } from '../../../../src-shared/contract';
import { TestProxyButton } from './TestProxyButton';

interface SubscriptionStringTestProps {
  subscriptions: { id: string; label: string }[];
}

/**
 * Builds a targeted proxy string (country, state, ZIP) of a subscription and tests it. Main builds
 * the username from these fields with the same rules as the string builder and checks them.
 */
export function SubscriptionStringTest({ subscriptions }: SubscriptionStringTestProps) {
  const [subscriptionId, setSubscriptionId] = useState(subscriptions[0]?.id ?? '');
  const [protocol, setProtocol] = useState<ProxyProtocol>('http');
  const [country, setCountry] = useState('');
  const [state, setState] = useState('');
  const [zip, setZip] = useState('');
  if (subscriptions.length === 0) return null;
  const targeting = {
    ...(country.trim() ? { country: country.trim().toUpperCase() } : {}),
    ...(state.trim() ? { state: state.trim() } : {}),
    ...(zip.trim() ? { zip: zip.trim() } : {}),
  };
  const target: ProxyTestTargetInput = {
    kind: 'subscription',
    subscriptionId: subscriptionId || (subscriptions[0]?.id ?? ''),
    protocol,
    ...(Object.keys(targeting).length > 0 ? { targeting } : {}),
  };
  const name = subscriptions.find((s) => s.id === target.subscriptionId)?.label ?? target.subscriptionId;
  return (
    <section className="proxy-string-test" aria-label="Test a proxy string">
      <h2>Test a proxy string</h2>
      <div className="form-row">
        <label>
          Subscription{' '}
          <select value={target.subscriptionId} onChange={(e) => setSubscriptionId(e.target.value)}>
            {subscriptions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Protocol{' '}
          <select value={protocol} onChange={(e) => setProtocol(e.target.value as ProxyProtocol)}>
            <option value="http">HTTP</option>
            <option value="socks5">SOCKS5</option>
          </select>
        </label>
        <label>
          Country{' '}
          <input value={country} onChange={(e) => setCountry(e.target.value)} placeholder="US" size={4} />
        </label>
        <label>
          State{' '}
          <input value={state} onChange={(e) => setState(e.target.value)} placeholder="texas" size={12} />
        </label>
        <label>
          ZIP <input value={zip} onChange={(e) => setZip(e.target.value)} placeholder="90210" size={6} />
        </label>
      </div>
      <TestProxyButton target={target} label={`${name} string`} />
    </section>
  );
}
