import type { Page } from 'playwright-core';

/**
 * "Keyboard alone can reach every action", checked on the page as it is: every element a mouse can
 * act on is found (native controls, ARIA widget roles, and anything with a click handler, React's
 * included, or a pointer cursor), each must be a tab stop or reachable through one (a roving group's
 * stop: the table's active row, the selected tab, a combobox's options), none may sit inside
 * `aria-hidden` or `inert`, and a real Tab walk through the page (or the open modal) must visit
 * every tab stop.
 */

export interface KeyboardReach {
  /** What can be clicked but not reached, or is reached but not told apart: readable lines. */
  findings: string[];
  /** Tab stops the walk expected (a radio group counts once). */
  stops: number;
  /** Elements the walk focused, in order (readable), for failure messages. */
  walked: string[];
}

/**
 * Runs in the page (as source text: the test runner's helpers never reach the page). Marks each
 * expected tab stop with `data-kbd-stop` and answers the findings of the static audit.
 */
const AUDIT = String.raw`(() => {
  const WIDGET_ROLES = ['button', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox', 'radio',
    'switch', 'option', 'link', 'treeitem', 'slider', 'spinbutton', 'combobox', 'textbox', 'searchbox'];
  const NATIVE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [contenteditable="true"]';
  const HANDLERS = ['onClick', 'onDoubleClick', 'onMouseDown', 'onMouseUp', 'onPointerDown', 'onPointerUp'];
  const KEY_HANDLERS = ['onKeyDown', 'onKeyUp', 'onKeyPress'];
  const reactProps = (element) => {
    const key = Object.keys(element).find((name) => name.startsWith('__reactProps$'));
    return key ? element[key] : null;
  };
  const hasHandler = (element, names) => {
    const props = reactProps(element);
    return Boolean(props && names.some((name) => typeof props[name] === 'function'));
  };
  const describe = (element) => {
    const role = element.getAttribute('role');
    const name = (element.getAttribute('aria-label') || element.labels?.[0]?.textContent ||
      element.getAttribute('title') || element.textContent || element.getAttribute('placeholder') || '')
      .replace(/\s+/g, ' ').trim().slice(0, 60);
    const heading = element.closest('section, form, [role="dialog"], [role="alertdialog"], nav, main, header, footer');
    const where = heading ? (heading.getAttribute('aria-label') || heading.querySelector('h1, h2, h3')?.textContent
      || heading.tagName.toLowerCase()).replace(/\s+/g, ' ').trim().slice(0, 40) : 'page';
    return element.tagName.toLowerCase() + (role ? '[role=' + role + ']' : '') + ' "' + name + '" in ' + where;
  };
  const shown = (element) => element.checkVisibility({ checkVisibilityCSS: true }) &&
    element.getClientRects().length > 0;
  const modal = [...document.querySelectorAll('[aria-modal="true"], dialog[open]')]
    .filter((element) => shown(element) && (element.tagName !== 'DIALOG' || element.matches(':modal')))
    .at(-1);
  const scope = modal ?? document.body;
  const disabled = (element) => element.matches(':disabled');
  const nativeFocusable = (element) => element.matches(NATIVE);
  const hiddenFromAll = (element) => element.closest('[aria-hidden="true"], [inert]');

  // Everything a pointer can act on.
  const candidates = new Set();
  for (const element of scope.querySelectorAll('*')) {
    if (!(element instanceof HTMLElement) && !(element instanceof SVGElement)) continue;
    const role = element.getAttribute('role');
    const clickable =
      element.matches(NATIVE) ||
      (role && WIDGET_ROLES.includes(role)) ||
      element.hasAttribute('onclick') ||
      // Inside an image (a chart's canvas and legend) a library's own listeners read the pointer for
      // a readout of figures its table gives; the chart takes no click there (BarChart).
      (element.hasAttribute('data-kbd-native-click') && !element.closest('[role="img"]')) ||
      hasHandler(element, HANDLERS);
    let pointer = false;
    if (!clickable && element.parentElement) {
      // Where a pointer cursor starts (its children inherit it): something that looks clickable.
      pointer = getComputedStyle(element).cursor === 'pointer' &&
        getComputedStyle(element.parentElement).cursor !== 'pointer';
    }
    if (clickable || pointer) candidates.add(element);
  }

  document.querySelectorAll('[data-kbd-stop]').forEach((element) => element.removeAttribute('data-kbd-stop'));
  const findings = [];
  const stops = new Map();
  const stopOf = (element, id) => {
    if (!stops.has(element)) stops.set(element, id ?? String(stops.size));
    return stops.get(element);
  };
  const tabbable = (element) => element.tabIndex >= 0 && !disabled(element) && shown(element) && !hiddenFromAll(element);
  /** A roving group's stop: the one of the element's siblings of its kind that Tab lands on. */
  const rovingStop = (element) => {
    const parent = element.parentElement;
    if (!parent) return null;
    const role = element.getAttribute('role');
    const kin = [...parent.children].filter((other) =>
      other.tagName === element.tagName && other.getAttribute('role') === role);
    const stop = kin.filter((other) => other.tabIndex >= 0 && shown(other));
    return kin.length > 1 && stop.length === 1 ? stop[0] : null;
  };

  for (const element of candidates) {
    if (!shown(element) || disabled(element)) continue;
    // A label (and what it holds) clicks its control, which is checked in its own right.
    if (!nativeFocusable(element) && element.closest('label')?.control) continue;
    // A container whose handler serves what it holds (a row's pointer-down on the body of a table,
    // a panel stopping a click from closing it): the controls inside are checked themselves.
    if (!nativeFocusable(element) && !element.getAttribute('role') &&
        [...element.querySelectorAll('*')].some((inner) => candidates.has(inner) && tabbable(inner))) continue;
    if (hiddenFromAll(element)) {
      findings.push('inside aria-hidden or inert, yet clickable: ' + describe(element));
      continue;
    }
    if (element.tabIndex >= 0) {
      // Focusable; a made-up control must also answer a key, or Enter does nothing.
      if (!nativeFocusable(element) && hasHandler(element, HANDLERS)) {
        let keyed = false;
        for (let at = element; at && at !== document.body; at = at.parentElement)
          if (hasHandler(at, KEY_HANDLERS)) keyed = true;
        if (!keyed) findings.push('focusable but no key acts on it: ' + describe(element));
      }
      if (element instanceof HTMLInputElement && element.type === 'radio' && element.name) {
        const group = element.form ?? document;
        stopOf(element, 'radio:' + element.name + ':' + [...group.querySelectorAll('input[type="radio"]')]
          .findIndex((radio) => radio.name === element.name));
      } else {
        stopOf(element);
      }
      continue;
    }
    // Not a tab stop itself: reached through a roving group's stop?
    const sibling = rovingStop(element);
    if (sibling) {
      stopOf(sibling);
      continue;
    }
    // A row's own link or checkbox, left out of the Tab order on purpose: the rows are a roving group
    // whose body answers keys (Enter opens the row, Space selects it, in aria-selected).
    const row = element.closest('tbody > tr');
    const rowKeys = row && hasHandler(row.parentElement, KEY_HANDLERS);
    const rowAction = element.matches('a[href]') ||
      (element.matches('input[type="checkbox"]') && row?.hasAttribute('aria-selected'));
    if (row && rowKeys && rowAction) {
      const active = row.tabIndex >= 0 ? row : rovingStop(row);
      if (active) {
        stopOf(active);
        continue;
      }
    }
    // An option of a list a focused combobox drives (aria-activedescendant).
    const listbox = element.getAttribute('role') === 'option' ? element.closest('[role="listbox"]') : null;
    const combobox = listbox?.id ? scope.querySelector('[role="combobox"][aria-controls~="' + listbox.id + '"]') : null;
    if (combobox && tabbable(combobox)) {
      stopOf(combobox);
      continue;
    }
    findings.push('clickable but not focusable (tabIndex ' + element.tabIndex + '): ' + describe(element));
  }
  for (const [element, id] of stops) element.setAttribute('data-kbd-stop', id);
  return { findings, stops: new Set(stops.values()).size, modal: modal ? describe(modal) : null };
})()`;

/** Installs a focus recorder: every element focused gets an id, and the order is kept. */
const RECORD = String.raw`(() => {
  const ids = new WeakMap();
  let next = 0;
  const log = [];
  const record = (event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (!ids.has(target)) ids.set(target, next++);
    log.push({ id: ids.get(target), stop: target.getAttribute('data-kbd-stop'),
      text: target.tagName.toLowerCase() + ' ' + (target.getAttribute('aria-label') || target.textContent || '')
        .replace(/\s+/g, ' ').trim().slice(0, 50) });
  };
  document.addEventListener('focusin', record, true);
  window.__kbdWalk = { log, stop: () => document.removeEventListener('focusin', record, true) };
})()`;

interface Focused {
  id: number;
  stop: string | null;
  text: string;
}

/** The pointer events a listener acts on: what a click, a press or a double click starts. */
const POINTER_EVENTS = new Set([
  'click',
  'dblclick',
  'auxclick',
  'mousedown',
  'mouseup',
  'pointerdown',
  'pointerup',
]);

/**
 * Marks (`data-kbd-native-click`) the elements a library listens on for a click with its own
 * `addEventListener` (a chart's legend, say), which the page cannot see but the DevTools protocol can.
 * React's listeners all sit on its root and `document`, which are left out: its handlers are read
 * from the elements' props in the page.
 */
async function markNativeClickListeners(page: Page): Promise<void> {
  const client = await page.context().newCDPSession(page);
  try {
    await page.evaluate(() =>
      document.querySelectorAll('[data-kbd-native-click]').forEach((element) => {
        element.removeAttribute('data-kbd-native-click');
      }),
    );
    await client.send('DOM.getDocument', { depth: 0 });
    const root = await client.send('Runtime.evaluate', { expression: 'document.getElementById("root")' });
    const { listeners } = await client.send('DOMDebugger.getEventListeners', {
      objectId: root.result.objectId!,
      depth: -1,
      pierce: true,
    });
    const nodes = new Set(
      listeners
        .filter((listener) => POINTER_EVENTS.has(listener.type))
        .map((listener) => listener.backendNodeId),
    );
    for (const backendNodeId of nodes) {
      if (backendNodeId === undefined) continue;
      const { object } = await client.send('DOM.resolveNode', { backendNodeId });
      if (!object.objectId) continue;
      await client.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration:
          'function () { if (this.id !== "root" && this.setAttribute) this.setAttribute("data-kbd-native-click", ""); }',
      });
    }
  } finally {
    await client.detach();
  }
}

/**
 * The audit and a Tab walk: Tab is pressed until the focus comes back to the first element it
 * reached (a whole round of the page, or of the open modal, whatever the start), then every expected
 * tab stop must have been visited. The focus is put back where it was.
 */
export async function keyboardReach(page: Page): Promise<KeyboardReach> {
  await markNativeClickListeners(page);
  const audit = await page.evaluate<{ findings: string[]; stops: number }>(AUDIT);
  const expected = await page.evaluate<string[]>(() =>
    [...document.querySelectorAll('[data-kbd-stop]')].map((element) =>
      element.getAttribute('data-kbd-stop')!,
    ),
  );
  const before = await page.evaluateHandle(() => document.activeElement);
  await page.evaluate(RECORD);
  const log = () =>
    page.evaluate<Focused[]>(() => (window as unknown as { __kbdWalk: { log: Focused[] } }).__kbdWalk.log);
  // A round of the page is one press per stop (a radio group's or a table's other members are not
  // stops); twice that and some room is more than any round, so a walk that never comes back fails.
  const maxPresses = audit.stops * 2 + 60;
  let presses = 0;
  let walk: Focused[] | null = null;
  while (!walk && presses < maxPresses) {
    for (let i = 0; i < 10; i += 1) await page.keyboard.press('Tab');
    presses += 10;
    const seen = await log();
    const first = seen[0];
    const round = first ? seen.findIndex((focused, index) => index > 0 && focused.id === first.id) : -1;
    if (round > 0) walk = seen.slice(0, round);
  }
  const seen = walk ?? (await log());
  await page.evaluate(() => (window as unknown as { __kbdWalk: { stop: () => void } }).__kbdWalk.stop());
  await before.evaluate((element) => (element as HTMLElement | null)?.focus?.());
  await before.dispose();

  const findings = [...audit.findings];
  if (seen.length === 0) findings.push('Tab focused nothing');
  else if (!walk) findings.push(`Tab never came back to where it started within ${presses} presses`);
  const visited = new Set(seen.map((focused) => focused.stop).filter((stop) => stop !== null));
  const missed = [...new Set(expected)].filter((stop) => !visited.has(stop));
  if (missed.length > 0) {
    const described = await page.evaluate<string[], string[]>(
      (ids) =>
        ids.map((id) => {
          const element = document.querySelector(`[data-kbd-stop="${CSS.escape(id)}"]`);
          const name = (element?.getAttribute('aria-label') ?? element?.textContent ?? '').replace(
            /\s+/g,
            ' ',
          );
          return element ? `${element.tagName.toLowerCase()} "${name.trim().slice(0, 60)}"` : id;
        }),
      missed,
    );
    for (const text of described) findings.push(`a tab stop Tab never visited: ${text}`);
  }
  return { findings, stops: audit.stops, walked: seen.map((focused) => focused.text) };
}
