import { useState } from 'react';

/** Writes to the clipboard; the desktop preload and web mode both have `navigator.clipboard`. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

interface CopyButtonProps {
  /** The text, or a function that fetches it only when the user asks (a secret kept in main). */
  text: string | (() => Promise<string | null>);
  /** What is copied, for the button's name: "Copy host:port:user:pass". */
  what: string;
  label?: string;
}

/** A copy button that says whether the copy worked (a clipboard can be refused). */
export function CopyButton({ text, what, label = 'Copy' }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    const value = typeof text === 'string' ? text : await text();
    if (value === null) return;
    setState((await copyText(value)) ? 'copied' : 'failed');
  };
  return (
    <button
      type="button"
      className="button button--small"
      aria-label={`Copy ${what}`}
      onClick={() => void copy()}
    >
      {label}
      <span role="status" className="copy-status">
        {state === 'copied' ? ' ✓ Copied' : state === 'failed' ? ' ✗ Copy failed' : ''}
      </span>
    </button>
  );
}
