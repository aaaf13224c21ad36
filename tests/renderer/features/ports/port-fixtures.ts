import type { RotationReceipt } from '../../../../src-shared/contract';

/** A receipt of a rotation of the `port()` fixture, 9 s long. */
export const receipt = (overrides: Partial<RotationReceipt> = {}): RotationReceipt => ({
  id: 'r_1',
  portId: 'port_1',
  previousIp: '100.85.1.2',
  ip: '100.85.7.7',
  sameIp: false,
  startedAt: '2026-03-10T12:00:00.000Z',
  finishedAt: '2026-03-10T12:00:09.000Z',
  tookMs: 9000,
  nextRotationAvailableAt: '2026-03-10T12:00:39.000Z',
  trigger: 'button',
  attempts: 1,
  confirmedBy: 'answer',
  untilNew: null,
  verification: null,
  ...overrides,
});
