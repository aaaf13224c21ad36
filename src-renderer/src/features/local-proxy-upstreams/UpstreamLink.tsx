import type { LocalProxyUpstream } from '../../../../src-shared/contract';
import { portHref } from '../ports/port-route';
import { usePortsStore } from '../ports/ports-store';
import { subscriptionHref } from '../subscriptions/subscription-route';
import { subscriptionLists, useSubscriptionsStore } from '../subscriptions/subscriptions-store';

/**
 * The port or subscription a local proxy forwards to, as a link to its page, named by its label when
 * the list on hand has it (its id otherwise, and as the tooltip). Reads the lists, never asks for them:
 * a screen of local proxies does not read every port.
 */
export function UpstreamLink({ upstream }: { upstream: LocalProxyUpstream }) {
  const portLabel = usePortsStore((store) =>
    upstream.kind === 'port' ? store.ports.data?.find((row) => row.id === upstream.portId)?.label : undefined,
  );
  const subscriptionLabel = useSubscriptionsStore((store) =>
    upstream.kind === 'subscription'
      ? subscriptionLists
          .read(store, subscriptionLists.key('all'))
          ?.data?.find((sub) => sub.id === upstream.subscriptionId)?.label
      : undefined,
  );
  if (upstream.kind === 'port') {
    return (
      <>
        port{' '}
        <a href={portHref(upstream.portId)} title={`Port id: ${upstream.portId}`}>
          {portLabel?.trim() || upstream.portId}
        </a>
      </>
    );
  }
  return (
    <>
      subscription{' '}
      <a
        href={subscriptionHref(upstream.subscriptionId)}
        title={`Subscription id: ${upstream.subscriptionId}`}
      >
        {subscriptionLabel?.trim() || upstream.subscriptionId}
      </a>
    </>
  );
}
