import { describe, expect, it } from 'vitest';
import type { RaisedAlert } from '../../../src-main/core/alerts/alert-center';
import { alertNotices, topUpNotices } from '../../../src-main/core/notifications/app-notices';
import { alertRoute, portRoute } from '../../../src-main/core/notifications/notice-routes';
import { relocationNotices, rotationNotices } from '../../../src-main/core/notifications/rotation-notices';
import { isAppRoute } from '../../../src-shared/contract';

const alert = (kind: RaisedAlert['kind'], subjectId: string): RaisedAlert => ({
  id: 'a1',
  key: `${kind}:p1:${subjectId}`,
  kind,
  profileId: 'p1',
  subjectId,
  level: 'warning',
  title: 't',
  message: 'm',
  raisedAt: '2026-03-10T12:00:00.000Z',
});

describe('what a notification click opens', () => {
  it('a rotation (new IP, same IP, failed) and a relocation open the port', () => {
    const base = { profileId: 'p1', portId: 'mp_1', label: 'Berlin', trigger: 'schedule' };
    const rotated = rotationNotices.build({
      ...base,
      outcome: { kind: 'rotated', previousIp: '1.1.1.1', ip: '2.2.2.2', sameIp: false, receiptId: 'r1' },
    });
    const same = rotationNotices.build({
      ...base,
      outcome: { kind: 'rotated', previousIp: '1.1.1.1', ip: '1.1.1.1', sameIp: true, receiptId: 'r2' },
    });
    const failed = rotationNotices.build({ ...base, outcome: { kind: 'failed', message: 'offline' } });
    const relocated = relocationNotices.build({
      profileId: 'p1',
      portId: 'mp_1',
      label: 'Berlin',
      state: 'active',
      message: 'done',
    });
    expect([rotated, same, failed, relocated].map((n) => n.route)).toEqual(Array(4).fill('/ports/mp_1'));
  });

  it('an alert opens its subscription (a sub-user’s cap: the subscription it belongs to) or its port', () => {
    const alerts = alertNotices(() => []);
    expect(alerts.build(alert('traffic_low', 'sub_1')).route).toBe('/subscriptions/sub_1');
    expect(alerts.build(alert('traffic_runs_out', 'sub_1')).route).toBe('/subscriptions/sub_1');
    expect(alerts.build(alert('subscription_expiring', 'sub_1')).route).toBe('/subscriptions/sub_1');
    expect(alerts.build(alert('sub_user_cap_80', 'sub_1/su_9')).route).toBe('/subscriptions/sub_1');
    expect(alerts.build(alert('sub_user_cap_100', 'sub_1/su_9')).route).toBe('/subscriptions/sub_1');
    expect(alerts.build(alert('port_expiring', 'mp_7')).route).toBe('/ports/mp_7');
  });

  it('a top-up notice opens the top-up in the wizard’s live view', () => {
    const notice = topUpNotices.build({
      profileId: 'p1',
      topUpId: 'tu_1',
      kind: 'credited',
      title: 't',
      body: 'b',
    });
    expect(notice.route).toBe('/topups/tu_1');
  });

  it('ids are encoded, so every route has the shape the window accepts', () => {
    expect(portRoute('a/b?c#d e')).toBe('/ports/a%2Fb%3Fc%23d%20e');
    expect(alertRoute({ kind: 'traffic_low', subjectId: 'x y' })).toBe('/subscriptions/x%20y');
    for (const route of [
      portRoute('a/b?c#d e'),
      portRoute('ü'),
      alertRoute(alert('port_expiring', '..')),
      '/overview',
    ]) {
      expect(isAppRoute(route), route).toBe(true);
    }
    for (const bad of [
      '/ports/',
      '/settings/x',
      'ports/x',
      '/ports/a/b',
      '/ports/<x>',
      '/overview/x',
      '/overviews',
      'javascript:x',
      42,
      null,
    ]) {
      expect(isAppRoute(bad), String(bad)).toBe(false);
    }
  });
});
