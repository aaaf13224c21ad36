import { Activity, Fragment } from 'react';
import { createRoot } from 'react-dom/client';
import { screenFromHash, type ScreenId } from '../shared/routes';
import { SCREEN_COMPONENTS } from './screen-components';

/** A window that never goes idle (a busy machine) still drops the warm-up after this long. */
const IDLE_TIMEOUT_MS = 5000;

/**
 * The first visit to a screen after a start ran its code for the first time: on this machine a
 * cold render of the Ports screen took three times a later one (35-40 ms against 12), most of it the
 * engine compiling and learning the screen's code and React's paths through it. So once the lists
 * are read ahead, the list screens not on screen are rendered once, off the page: in a root of its
 * own on an element that is never attached, inside a hidden `Activity` (React renders it at idle
 * priority and mounts none of its effects: no title, no loads, no subscriptions, no tickers). It is
 * dropped once the browser is idle again. Answers a function that drops it at once.
 */
export function warmUpScreens(
  screens: readonly ScreenId[],
  /** Where it renders: an element never attached to the page (a test passes its own to look in). */
  container: Element = document.createElement('div'),
): () => void {
  const current = screenFromHash(window.location.hash);
  const cold = screens.filter((screen) => screen !== current);
  if (cold.length === 0 || typeof window.requestIdleCallback !== 'function') return () => undefined;
  const root = createRoot(container);
  root.render(
    <Activity mode="hidden">
      {cold.map((screen) => (
        <Fragment key={screen}>{SCREEN_COMPONENTS[screen]()}</Fragment>
      ))}
    </Activity>,
  );
  let dropped = false;
  let handle = 0;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    window.cancelIdleCallback(handle);
    root.unmount();
  };
  // Idle twice: React's idle-priority render keeps the browser busy until it is done.
  handle = window.requestIdleCallback(
    () => {
      handle = window.requestIdleCallback(drop, { timeout: IDLE_TIMEOUT_MS });
    },
    { timeout: IDLE_TIMEOUT_MS },
  );
  return drop;
}
