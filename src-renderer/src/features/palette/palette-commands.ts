/**
 * What the command palette (Ctrl/Cmd+K) can go to and run, as plain data: every port, subscription,
 * sub-user and top-up the window holds, each by its label or id, and actions on them. Matching is
 * ours (not cmdk's): a thousand ports make several thousand commands, and only the best few are drawn.
 */

export interface PaletteCommand {
  /** Unique; also what cmdk keys the item by. */
  id: string;
  group: 'Actions' | 'Go to';
  label: string;
  /** Shown after the label, muted (an id, a kind). */
  hint?: string;
  /** More words the command is found by (its id, its kind). */
  keywords?: string;
  run: () => void | Promise<void>;
}

/** At most this many commands are drawn: the list stays instant with 5,000 sub-users. */
const PALETTE_LIMIT = 40;

/**
 * The commands matching every word of `query` (case-insensitive, in the label, hint or keywords),
 * best first: a label that starts with the query, then one holding it whole, then the rest; an
 * action before a "go to" of the same rank. Blank: nothing (the palette shows its hints).
 */
export function matchCommands(commands: readonly PaletteCommand[], query: string): PaletteCommand[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const words = needle.split(/\s+/);
  const ranked: { command: PaletteCommand; rank: number; index: number }[] = [];
  commands.forEach((command, index) => {
    const label = command.label.toLowerCase();
    const text = `${label} ${command.hint ?? ''} ${command.keywords ?? ''}`.toLowerCase();
    if (!words.every((word) => text.includes(word))) return;
    const exact =
      label === needle
        ? 0
        : label.startsWith(needle)
          ? 1
          : ` ${label} `.includes(` ${needle} `)
            ? 2
            : label.includes(needle)
              ? 3
              : 4;
    // A label that ends where the query ends ("Port 42", not "Port 420") comes first among equals.
    const whole = label.endsWith(needle) ? 0 : 1;
    ranked.push({ command, rank: exact * 4 + whole * 2 + (command.group === 'Actions' ? 0 : 1), index });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return ranked.slice(0, PALETTE_LIMIT).map((entry) => entry.command);
}
