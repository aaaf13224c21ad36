import { type AppNavigate, isAppRoute } from '../../src-shared/contract';

/** The part of a `BrowserWindow` a notification click needs (tests pass a fake). */
export interface NavigableWindow {
  webContents: {
    isLoading(): boolean;
    once(event: 'did-finish-load', listener: () => void): void;
    send(channel: 'app:navigate', payload: AppNavigate): void;
  };
}

/**
 * A click on an OS notification: the window is shown (created when it was closed, with the route
 * in its URL so the page opens there itself), then told where to go through `app:navigate`. A page
 * still loading hears it once it has loaded. Only a route of the known shape is sent.
 */
export function openNotificationRoute(
  route: unknown,
  showWindow: (initialRoute: string | null) => { window: NavigableWindow; created: boolean },
): void {
  const valid = isAppRoute(route) ? route : null;
  const { window, created } = showWindow(valid);
  // A new window reads its route from the URL; one already there is told.
  if (!valid || created) return;
  const send = () => window.webContents.send('app:navigate', { route: valid });
  if (window.webContents.isLoading()) window.webContents.once('did-finish-load', send);
  else send();
}
