import { act, screen, within } from '@testing-library/react';

/**
 * Opens a table's popover (a filter, the column chooser) by its summary's label, as a click does.
 * jsdom fires a click's `toggle` a task later, outside `act`; firing it here renders the contents now.
 */
export function openPopover(name: string): HTMLDetailsElement {
  const summary = screen.getByLabelText(name, { selector: 'summary' });
  const details = summary.closest('details') as HTMLDetailsElement;
  act(() => {
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
  });
  return details;
}

/** A column's filter popover and its group of choices both go by the column's name. */
export function openFilter(name: string): HTMLElement {
  return within(openPopover(`Filter by ${name}`)).getByRole('group', { name });
}

/** A filter's choices as shown, label and count run together (`'Running2'`). */
export function choiceTexts(group: HTMLElement): (string | undefined)[] {
  return within(group)
    .getAllByRole('checkbox')
    .map((box) => box.parentElement?.textContent);
}
