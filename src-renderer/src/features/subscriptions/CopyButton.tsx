import { useState } from 'react';

/** Copies `text` and says so for a moment (announced politely); a refused clipboard is said too. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" className="button button--quiet" aria-label={label} onClick={() => void copy()}>
        Copy
      </button>
      <span role="status" className="muted small">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'The clipboard refused; select and copy' : ''}
      </span>
    </span>
  );
}
