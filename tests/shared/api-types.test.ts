import { describe, expect, it } from 'vitest';
import {
  carrierCityIds,
  carrierSchema,
  citySchema,
  describeRejection,
  IP_HISTORY_TRIGGERS,
  ipHistoryEntrySchema,
  isKnownValue,
  mobilePortSchema,
  subUserListSchema,
  TOP_UP_STATUSES,
  topUpSchema,
} from '../../src-shared/api-types';

const port = {
  id: 'port_1',
  label: 'Berlin',
  status: 'active',
  country: 'DE',
  city: 'berlin',
  carrier: 'telekom_de',
  carrierName: 'Telekom',
  networkType: '5G',
  currentIp: '10.1.2.3',
  ipChangedAt: '2026-03-10T11:00:00.000Z',
  endpoint: { host: 'de.example', httpPort: 8000, socksPort: 9000 },
  username: 'u',
  password: 'p',
  rotation: { mode: 'manual', intervalMinutes: null },
  minRotationIntervalSeconds: 30,
  rotationLink: 'https://x/api/v1/v1/mobile/port_1/rotate?key=k',
  planId: 'mobile-port-30d',
  autoRenew: true,
  createdAt: '2026-03-01T00:00:00Z',
  expiresAt: '2026-04-01T00:00:00+00:00',
};

const topUp = {
  id: 'top_1',
  status: 'awaiting_payment',
  final: false,
  amountUsd: '25.00',
  coin: 'BTC',
  network: 'bitcoin',
  address: 'tb1q…',
  amountCrypto: '0.00041667',
  rate: '60000.00',
  paymentUri: 'bitcoin:tb1q?amount=0.00041667',
  expiresAt: '2026-03-10T12:30:00.000Z',
  txidDeadline: '2026-03-13T12:30:00.000Z',
  confirmationsRequired: 2,
  confirmations: 0,
  createdAt: '2026-03-10T12:00:00.000Z',
};

describe('response schemas: tolerant where the spec is silent', () => {
  it('keeps members the spec does not list', () => {
    const parsed = mobilePortSchema.parse({
      ...port,
      sticky: true,
      endpoint: { ...port.endpoint, ipv6: true },
    });
    expect(parsed.sticky).toBe(true);
    expect(parsed.endpoint.ipv6).toBe(true);
  });

  it('passes unknown status, trigger and mode values as strings', () => {
    expect(
      mobilePortSchema.parse({
        ...port,
        status: 'suspended',
        rotation: { mode: 'scheduled', intervalMinutes: 5 },
      }),
    ).toMatchObject({ status: 'suspended', rotation: { mode: 'scheduled' } });
    const entry = ipHistoryEntrySchema.parse({
      ip: '1.2.3.4',
      assignedAt: '2026-03-10T12:00:00Z',
      releasedAt: null,
      trigger: 'carrier_reset',
    });
    expect(entry.trigger).toBe('carrier_reset');
    expect(isKnownValue(IP_HISTORY_TRIGGERS, entry.trigger)).toBe(false);
    expect(isKnownValue(TOP_UP_STATUSES, topUpSchema.parse({ ...topUp, status: 'refunded' }).status)).toBe(
      false,
    );
    expect(isKnownValue(TOP_UP_STATUSES, 'credited')).toBe(true);
  });

  it('reads a missing nullable member as null', () => {
    const parsed = topUpSchema.parse(topUp);
    expect(parsed).toMatchObject({
      txid: null,
      txidSubmittedAt: null,
      amountReceivedCrypto: null,
      explorerUrl: null,
      creditedUsd: null,
      creditedAt: null,
      rejection: null,
      purchase: null,
    });
    const noCity = { ...port } as Record<string, unknown>;
    delete noCity.city;
    expect(mobilePortSchema.parse(noCity).city).toBeNull();
    expect(
      mobilePortSchema.parse({ ...port, rotation: { mode: 'manual' } }).rotation.intervalMinutes,
    ).toBeNull();
    expect(subUserListSchema.parse({ data: [] }).limit).toBeNull();
    expect(citySchema.parse({ id: 'berlin', name: 'Berlin' }).state).toBeNull();
  });

  it('accepts any shape of rejection and purchase options', () => {
    expect(
      describeRejection(
        topUpSchema.parse({ ...topUp, rejection: { reason: 'amount_mismatch', message: 'Paid 1' } })
          .rejection,
      ),
    ).toEqual({ reason: 'amount_mismatch', message: 'Paid 1' });
    expect(describeRejection('Payment not found')).toEqual({ reason: null, message: 'Payment not found' });
    expect(describeRejection({ code: 'late' })).toEqual({ reason: 'late', message: null });
    expect(describeRejection(null)).toBeNull();
    const purchase = {
      planId: 'res-starter',
      planName: 'Residential 5 GB',
      quantity: 1,
      total: '17.50',
      status: 'pending',
      options: { country: 'US', nested: { a: 1 } },
    };
    expect(topUpSchema.parse({ ...topUp, purchase }).purchase).toMatchObject({
      options: { country: 'US', nested: { a: 1 } },
      promoCode: null,
      orderId: null,
      failureReason: null,
    });
  });

  it('reads carrier cities given as ids or as objects', () => {
    const carrier = carrierSchema.parse({
      id: 'c',
      name: 'C',
      networkTypes: ['4G'],
      available: true,
      cities: ['berlin', { id: 'hamburg', name: 'Hamburg' }, { name: 'No id' }],
    });
    expect(carrierCityIds(carrier)).toEqual(['berlin', 'hamburg']);
  });
});

describe('response schemas: strict on documented types', () => {
  const issuePaths = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
    result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

  it('refuses a wrong type, a missing required member and a non-ISO timestamp', () => {
    const broken = { ...port, currentIp: 42, ipChangedAt: 'yesterday' } as Record<string, unknown>;
    delete broken.username;
    const result = mobilePortSchema.safeParse(broken);
    expect(result.success).toBe(false);
    expect(issuePaths(result).sort()).toEqual(['currentIp', 'ipChangedAt', 'username']);
  });

  it('refuses money as a number or as a non-decimal string', () => {
    expect(issuePaths(topUpSchema.safeParse({ ...topUp, amountUsd: 25 }))).toEqual(['amountUsd']);
    expect(issuePaths(topUpSchema.safeParse({ ...topUp, rate: '1e5' }))).toEqual(['rate']);
  });

  it('refuses a fractional integer and a null where null is not documented', () => {
    expect(issuePaths(mobilePortSchema.safeParse({ ...port, minRotationIntervalSeconds: 30.5 }))).toEqual([
      'minRotationIntervalSeconds',
    ]);
    expect(issuePaths(mobilePortSchema.safeParse({ ...port, currentIp: null }))).toEqual(['currentIp']);
  });
});
