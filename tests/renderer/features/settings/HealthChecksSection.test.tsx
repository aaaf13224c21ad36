import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HealthChecksSection } from '../../../../src-renderer/src/features/settings/HealthChecksSection';
import type { SettingsView } from '../../../../src-shared/contract';
import { fail, ok } from '../../support/fake-api';
import { settingsView } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

describe('Settings: health checks', () => {
  let current: SettingsView = settingsView();
  const fake = useFakeApi(() => {
    const defaults = settingsView();
    current = settingsView({
      healthChecks: { ...defaults.healthChecks, checkUrl: 'https://echo.example/ip' },
    });
    return {
      'settings:update': (input) => {
        if (input.healthChecks?.portsEverySeconds === 10) {
          return fail('invalid_input', 'Check the highlighted fields', {
            fields: [
              {
                field: 'healthChecks.portsEverySeconds',
                message: 'At least 30 seconds (or 0 to turn checks off)',
              },
            ],
          });
        }
        current = { ...current, healthChecks: { ...current.healthChecks, ...input.healthChecks } };
        return ok(current);
      },
    };
  });

  it('shows the defaults, sends a change and an empty check URL as null, and shows main’s refusal on the field', async () => {
    render(<HealthChecksSection settings={current} />);
    const section = screen.getByRole('region', { name: 'Health checks' });
    const input = (label: string) => within(section).getByLabelText<HTMLInputElement>(label);
    const every = input('Check each port every');
    expect(every.value).toBe('300');
    expect(input('Down after').value).toBe('3');
    expect(input('Up again after').value).toBe('2');

    fireEvent.change(every, { target: { value: '600' } });
    const url = input('Check URL');
    expect(url.value).toBe('https://echo.example/ip');
    fireEvent.change(url, { target: { value: ' ' } });
    fireEvent.change(within(section).getByLabelText('Self-heal: rotate once after'), {
      target: { value: '4' },
    });
    fireEvent.submit(within(section).getByRole('form', { name: 'Health checks' }));
    await settle();
    expect(fake.current.callsTo('settings:update')).toEqual([
      { healthChecks: { portsEverySeconds: 600, checkUrl: null, selfHealAfter: 4 } },
    ]);

    fireEvent.change(every, { target: { value: '10' } });
    fireEvent.submit(within(section).getByRole('form', { name: 'Health checks' }));
    await settle();
    expect(await within(section).findByText('At least 30 seconds (or 0 to turn checks off)')).toBeTruthy();
  });
});
