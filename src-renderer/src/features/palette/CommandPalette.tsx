import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState } from 'react';
import { callApi } from '../../api/window-api';
import { hrefOf, SCREENS } from '../../shared/routes';
import { portHref } from '../ports/port-route';
import { usePortsStore } from '../ports/ports-store';
import { subscriptionHref } from '../subscriptions/subscription-route';
import { useSubscriptionsStore } from '../subscriptions/subscriptions-store';
import { useTopUpWizardStore } from '../topups/topup-wizard-store';
import { useTopUpsStore } from '../topups/topups-store';
import { matchCommands, type PaletteCommand } from './palette-commands';
import './command-palette.css';

const go = (hash: string) => {
  window.location.hash = hash;
};

/** The port's proxy string (`host:port:user:pass`): read whole (`ports:get`), copied, never kept. */
async function copyPortProxyString(portId: string): Promise<string> {
  const result = await callApi((api) => api.ports.get({ portId }));
  if (!result.ok) return `Could not read the port: ${result.error.message}`;
  const port = result.value;
  await navigator.clipboard.writeText(
    `${port.endpoint.host}:${port.endpoint.httpPort}:${port.username}:${port.password}`,
  );
  return `Copied the proxy string of ${port.label || port.id}.`;
}

/** Every command the window can offer now, from what its stores hold. Built only while open. */
function useCommands(open: boolean, say: (message: string) => void): PaletteCommand[] {
  const ports = usePortsStore((store) => (open ? store.ports.data : null));
  const paused = usePortsStore((store) => store.schedules.data?.paused ?? null);
  const lists = useSubscriptionsStore((store) => (open ? store.lists : null));
  const subUsers = useSubscriptionsStore((store) => (open ? store.subUsers : null));
  const topUps = useTopUpsStore((store) => (open ? store.page.data : null));
  return useMemo(() => {
    if (!open) return [];
    const { rotate, pauseSchedules } = usePortsStore.getState();
    const commands: PaletteCommand[] = [
      {
        id: 'action:top-up',
        group: 'Actions',
        label: 'Top up',
        hint: 'add funds',
        keywords: 'balance crypto pay wizard',
        run: () => {
          useTopUpWizardStore.getState().start();
          go(hrefOf('topups'));
        },
      },
      {
        id: 'action:pause',
        group: 'Actions',
        label: paused ? 'Resume schedules' : 'Pause schedules',
        hint: 'every app schedule',
        keywords: 'rotation schedule',
        run: async () => {
          const result = await pauseSchedules(!paused);
          say(result.ok ? (paused ? 'Schedules resumed.' : 'Schedules paused.') : result.error.message);
        },
      },
      ...SCREENS.map((screen): PaletteCommand => ({
        id: `screen:${screen.id}`,
        group: 'Go to',
        label: screen.label,
        hint: 'screen',
        run: () => go(hrefOf(screen.id)),
      })),
    ];
    for (const port of ports ?? []) {
      const name = port.label || port.id;
      commands.push(
        {
          id: `port:${port.id}`,
          group: 'Go to',
          label: name,
          hint: port.id,
          keywords: 'port',
          run: () => go(portHref(port.id)),
        },
        {
          id: `rotate:${port.id}`,
          group: 'Actions',
          label: `Rotate ${name}`,
          hint: port.id,
          run: () => {
            go(portHref(port.id));
            void rotate(port.id);
          },
        },
        {
          id: `copy:${port.id}`,
          group: 'Actions',
          label: `Copy proxy string ${name}`,
          hint: port.id,
          run: async () => say(await copyPortProxyString(port.id)),
        },
      );
    }
    const seen = new Set<string>();
    for (const list of Object.values(lists ?? {}))
      for (const subscription of list?.data ?? []) {
        if (seen.has(subscription.id)) continue;
        seen.add(subscription.id);
        commands.push({
          id: `subscription:${subscription.id}`,
          group: 'Go to',
          label: subscription.label || subscription.id,
          hint: subscription.id,
          keywords: 'subscription',
          run: () => go(subscriptionHref(subscription.id)),
        });
      }
    for (const [subscriptionId, loadable] of Object.entries(subUsers ?? {}))
      for (const user of loadable?.data?.rows ?? [])
        commands.push({
          id: `sub-user:${user.id}`,
          group: 'Go to',
          label: user.label || user.username,
          hint: `sub-user ${user.id}`,
          keywords: user.username,
          run: () => go(subscriptionHref(subscriptionId)),
        });
    for (const topUp of topUps?.data ?? [])
      commands.push({
        id: `topup:${topUp.id}`,
        group: 'Go to',
        label: `Top-up ${topUp.amountUsd} USD (${topUp.status})`,
        hint: topUp.id,
        keywords: `topup top-up ${topUp.coin}`,
        run: () => {
          useTopUpWizardStore.getState().openTopUp(topUp);
          go(hrefOf('topups'));
        },
      });
    return commands;
  }, [open, ports, paused, lists, subUsers, topUps, say]);
}

/**
 * The window holds one page of top-ups: a single word that matches nothing it holds may be the id of
 * another one, read from the service when chosen (as a deep link to a top-up is).
 */
function topUpByIdFallback(query: string, say: (message: string) => void): PaletteCommand[] {
  const id = query.trim();
  if (!id || /\s/.test(id)) return [];
  return [
    {
      id: `topup-by-id:${id}`,
      group: 'Go to',
      label: `Open top-up ${id}`,
      hint: 'by its id, from the service',
      run: async () => {
        go(hrefOf('topups'));
        const result = await useTopUpWizardStore.getState().openTopUpById(id);
        if (!result.ok) say(`Cannot open the top-up ${id}: ${result.error.message}`);
      },
    },
  ];
}

/**
 * Ctrl/Cmd+K: go to any port, subscription, sub-user or top-up by its label or id, or run an action
 * on it ("Rotate Social QA", "Copy proxy string …", "Top up", "Pause schedules"). On `cmdk` (its
 * dialog, input, list and keyboard), with our own matching so that thousands of items stay instant.
 */
export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // jsdom has neither showModal nor close: the open attribute alone shows it there.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      // showModal focuses the first focusable element, cmdk's root (tabindex -1), where typed keys go
      // nowhere (React's autoFocus ran while the dialog was still closed): the box takes the focus.
      dialog.querySelector<HTMLInputElement>('input')?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((current) => !current);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (!message) return;
    const timer = window.setTimeout(() => setMessage(null), 5000);
    return () => window.clearTimeout(timer);
  }, [message]);
  const commands = useCommands(open, setMessage);
  const shown = useMemo(() => {
    const found = matchCommands(commands, query);
    return found.length ? found : topUpByIdFallback(query, setMessage);
  }, [commands, query]);
  const run = (command: PaletteCommand) => {
    setOpen(false);
    setQuery('');
    void command.run();
  };
  return (
    <>
      <button
        type="button"
        className="button button--small palette-opener"
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => setOpen(true)}
      >
        Go to or run… <kbd>Ctrl K</kbd>
      </button>
      {/* A native modal dialog: the browser traps focus, closes it on Escape and puts it on top.
          (cmdk's own dialog injects a <style> element, which the window's CSP refuses.) */}
      <dialog
        ref={dialogRef}
        className="palette"
        aria-label="Command palette"
        onClose={() => {
          setOpen(false);
          setQuery('');
        }}
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself, outside its content) closes it.
          if (event.target === event.currentTarget) setOpen(false);
        }}
      >
        {open ? (
          <Command label="Command palette" shouldFilter={false}>
            <Command.Input
              value={query}
              onValueChange={setQuery}
              placeholder="A port, subscription, sub-user or top-up by label or id, or an action"
              aria-label="Go to or run"
              autoFocus
            />
            <Command.List className="palette__list">
              {query.trim() ? <Command.Empty>Nothing matches “{query.trim()}”.</Command.Empty> : null}
              {!query.trim() ? (
                <p className="muted small palette__hint">
                  Type a label or an id: “Port 12”, “Rotate Social QA”, “Copy proxy string”, “Top up”, “Pause
                  schedules”.
                </p>
              ) : null}
              {(['Actions', 'Go to'] as const).map((group) => {
                const inGroup = shown.filter((command) => command.group === group);
                return inGroup.length ? (
                  <Command.Group key={group} heading={group}>
                    {inGroup.map((command) => (
                      <Command.Item key={command.id} value={command.id} onSelect={() => run(command)}>
                        <span>{command.label}</span>
                        {command.hint ? (
                          <span className="muted small palette__item-hint">{command.hint}</span>
                        ) : null}
                      </Command.Item>
                    ))}
                  </Command.Group>
                ) : null;
              })}
            </Command.List>
          </Command>
        ) : null}
      </dialog>
      {message ? (
        <p className="palette-toast" role="status">
          {message}
        </p>
      ) : (
        <span className="visually-hidden" role="status" />
      )}
    </>
  );
}
