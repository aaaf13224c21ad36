import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchNavigation } from '../../../src-renderer/src/app/screen-data';
import { useAppStore } from '../../../src-renderer/src/features/app/app-store';
import { usePortsStore } from '../../../src-renderer/src/features/ports/ports-store';
import { ok } from '../support/fake-api';
import {
  appState,
  countries,
  noProfileState,
  port,
  portsAnswer,
  profile,
  subscription,
  subUsersTable,
  topUp,
  topUpPage,
} from '../support/fixtures';
import { settle, stubIdleCallbacks, useFakeApi } from '../support/renderer-test-kit';

describe('a screen’s data is asked for when the navigation starts', () => {
  const fake = useFakeApi(() => ({
    'ports:list': () => ok(portsAnswer([port()])),
    'ports:get': ({ portId }) => ok(port({ id: portId })),
    'schedules:list': () => ok({ profileId: 'prof_work', paused: false, schedules: [] }),
    'catalog:countries': () => ok(countries()),
    'topups:list': () => ok(topUpPage([topUp()])),
    'catalog:coins': () => ok([]),
  }));

  const link = (href: string) => {
    const anchor = document.createElement('a');
    anchor.href = href;
    anchor.textContent = href;
    document.body.append(anchor);
    return anchor;
  };

  it('a click on a screen’s link asks for its list before the URL changes or anything renders', async () => {
    useAppStore.getState().applyState(appState());
    const stop = watchNavigation();
    const ports = link('#/ports');
    // Nothing renders the screen in this test: only the click can have asked.
    ports.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(fake.current.callsTo('ports:list')).toHaveLength(1);
    expect(fake.current.callsTo('schedules:list')).toHaveLength(1);
    expect(fake.current.callsTo('catalog:countries')).toHaveLength(1);
    await settle();

    // A port's own address also asks for the whole port (the detail's tabs need it).
    link('#/ports/port_9').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(fake.current.callsTo('ports:get')).toEqual([{ portId: 'port_9' }]);
    // The list was loaded already: not asked again.
    expect(fake.current.callsTo('ports:list')).toHaveLength(1);

    link('#/topups').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(fake.current.callsTo('topups:list')).toHaveLength(1);
    // The coins name the top-ups' networks.
    expect(fake.current.callsTo('catalog:coins')).toHaveLength(1);
    stop();
    ports.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    await settle();
  });

  it('a URL change (Back, a notification) and the first state of a window on a screen ask too', async () => {
    useAppStore.getState().applyState(noProfileState());
    const stop = watchNavigation();
    window.location.hash = '#/topups';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    // Onboarding: no account to read.
    expect(fake.current.callsTo('topups:list')).toHaveLength(0);
    useAppStore.getState().applyState(appState({ activeProfile: profile() }));
    expect(fake.current.callsTo('topups:list')).toHaveLength(1);
    await settle();
    window.location.hash = '#/ports';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(fake.current.callsTo('ports:list')).toHaveLength(1);
    stop();
    await settle();
  });
});

describe('the first state of a window carries the list of the screen it opens on', () => {
  const fake = useFakeApi(() => ({
    'app:getState': (input) =>
      ok({
        ...appState(),
        ...(input?.screen === 'ports'
          ? { snapshots: { ports: portsAnswer([port({ label: 'From main' })]) } }
          : {}),
      }),
    'ports:list': () => ok(portsAnswer([port()])),
    'schedules:list': () => ok({ profileId: 'prof_work', paused: false, schedules: [] }),
    'catalog:countries': () => ok(countries()),
  }));

  it('asks with the screen in the URL, and the ports are on screen without a ports:list call', async () => {
    window.location.hash = '#/ports';
    const stop = watchNavigation();
    await useAppStore.getState().load();
    expect(fake.current.callsTo('app:getState')).toEqual([{ screen: 'ports' }]);
    expect(usePortsStore.getState().ports.data?.map((row) => row.label)).toEqual(['From main']);
    expect(usePortsStore.getState().portsAge).not.toBeNull();
    expect(fake.current.callsTo('ports:list')).toHaveLength(0);
    // The snapshot was taken once; the screen's other data is still asked for as it opens.
    expect(useAppStore.getState().snapshots).toBeNull();
    expect(fake.current.callsTo('schedules:list')).toHaveLength(1);
    stop();
    await settle();
  });
});

describe('the lists behind the navigation are read ahead once the window settles', () => {
  const fake = useFakeApi(() => ({
    'ports:list': () => ok(portsAnswer([port(), port({ id: 'port_2', country: 'DE' })])),
    'schedules:list': () => ok({ profileId: 'prof_work', paused: false, schedules: [] }),
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': ({ countryCodes }) => ok(Object.fromEntries(countryCodes.map((code) => [code, []]))),
    'subscriptions:list': () => ok([subscription()]),
    'topups:list': () => ok(topUpPage([topUp()])),
    'subscriptions:subUsers': () => ok(subUsersTable()),
    'catalog:coins': () => ok([]),
  }));
  afterEach(() => vi.unstubAllGlobals());

  it('reads ports (with their cities), subscriptions and top-ups when idle, not before', async () => {
    const idle = stubIdleCallbacks();
    window.location.hash = '#/overview';
    const afterReadAhead = vi.fn();
    const stop = watchNavigation({ afterReadAhead });
    useAppStore.getState().applyState(appState({ activeProfile: profile() }));
    expect(fake.current.callsTo('ports:list')).toHaveLength(0);
    expect(idle.pending.size).toBe(1);
    idle.runAll();
    expect(afterReadAhead).not.toHaveBeenCalled();
    await settle();
    // Told once every list is in (the shell then warms their screens up).
    expect(afterReadAhead).toHaveBeenCalledTimes(1);
    expect(fake.current.callsTo('ports:list')).toHaveLength(1);
    expect(fake.current.callsTo('subscriptions:list')).toHaveLength(1);
    expect(fake.current.callsTo('topups:list')).toHaveLength(1);
    expect(fake.current.callsTo('catalog:coins')).toHaveLength(1);
    // The list's countries' cities, in one call, once the list was there.
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([{ countryCodes: ['DE', 'US'] }]);
    // A click on Ports now finds everything loaded: nothing is asked again.
    const anchor = document.createElement('a');
    anchor.href = '#/ports';
    document.body.append(anchor);
    anchor.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    await settle();
    expect(fake.current.callsTo('ports:list')).toHaveLength(1);
    expect(fake.current.callsTo('catalog:citiesOf')).toHaveLength(1);
    stop();
  });

  it('a subscription’s detail asks for its sub-users as it opens', async () => {
    const stop = watchNavigation();
    useAppStore.getState().applyState(appState({ activeProfile: profile() }));
    window.location.hash = '#/subscriptions/sub_1';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(fake.current.callsTo('subscriptions:subUsers')).toEqual([{ subscriptionId: 'sub_1' }]);
    stop();
    await settle();
  });

  it('drops the read-ahead when the window stops watching before it is idle', () => {
    const idle = stubIdleCallbacks();
    const stop = watchNavigation();
    useAppStore.getState().applyState(appState({ activeProfile: profile() }));
    expect(idle.pending.size).toBe(1);
    stop();
    expect(idle.pending.size).toBe(0);
  });
});
