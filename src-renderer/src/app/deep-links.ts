import { useAppStore } from '../features/app/app-store';
import { usePortsStore } from '../features/ports/ports-store';
import { subscriptionHref } from '../features/subscriptions/subscription-route';
import { useTopUpWizardStore } from '../features/topups/topup-wizard-store';
import { type DeepLink, hrefOf } from './routes';

/**
 * Shows what a clicked notification is about: the port's detail on the Ports screen, the
 * subscription's detail, or the top-up in the wizard's live view. A top-up that cannot be read is
 * said in the status bar (the Top-ups screen is shown all the same).
 */
export async function followDeepLink(link: DeepLink): Promise<void> {
  switch (link.screen) {
    case 'ports':
      usePortsStore.getState().open(link.portId);
      window.location.hash = hrefOf('ports');
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
