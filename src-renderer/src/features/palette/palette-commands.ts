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
 * best first: the label that is the query, one that ends with it ("Rotate Port 42"), one that starts
 * with it, one holding it whole, then the rest; an action before a "go to" of the same rank. Blank:
 * nothing (the palette shows its hints).
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
    const padded = ` ${label} `;
    // The port named so, then its actions ("Rotate Port 42"), then longer names ("Port 420").
    const rank =
      label === needle
        ? 0
        : padded.endsWith(` ${needle} `)
          ? 1
          : label.startsWith(needle)
            ? 2
            : padded.includes(` ${needle} `)
              ? 3
              : 4;
    ranked.push({ command, rank: rank * 2 + (command.group === 'Actions' ? 0 : 1), index });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return ranked.slice(0, PALETTE_LIMIT).map((entry) => entry.command);
}
