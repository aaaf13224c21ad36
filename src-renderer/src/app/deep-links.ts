import { useAppStore } from '../features/app/app-store';
import { portHref } from '../features/ports/port-route';
import { subscriptionHref } from '../features/subscriptions/subscription-route';
import { useTopUpWizardStore } from '../features/topups/topup-wizard-store';
import { hrefOf } from '../shared/routes';

/**
 * One thing a route opens: the overview, the local proxies, a port's detail, a subscription's detail, a top-up in the
 * wizard's live view.
 */
export type DeepLink =
  | { screen: 'overview' }
  | { screen: 'local-proxies' }
  | { screen: 'ports'; portId: string }
  | { screen: 'subscriptions'; subscriptionId: string }
  | { screen: 'topups'; topUpId: string };

// The shape main sends (`AppRoute`: `/ports/<URI-encoded id>`, `/overview` or `/local-proxies`), with or
// without the fragment's `#`.
const DEEP_LINK = /^#?\/(ports|subscriptions|topups)\/([A-Za-z0-9%._~-]{1,300})$/;

/**
 * Reads a route from main (`app:navigate`) or the window's first URL; null for anything else.
 * Checked here again: the page trusts no shape it did not make.
 */
export function parseDeepLink(route: unknown): DeepLink | null {
  if (typeof route !== 'string') return null;
  if (/^#?\/overview$/.test(route)) return { screen: 'overview' };
  if (/^#?\/local-proxies$/.test(route)) return { screen: 'local-proxies' };
  const match = DEEP_LINK.exec(route);
  if (!match?.[1] || !match[2]) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[2]);
  } catch {
    return null; // a broken %-escape
  }
  if (match[1] === 'ports') return { screen: 'ports', portId: id };
  if (match[1] === 'subscriptions') return { screen: 'subscriptions', subscriptionId: id };
  return { screen: 'topups', topUpId: id };
}

/**
 * Shows what a clicked notification is about: the port's detail on the Ports screen, the
 * subscription's detail, or the top-up in the wizard's live view. A top-up that cannot be read is
 * said in the status bar (the Top-ups screen is shown all the same).
 */
export async function followDeepLink(link: DeepLink): Promise<void> {
  switch (link.screen) {
    case 'overview':
    case 'local-proxies':
      window.location.hash = hrefOf(link.screen);
      return;
    case 'ports':
      window.location.hash = portHref(link.portId);
      return;
    case 'subscriptions':
      window.location.hash = subscriptionHref(link.subscriptionId);
      return;
    case 'topups': {
      window.location.hash = hrefOf('topups');
      const result = await useTopUpWizardStore.getState().openTopUpById(link.topUpId);
      if (!result.ok) {
        useAppStore.setState({
          actionError: { ...result.error, message: `Cannot open the top-up: ${result.error.message}` },
        });
      }
      return;
    }
  }
}
