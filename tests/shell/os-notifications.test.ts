import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({
  Notification: class {
    static isSupported = () => true;
  },
}));

const { createOsNotifier } = await import('../../src-main/shell/os-notifications');

describe('createOsNotifier', () => {
  it('shows a notice through the injected factory and opens its route on click', () => {
    const created: { init: unknown; click?: () => void; shown: boolean }[] = [];
    const clicks: unknown[] = [];
    const notifier = createOsNotifier({
      createNotification: (init) => {
        const entry: { init: unknown; click?: () => void; shown: boolean } = { init, shown: false };
        created.push(entry);
        return {
          on: (_event, listener) => (entry.click = listener),
          show: () => (entry.shown = true),
        };
      },
      isSupported: () => true,
      onClick: (route) => clicks.push(route),
    });
    notifier.show({
      kind: 'rotation-new-ip',
      title: 'New IP: Berlin',
      body: '1.1.1.1 → 2.2.2.2',
      dedupeKey: 'r1',
      route: '/ports/mp_1',
    });
    expect(created).toEqual([
      expect.objectContaining({
        init: { title: 'New IP: Berlin', body: '1.1.1.1 → 2.2.2.2', silent: false },
        shown: true,
      }),
    ]);
    created[0]?.click?.();
    expect(clicks).toEqual(['/ports/mp_1']);
  });

  it('shows nothing where the OS has no notifications', () => {
    const factory = vi.fn();
    const notifier = createOsNotifier({
      createNotification: factory,
      isSupported: () => false,
      onClick: () => {},
    });
    notifier.show({ kind: 'relocation-done', title: 't', body: 'b', dedupeKey: 'k', route: '/ports/mp_1' });
    expect(factory).not.toHaveBeenCalled();
  });
});
