import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HealthSnapshot } from '../../../../src-shared/contract';
import { Navigation } from '../../../../src-renderer/src/features/app/Navigation';
import {
  attentionBadgeOf,
  useAttentionBadges,
} from '../../../../src-renderer/src/features/overview/AttentionBadge';
import { ok } from '../../support/fake-api';
import { appState } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

/* The navigation's badges: each counts the Now and Soon items of its own screen, from the overview's snapshot. */

const snapshot = (badges: HealthSnapshot['badges']): HealthSnapshot => ({
  profileId: 'prof_work',
  generatedAt: '2026-03-10T12:00:00.000Z',
  expiryWarningDays: 3,
  items: [],
  counts: { error: 1, warning: 2, info: 0 },
  totals: { ports: 4, subscriptions: 3, pendingTopUps: 0, schedules: 0 },
  sources: {
    ports: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
    subscriptions: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
    topups: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
  },
  badges,
  cards: [],
  allGood: false,
});

/** The navigation as the shell renders it: with the Overview's badges, read once. */
function BadgedNavigation() {
  useAttentionBadges();
  return <Navigation current="overview" badge={attentionBadgeOf} />;
}

describe('the navigation’s badges', () => {
  useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'overview:get': () =>
      ok(snapshot({ ports: 1, subscriptions: 2, topups: 0, 'local-proxies': 0, settings: 0 })),
  }));

  it('puts a port’s item on Ports and a subscription’s on Subscriptions, and nothing where none is', async () => {
    render(<BadgedNavigation />);
    await settle();
    // Two words in the link's name, not "Ports1 needs attention".
    expect(screen.getByRole('link', { name: 'Ports 1 needs attention' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Subscriptions 2 need attention' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Top-ups' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Overview' })).toBeTruthy();
  });
});
