import {
  Activity,
  startTransition,
  useEffect,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { accountKey, useAppStore } from '../features/app/app-store';
import { DemoBanner } from '../features/app/DemoBanner';
import { JobsBanner } from '../features/app/JobsBanner';
import { UpdateBanner } from '../features/updates/UpdateBanner';
import { Navigation } from '../features/app/Navigation';
import { attentionBadgeOf, useAttentionBadges } from '../features/overview/AttentionBadge';
import { Notices } from '../features/app/Notices';
import { SlowCallNotice } from '../features/app/SlowCallNotice';
import { StatusBar } from '../features/app/StatusBar';
import { OnboardingScreen } from '../features/onboarding/OnboardingScreen';
import { CommandPalette } from '../features/palette/CommandPalette';
import { SCREENS, useScreen, type ScreenId } from '../shared/routes';
import { SCREEN_ELEMENTS } from './screen-components';
import { LIST_SCREENS } from './screen-data';
import './window-layout.css';

/** Skips the header and navigation; a plain `#main` link would be read as a screen route. */
function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById('main')?.focus();
  };
  return (
    <a className="skip-link" href="#main" onClick={skip}>
      Skip to content
    </a>
  );
}

function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="app-header">
      <DemoBanner />
      <JobsBanner />
      <UpdateBanner />
      <div className="app-header__bar">
        <span className="brand">Proxy Manager</span>
        {children}
      </div>
    </header>
  );
}

/**
 * Runs `then` once the frame after this one has been painted (a frame callback, then a task after
 * it). Answers a cancel function.
 */
function afterNextPaint(then: () => void): () => void {
  let timeout: number | undefined;
  // The frame callback runs before that frame's layout; the task after it runs once it is painted.
  const frame = window.requestAnimationFrame(() => {
    timeout = window.setTimeout(then, 0);
  });
  return () => {
    window.cancelAnimationFrame(frame);
    if (timeout !== undefined) window.clearTimeout(timeout);
  };
}

/**
 * Moves focus once the new screen has been laid out and painted. Focusing at once (even with
 * `preventScroll`) makes Chromium lay out the whole new screen synchronously, 1,000 table rows
 * included, before the rows can show; after the frame the layout is done and focusing costs nothing.
 * Focus the user has moved meanwhile is left where it is. Answers a cancel function.
 */
function focusAfterNextFrame(target: () => HTMLElement | null | undefined): () => void {
  const focusedBefore = document.activeElement;
  return afterNextPaint(() => {
    if (document.activeElement === focusedBefore) target()?.focus();
  });
}

/**
 * The screen just left, kept (hidden) until the new one has been painted: removing a screen tears
 * down its whole tree (a settings screen of forms: 10 ms of a click on this machine), and hiding a
 * kept one runs its effects' cleanups, work the user should not wait for before seeing where they
 * went. Answers the screen being left, or null.
 */
function useLeavingScreen(screen: ScreenId): ScreenId | null {
  const [shown, setShown] = useState(screen);
  const [leaving, setLeaving] = useState<ScreenId | null>(null);
  // Derived from the route during render (React's pattern for state that follows a prop).
  if (screen !== shown) {
    setShown(screen);
    setLeaving(shown);
  }
  useEffect(() => {
    if (leaving === null) return;
    return afterNextPaint(() => startTransition(() => setLeaving(null)));
  }, [leaving]);
  return leaving === screen ? null : leaving;
}

/**
 * The list screens, kept mounted once visited (hidden, in an `Activity`), and all of them once their
 * lists have been read ahead for this account: going to one shows what is already there, as a
 * desktop app's views do, instead of building a screen of a thousand-row table in the click. Hidden,
 * a screen runs none of its effects (no loads, no tickers, no subscriptions to the stores); shown
 * again they run, and what changed meanwhile renders then. Another account drops the ones kept (with
 * the search typed, the sort and the scroll of the account before), all but the screen on show.
 */
function useKeptScreens(screen: ScreenId, listsReadAheadFor: string | null): readonly ScreenId[] {
  const account = useAppStore((store) => accountKey(store.state));
  const [visited, setVisited] = useState<{ account: string | null; screens: readonly ScreenId[] }>({
    account,
    screens: [],
  });
  // Derived from the account and the route during render (React's pattern for state that follows them).
  if (visited.account !== account) setVisited({ account, screens: [] });
  else if (LIST_SCREENS.includes(screen) && !visited.screens.includes(screen))
    setVisited({ account, screens: [...visited.screens, screen] });
  return listsReadAheadFor !== null && listsReadAheadFor === account ? LIST_SCREENS : visited.screens;
}

export interface AppShellProps {
  /** The account whose lists have been read ahead (`watchNavigation`): its list screens render hidden. */
  listsReadAheadFor?: string | null;
}

export function AppShell({ listsReadAheadFor = null }: AppShellProps) {
  const screen = useScreen();
  useAttentionBadges();
  const leaving = useLeavingScreen(screen);
  const kept = useKeptScreens(screen, listsReadAheadFor);
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  // After a navigation, focus moves to the new screen's heading (not on first load: the page starts at the top).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    return focusAfterNextFrame(() =>
      mainRef.current?.querySelector<HTMLElement>(`[data-screen="${screen}"] h1`),
    );
  }, [screen]);

  return (
    // `app--window`: the app fills the window and the page never scrolls (a list's table does).
    <div className="app app--window">
      <SkipLink />
      <AppHeader>
        <Navigation current={screen} badge={attentionBadgeOf} />
        <CommandPalette />
      </AppHeader>
      <Notices />
      <SlowCallNotice />
      <main id="main" ref={mainRef} tabIndex={-1} className="app-main">
        {/* Keyed slots: the new screen's tree stays where it is when the one left is removed. */}
        {SCREENS.filter(({ id }) => id === screen || id === leaving || kept.includes(id)).map(({ id }) => (
          <Activity key={id} mode={id === screen || id === leaving ? 'visible' : 'hidden'}>
            <div className="screen-slot" data-screen={id} hidden={id !== screen}>
              {SCREEN_ELEMENTS[id]}
            </div>
          </Activity>
        ))}
      </main>
      <StatusBar />
    </div>
  );
}

/** The page while no profile is active: the same frame, without navigation, around the onboarding. */
export function OnboardingShell() {
  return (
    <div className="app">
      <SkipLink />
      <AppHeader />
      <Notices />
      <OnboardingScreen />
      <StatusBar />
    </div>
  );
}
