import { describe, expect, it } from 'vitest';
import type { AddedAlertChannel, LocalReceiverView } from '../../src-shared/contract';
import { callApi, openApp, openScreen, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';

/**
 * Alert channels tried offline in web mode with the demo: the local receiver is started in
 * Settings, a signed webhook channel is pointed at it, the Test button sends, and the receiver shows
 * the message with a valid signature; the delivery log lists it.
 */
describe('web mode in a browser: alert channels', () => {
  const session = useWebSession({ demo: true });

  it('adds a webhook to the local receiver, tests it, and shows the signed message and the log', async (context) => {
    requireBrowser(context);
    const { page } = await openApp(session, { waitOnline: true });
    await openScreen(page, 'Settings');
    const section = page.getByRole('region', { name: 'Alert channels' });
    await section.getByRole('button', { name: 'Start the local receiver' }).click();
    await section.getByTestId('receiver-addresses').waitFor();
    const receiver = await callApi<LocalReceiverView>(page, 'alertRouting', 'localReceiver');
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const form = section.getByRole('form', { name: 'Add a channel' });
    await form.getByLabel('Channel name').fill('Demo hook');
    await form.getByLabel('URL').fill(`${receiver.url ?? ''}/webhook`);
    await form.getByRole('button', { name: 'Add channel' }).click();
    const secret = section.getByTestId('signing-secret');
    expect(await secret.innerText()).toMatch(/whsec_/);
    await secret.getByRole('button', { name: 'Done' }).click();

    await section.getByRole('button', { name: 'Test Demo hook' }).click();
    await section.getByText('Test sent.').waitFor();
    await section.getByRole('button', { name: 'Show what arrived' }).click();
    const received = section.getByRole('table', { name: 'Received by the local receiver' });
    await received.getByRole('cell', { name: 'channel.test' }).waitFor();
    expect(await received.innerText()).toContain('valid');
    const log = section.getByRole('table', { name: 'Delivery log' });
    await log.getByRole('cell', { name: 'Demo hook' }).waitFor();
    expect(await log.innerText()).toMatch(/channel\.test\s+Demo hook\s+sent\s+1/);
    // Their times in the window's one format, never the wire's ISO.
    expect(await section.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(await log.locator('time').count()).toBeGreaterThan(0);

    // No secret comes back from the channel list.
    const channels = await callApi<AddedAlertChannel['channel'][]>(page, 'alertRouting', 'channels');
    expect(JSON.stringify(channels)).not.toContain('whsec_');
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-alert-channels');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
