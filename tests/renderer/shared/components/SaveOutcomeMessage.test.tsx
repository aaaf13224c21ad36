import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SaveOutcomeMessage } from '../../../../src-renderer/src/shared/components/SaveOutcomeMessage';
import type { SaveOutcome } from '../../../../src-renderer/src/shared/save-outcome';

describe('SaveOutcomeMessage', () => {
  const show = (outcome: SaveOutcome) =>
    render(<SaveOutcomeMessage outcome={outcome} failedTitle="Could not export" detail="3 rows." />);

  it('says where the file went, that the dialog was cancelled, or the error on the spot', () => {
    show({ status: 'saved', path: '/home/me/Downloads/a.csv' });
    expect(screen.getByRole('status').textContent).toBe('Saved to /home/me/Downloads/a.csv. 3 rows.');
    screen.getByRole('status').remove();
    show({ status: 'downloaded', fileName: 'a.csv' });
    expect(screen.getByRole('status').textContent).toBe('Downloaded as a.csv. 3 rows.');
    screen.getByRole('status').remove();
    show({ status: 'cancelled' });
    expect(screen.getByRole('status').textContent).toBe('Not saved: the save dialog was cancelled.');
    show({ status: 'failed', error: { code: 'internal_error', message: 'disk full' } });
    expect(screen.getByRole('alert').textContent).toBe('Could not export: disk full');
  });
});
