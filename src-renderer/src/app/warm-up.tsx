import { Activity, Fragment } from 'react';
import { createRoot } from 'react-dom/client';
import { screenFromHash, type ScreenId } from '../shared/routes';
import { SCREEN_COMPONENTS } from './screen-components';

/** A window that never goes idle (a busy machine) still moves on (and drops the warm-up) after this long. */
const IDLE_TIMEOUT_MS = 5000;

/**
 * One render leaves the screens' code where the engine first compiled it: after a reload, the first
 * click on Ports still rendered its rows in 35 ms against 13 for a later visit. Four rounds brought it
 * to 18-20 ms (top-ups 35 to 21); the rounds take about 0.2 s of idle time once after a start
 * (`npm run bench:real-path`).
 */
const WARM_UP_ROUNDS = 4;

/**
 * The first visit to a screen after a start ran its code for the first time: on this machine a
 * cold render of the Ports screen took three times a later one (35-40 ms against 12), most of it the
 * engine compiling and learning the screen's code and React's paths through it. So once the lists
 * are read ahead, the list screens not on screen are rendered off the page: in a root of its
 * own on an element that is never attached, inside a hidden `Activity` (React renders it at idle
 * priority and mounts none of its effects: no title, no loads, no subscriptions, no tickers). It is
 * rendered afresh `rounds` times, each once the browser is idle again, then dropped. Answers a
 * function that drops it at once.
 */
export function warmUpScreens(
  screens: readonly ScreenId[],
  /** Where it renders: an element never attached to the page (a test passes its own to look in). */
  container: Element = document.createElement('div'),
  rounds = WARM_UP_ROUNDS,
): () => void {
  const current = screenFromHash(window.location.hash);
  const cold = screens.filter((screen) => screen !== current);
  if (cold.length === 0 || typeof window.requestIdleCallback !== 'function') return () => undefined;
  const root = createRoot(container);
  let round = 0;
  // A new key each round: the screens mount afresh, as a visit does, rather than re-render.
  const render = () =>
    root.render(
      <Activity mode="hidden" key={round}>
        {cold.map((screen) => (
          <Fragment key={screen}>{SCREEN_COMPONENTS[screen]()}</Fragment>
        ))}
      </Activity>,
    );
  render();
  let dropped = false;
  let handle = 0;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    window.cancelIdleCallback(handle);
    root.unmount();
  };
  // Each step waits until the browser is idle: React's idle-priority render keeps it busy until done.
  const next = () => {
    round += 1;
    if (round < rounds) render();
    handle = window.requestIdleCallback(round < rounds ? next : drop, { timeout: IDLE_TIMEOUT_MS });
  };
  handle = window.requestIdleCallback(next, { timeout: IDLE_TIMEOUT_MS });
  return drop;
}
