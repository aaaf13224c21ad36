import { useEffect, useRef, useState, type ReactNode } from 'react';

interface PopoverProps {
  /** The button's text (and accessible name). */
  summary: ReactNode;
  summaryLabel?: string;
  className?: string;
  /** Called when it opens (e.g. to read what it lists). */
  onOpen?: () => void;
  /** Rendered only while open: what it lists is worked out only when someone looks. */
  children: () => ReactNode;
}

/**
 * A button that opens a panel under it (`<details>`: keyboard and screen readers get it for free);
 * a click outside or Escape closes it, and Escape gives the focus back to the button.
 */
export function Popover({ summary, summaryLabel, className, onOpen, children }: PopoverProps) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  // Listening for a click outside only while open: a list's toolbar holds several of these, and a
  // kept screen shown again runs every effect of its tree.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);
  return (
    <details
      ref={ref}
      className={`popover ${className ?? ''}`.trim()}
      onToggle={(event) => {
        const isOpen = (event.target as HTMLDetailsElement).open;
        setOpen(isOpen);
        if (isOpen) onOpen?.();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !ref.current?.open) return;
        event.stopPropagation();
        ref.current.open = false;
        ref.current.querySelector('summary')?.focus();
      }}
    >
      <summary className="button button--small popover__summary" aria-label={summaryLabel}>
        {summary}
      </summary>
      <div className="popover__panel">{open ? children() : null}</div>
    </details>
  );
}
