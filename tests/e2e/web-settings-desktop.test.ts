import { describe, expect, it } from 'vitest';
import { online, openScreen, useWebSession } from './support/app-page';
import { requireBrowser, seriousAxeViolations } from './support/browser';
import { keyboardReach } from './support/keyboard-reach';

/**
 * Settings → Desktop shows only in the desktop app (web mode has no tray, login items or window to
 * minimize), so the axe scans of web mode never saw it. Here the page is told it runs in the desktop
 * app: the app state's `mode`, as `app:getState` answers it and as `app:stateChanged` pushes it, reads
 * `desktop`; everything else is web mode's own, on the demo (real settings, real ports for the tray
 * pins). The group is then scanned by axe in both themes and checked for the keyboard.
 */

/** Runs in the page before its scripts: the event socket's state pushes say `desktop`. */
function desktopStatePushes(): void {
  const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage')!;
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get(this: WebSocket) {
      return onmessage.get!.call(this) as unknown;
    },
    set(this: WebSocket, handler: ((event: MessageEvent) => void) | null) {
      onmessage.set!.call(
        this,
        handler &&
          ((event: MessageEvent) => {
            const message = JSON.parse(String(event.data)) as {
              channel?: string;
              payload?: { mode?: string };
            };
            if (message.channel !== 'app:stateChanged' || !message.payload) return handler.call(this, event);
            message.payload.mode = 'desktop';
            handler.call(this, new MessageEvent('message', { data: JSON.stringify(message) }));
          }),
      );
    },
  });
}

describe('web mode in a browser: Settings → Desktop, as the desktop app shows it', () => {
  const session = useWebSession({ demo: true });

  it('has no serious axe violation in either theme, and every control is within the keyboard’s reach', async (context) => {
    requireBrowser(context);
    const { page, problems } = await session.browser.newPage();
    await page.addInitScript(desktopStatePushes);
    await page.route(
      (url) => url.pathname === '/rpc/app%3AgetState',
      async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { ok: boolean; value?: { mode: string } };
        if (body.ok && body.value) body.value.mode = 'desktop';
        await route.fulfill({ response, json: body });
      },
    );
    await page.goto(session.web.url);
    await online(page).waitFor();
    await openScreen(page, 'Settings', 'form[aria-labelledby="polling-title"]');
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Desktop' })
      .click();
    const desktop = page.getByRole('region', { name: 'Desktop' });
    await desktop.getByRole('checkbox', { name: /Keep running in the tray/ }).waitFor();
    // The tray pins list the demo's ports once both are read.
    await desktop.getByText(/None pinned\.|\d+ ports? pinned\./).waitFor();
    expect(await desktop.getByRole('checkbox').count()).toBeGreaterThan(3);

    const violations: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
      violations.push(...(await seriousAxeViolations(page)).map((v) => `${scheme}: ${v}`));
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(violations).toEqual([]);
    expect((await keyboardReach(page)).findings).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
