/**
 * The levels of what needs the user, and their words: the same on the screen, in `health`, in the
 * alerts list and in the guide. A leaf with no dependencies, so the CLI's help path stays free of zod.
 */

/** `error`: broken or about to break now; `warning`: needs the user soon; `info`: worth knowing. */
export type AttentionLevel = 'error' | 'warning' | 'info';

/** The level in words, the same on the screen, in `health` and in the guide. */
export const ATTENTION_LEVEL_WORDS = { error: 'Now', warning: 'Soon', info: 'FYI' } as const;
