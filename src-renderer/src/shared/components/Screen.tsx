import { useEffect, useId, type ReactNode } from 'react';

interface ScreenProps {
  title: string;
  /** One line under the title. */
  description?: ReactNode;
  /** The way back to the list (`← All subscriptions`): above the title, on every detail page alike. */
  back?: ReactNode;
  /** Buttons at the right of the title (Refresh, …). */
  actions?: ReactNode;
  children: ReactNode;
  /** A list screen: its table takes the rest of the window's height (and the wheel). */
  fill?: boolean;
}

/**
 * A screen's heading and body. The heading takes focus when the user navigates to the screen, so that
 * keyboard and screen-reader users land at its start; it also names the window.
 */
export function Screen({ title, description, back, actions, children, fill = false }: ScreenProps) {
  // The screen being left stays in the page until the new one is painted (AppShell): ids are each one's.
  const titleId = useId();
  useEffect(() => {
    document.title = `${title} · Proxy Manager`;
  }, [title]);
  return (
    <section className={fill ? 'screen screen--fill' : 'screen'} aria-labelledby={titleId}>
      <div className="screen__header">
        <div>
          {back ? <p className="back-link">{back}</p> : null}
          <h1 id={titleId} tabIndex={-1}>
            {title}
          </h1>
          {description ? <p className="screen__description">{description}</p> : null}
        </div>
        {actions ? <div className="screen__actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
