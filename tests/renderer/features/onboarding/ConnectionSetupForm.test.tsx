import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { OnboardingScreen } from '../../../../src-renderer/src/features/onboarding/OnboardingScreen';
import { useOnboardingStore } from '../../../../src-renderer/src/features/onboarding/onboarding-store';
import { deferred, fail, ok } from '../../support/fake-api';
import {
  appState,
  demoProfile,
  noProfileState,
  passedTest,
  profile,
  rejectedKeyTest,
} from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const KEY = 'live_key_0123456789a1b2';
const URL = 'https://api.example.com/api/v1';

function fill(values: { key?: string; url?: string; name?: string }) {
  if (values.key !== undefined)
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: values.key } });
  if (values.url !== undefined)
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: values.url } });
  if (values.name !== undefined)
    fireEvent.change(screen.getByLabelText('Profile name'), { target: { value: values.name } });
}

describe('onboarding', () => {
  const fake = useFakeApi(() => ({ 'connection:test': () => ok(passedTest()) }));

  function renderOnboarding() {
    useAppStore.getState().applyState(noProfileState());
    return render(<OnboardingScreen />);
  }

  it('hides the key by default and shows it on request', () => {
    renderOnboarding();
    const input = screen.getByLabelText<HTMLInputElement>('API key');
    expect(input.type).toBe('password');
    const toggle = screen.getByRole('button', { name: 'Show API key' });
    fireEvent.click(toggle);
    expect(input.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide API key' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('tests the connection and shows the sentence, the adopted URL reading, the probes and the key verdict', async () => {
    renderOnboarding();
    fill({ key: `  ${KEY} `, url: URL });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const report = await screen.findByTestId('connection-test-result');
    expect(fake.current.callsTo('connection:test')).toEqual([{ baseUrl: URL, apiKey: KEY }]);
    expect(report.textContent).toContain('Connected. Adopted base URL without /v1.');
    expect(report.textContent).toContain('without the repeated /v1');
    expect(within(report).getByTestId('key-verdict').textContent).toContain('Accepted.');
    expect(within(report).getByText('Probes (2)')).toBeTruthy();
  });

  it('says clearly that the service rejected a wrong key', async () => {
    fake.current.handle('connection:test', () => ok(rejectedKeyTest()));
    renderOnboarding();
    fill({ key: 'wrong-key', url: URL });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const verdict = await screen.findByTestId('key-verdict');
    expect(verdict.textContent).toBe('Not accepted. The service rejected this API key.');
    expect(screen.getByTestId('connection-test-result').getAttribute('role')).toBe('alert');
  });

  it('shows field errors from main next to their fields', async () => {
    fake.current.handle('connection:test', () =>
      fail('invalid_input', 'Some fields are invalid', {
        fields: [
          { field: 'baseUrl', message: 'Enter a full http:// or https:// URL' },
          { field: 'apiKey', message: 'Paste your API key' },
        ],
      }),
    );
    renderOnboarding();
    fill({ url: 'api.example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const urlInput = screen.getByLabelText('Base URL');
    await screen.findByText('Enter a full http:// or https:// URL');
    expect(urlInput.getAttribute('aria-invalid')).toBe('true');
    const describedBy = urlInput.getAttribute('aria-describedby') ?? '';
    expect(describedBy.split(' ').map((id) => document.getElementById(id)?.textContent)).toContain(
      'Enter a full http:// or https:// URL',
    );
    expect(screen.getByLabelText('API key').getAttribute('aria-invalid')).toBe('true');

    // Editing a field clears its error only.
    fill({ url: URL });
    expect(screen.queryByText('Enter a full http:// or https:// URL')).toBeNull();
    expect(screen.getByText('Paste your API key')).toBeTruthy();
  });

  it('saves with the adopted reading in the keychain, testing first when the inputs were not tested', async () => {
    fake.current.handle('profiles:create', () => ok(appState()));
    renderOnboarding();
    fill({ key: KEY, url: URL, name: 'Work' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.current.calls.map((call) => call.channel)).toEqual(['connection:test', 'profiles:create']);
    expect(fake.current.callsTo('profiles:create')).toEqual([
      {
        name: 'Work',
        baseUrl: URL,
        pathStyle: 'strip-v1',
        apiKey: KEY,
        storage: 'keychain',
        duplicate: 'refuse',
      },
    ]);
    expect(useAppStore.getState().state?.activeProfile?.name).toBe('Work');
    // The pasted key does not stay in the renderer once saved.
    expect(useOnboardingStore.getState().draft.apiKey).toBe('');
  });

  it('reuses a test of the same inputs, and names the profile after the host when the name is empty', async () => {
    fake.current.handle('profiles:create', () => ok(appState()));
    renderOnboarding();
    fill({ key: KEY, url: URL });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByTestId('connection-test-result');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.current.callsTo('connection:test')).toHaveLength(1);
    expect(fake.current.callsTo('profiles:create')[0]).toMatchObject({ name: 'api.example.com' });
  });

  it('does not save a profile whose test failed unless the user says "Save anyway"', async () => {
    fake.current.handle('connection:test', () => ok(rejectedKeyTest()));
    fake.current.handle('profiles:create', () => ok(appState()));
    renderOnboarding();
    fill({ key: 'wrong-key', url: URL, name: 'Work' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const anyway = await screen.findByRole('button', { name: 'Save anyway' });
    expect(fake.current.callsTo('profiles:create')).toEqual([]);
    fireEvent.click(anyway);
    await settle();
    expect(fake.current.callsTo('profiles:create')).toEqual([
      {
        name: 'Work',
        baseUrl: URL,
        pathStyle: 'literal',
        apiKey: 'wrong-key',
        storage: 'keychain',
        duplicate: 'refuse',
      },
    ]);
  });

  it('offers "Keep for this session only" when the keychain is unavailable', async () => {
    fake.current.handle('profiles:create', (input) =>
      input.storage === 'session'
        ? ok(
            appState({
              activeProfile: profile({ key: { configured: true, masked: '…a1b2', source: 'session' } }),
            }),
          )
        : fail('keychain_unavailable', 'No Secret Service is running. Keep the key for this session only?'),
    );
    renderOnboarding();
    fill({ key: KEY, url: URL, name: 'Work' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const sessionOnly = await screen.findByRole('button', { name: 'Keep for this session only' });
    expect(screen.getByText(/The OS keychain cannot store the key/)).toBeTruthy();
    expect(screen.getByText(/No Secret Service is running/)).toBeTruthy();
    fireEvent.click(sessionOnly);
    await settle();
    expect(fake.current.callsTo('profiles:create').map((input: any) => input.storage)).toEqual([
      'keychain',
      'session',
    ]);
    expect(useAppStore.getState().state?.activeProfile?.key.source).toBe('session');
  });

  it('without a keychain says one true thing and makes "Keep for this session only" the primary action', async () => {
    fake.current.handle('profiles:create', () => ok(appState()));
    useAppStore
      .getState()
      .applyState(noProfileState({ keychain: { available: false, reason: 'no D-Bus session' } }));
    render(<OnboardingScreen />);
    expect(
      screen.getByText(/No OS keychain is available: no D-Bus session\. The key is kept in memory/),
    ).toBeTruthy();
    expect(screen.queryByText(/stored in your OS keychain|Saved in your OS keychain/i)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    fill({ key: KEY, url: URL, name: 'Work' });
    fireEvent.click(screen.getByRole('button', { name: 'Keep for this session only' }));
    await settle();
    expect(fake.current.callsTo('profiles:create').map((input: any) => input.storage)).toEqual(['session']);
  });

  it('with a keychain says the key is saved there, and asks for the base URL before the key', () => {
    renderOnboarding();
    expect(screen.getByText(/Saved in your OS keychain/)).toBeTruthy();
    expect(screen.queryByText(/No OS keychain/)).toBeNull();
    const url = screen.getByLabelText('Base URL');
    const key = screen.getByLabelText('API key');
    expect(url.compareDocumentPosition(key) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('saves the base URL the test adopted with /api/v1 added, and says so in the report', async () => {
    fake.current.handle('connection:test', () =>
      ok(
        passedTest({
          pathStyle: 'literal',
          baseUrl: 'https://api.example.com/api/v1',
          suffixAdded: '/api/v1',
          probes: [
            {
              pathStyle: 'literal',
              pathStyles: ['literal', 'origin'],
              url: 'https://api.example.com/v1/catalog/countries',
              ok: false,
              detail: 'answered 404: Not found',
            },
            {
              pathStyle: 'literal',
              pathStyles: ['literal'],
              url: 'https://api.example.com/api/v1/v1/catalog/countries',
              ok: true,
              detail: 'answered with 40 countries',
            },
          ],
        }),
      ),
    );
    fake.current.handle('profiles:create', () => ok(appState()));
    renderOnboarding();
    fill({ key: KEY, url: 'https://api.example.com', name: 'Work' });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const report = await screen.findByTestId('connection-test-result');
    expect(within(report).getByTestId('adopted-base-url').textContent).toContain(
      'https://api.example.com/api/v1 (added /api/v1',
    );
    const lines = within(report).getAllByRole('listitem');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.textContent).toContain('as written (base URL + /v1/…); from the host only');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.current.callsTo('profiles:create')[0]).toMatchObject({
      baseUrl: 'https://api.example.com/api/v1',
      pathStyle: 'literal',
    });
  });

  it('warns about a profile with the same base URL and key and offers to switch to it', async () => {
    fake.current.handle('connection:test', () =>
      ok(passedTest({ duplicateOf: { profileId: 'p-main', name: 'Main account' } })),
    );
    fake.current.handle('profiles:switch', () => ok(appState()));
    fake.current.handle('profiles:create', () => ok(appState()));
    renderOnboarding();
    fill({ key: KEY, url: URL, name: 'Again' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const warning = await screen.findByTestId('duplicate-profile');
    expect(warning.textContent).toContain('“Main account” connects to the same base URL with the same key');
    expect(fake.current.callsTo('profiles:create')).toEqual([]);

    fireEvent.click(within(warning).getByRole('button', { name: 'Add a second profile' }));
    await settle();
    expect(fake.current.callsTo('profiles:create')).toMatchObject([{ name: 'Again', duplicate: 'allow' }]);
  });

  it('switches to the existing profile instead of adding a duplicate', async () => {
    fake.current.handle('connection:test', () =>
      ok(passedTest({ duplicateOf: { profileId: 'p-main', name: 'Main account' } })),
    );
    fake.current.handle('profiles:switch', () => ok(appState()));
    renderOnboarding();
    fill({ key: KEY, url: URL });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Switch to Main account' }));
    await settle();
    expect(fake.current.callsTo('profiles:switch')).toEqual([{ profileId: 'p-main' }]);
    expect(fake.current.callsTo('profiles:create')).toEqual([]);
    expect(useOnboardingStore.getState().draft.apiKey).toBe('');
  });

  it('shows a save error that has no field next to the form', async () => {
    fake.current.handle('profiles:create', () =>
      fail('profile_exists', 'A profile named Work already exists.'),
    );
    renderOnboarding();
    fill({ key: KEY, url: URL, name: 'Work' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A profile named Work already exists.')).toBeTruthy();
  });

  it('starts the demo, disabling the button while it starts', async () => {
    const pending = deferred<ReturnType<typeof ok>>();
    fake.current.handle('demo:start', () => pending.promise as never);
    renderOnboarding();
    fireEvent.click(screen.getByRole('button', { name: 'Try demo' }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Starting the demo…' }).disabled).toBe(true);
    pending.resolve(ok(appState({ activeProfile: demoProfile(), demo: { running: true } })));
    await settle();
    expect(useAppStore.getState().state?.activeProfile?.kind).toBe('demo');
  });

  it('shows why the demo could not start', async () => {
    fake.current.handle('demo:start', () => fail('demo_failed', 'The sandbox could not start: port in use.'));
    renderOnboarding();
    fireEvent.click(screen.getByRole('button', { name: 'Try demo' }));
    expect(await screen.findByText('The sandbox could not start: port in use.')).toBeTruthy();
  });
});
