import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../../src-main/core/errors';
import { ipcCalls } from '../../../src-shared/contract';
import { PORT_ROW_COLUMNS, portRowsOf } from '../../../src-shared/contract/ports';
import { invalidInputError } from '../../../src-main/core/wire-error';
import {
  DEMO_KEY,
  fullHistory,
  manualPort,
  portByLabel,
  SEEDED_PORT_LABELS,
  TestSandbox,
} from '@proxy-manager/sandbox/testing';
import { advanceBoth, PROFILE, portsKit, type PortsKit } from './ports-test-kit';

describe('PortsService against the sandbox', () => {
  let sandbox: TestSandbox;
  let kit: PortsKit;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    kit = portsKit(sandbox);
    await advanceBoth(sandbox, kit.clock, 60);
  });

  afterEach(async () => {
    await sandbox.close();
  });

  const handlers = () => kit.ports.handlers();

  it('exports the whole IP history as CSV, every page, newest first, with the app receipts merged', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.interval);
    // A day of the port's interval rotations: more history than one page holds.
    await advanceBoth(sandbox, kit.clock, 86_400);
    await sandbox.control('DELETE', '/requests');
    const receipt = await kit.rotation.rotate(PROFILE, port.id, 'tray');
    const exported = await handlers()['ports:exportIpHistory']({ portId: port.id });
    // Every page was read, at 100 a page.
    const pages = (await sandbox.requests()).filter((r) => r.path.includes(`/mobile/${port.id}/ip-history`));
    const history = await fullHistory(sandbox, port.id);
    expect(history.length).toBeGreaterThan(100);
    expect(pages).toHaveLength(Math.ceil(history.length / 100));
    expect(exported.rows).toBe(history.length);
    const lines = exported.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('ip,assignedAt,releasedAt,trigger,appTrigger,previousIp,sameIp,tookMs,receiptId');
    expect(lines).toHaveLength(history.length + 1);
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(history.map((e) => e.assignedAt));
    expect(lines[1]).toBe(
      [
        receipt.ip,
        history[0].assignedAt,
        '',
        'manual',
        'tray',
        receipt.previousIp,
        String(receipt.sameIp),
        String(receipt.tookMs),
        receipt.id,
      ].join(','),
    );
    expect(exported.fileName).toBe(`port-${port.id}-ip-history.csv`);
  });

  it('pages the IP history with the receipt of the rotation that produced each IP', async () => {
    const port = await manualPort(sandbox);
    const receipt = await kit.rotation.rotate(PROFILE, port.id, 'schedule');
    const page = await handlers()['ports:ipHistory']({ portId: port.id, page: 1, perPage: 5 });
    expect(page.data).toHaveLength(5);
    expect(page.data[0]).toMatchObject({ ip: receipt.ip, receipt: { id: receipt.id, trigger: 'schedule' } });
    expect(page.data.slice(1).every((row) => row.receipt === null)).toBe(true);
    expect(page.pagination.page).toBe(1);
  });

  it('validates the usage range before asking: at most 366 days, not inverted, field errors', () => {
    const schema = ipcCalls['ports:usage'].input;
    expect(schema.safeParse({ portId: 'mp_1', from: '2025-03-10', to: '2026-03-10' }).success).toBe(true);
    const tooLong = schema.safeParse({ portId: 'mp_1', from: '2025-03-09', to: '2026-03-10' });
    expect(tooLong.success).toBe(false);
    if (!tooLong.success) {
      expect(invalidInputError(tooLong.error).fields).toEqual([
        { field: 'from', message: 'At most 366 days (this range has 367)' },
      ]);
    }
    const inverted = schema.safeParse({ portId: 'mp_1', from: '2026-03-10', to: '2026-03-01' });
    expect(inverted.success).toBe(false);
    if (!inverted.success) {
      expect(invalidInputError(inverted.error).fields?.[0]?.field).toBe('to');
    }
    const notADate = schema.safeParse({ portId: 'mp_1', from: '2026-02-30' });
    expect(notADate.success).toBe(false);
  });

  it('checks a range with one end against today, and reads a valid one from the service', async () => {
    const port = await manualPort(sandbox);
    const before = (await sandbox.requests()).length;
    const error = (await handlers()
      ['ports:usage']({ portId: port.id, from: '2024-01-01' })
      .catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('invalid_input');
    expect(error.fields[0]?.field).toBe('from');
    // Refused before asking: nothing reached the service.
    expect((await sandbox.requests()).length).toBe(before);
    const report = await handlers()['ports:usage']({ portId: port.id, from: '2026-03-01', to: '2026-03-10' });
    expect(report.points).toHaveLength(10);
  });

  it('answers the rotation link only to ports:revealRotationLink', async () => {
    const port = await manualPort(sandbox);
    const h = handlers();
    const answers: unknown[] = [
      await h['ports:list'](undefined),
      await h['ports:get']({ portId: port.id }),
      await h['ports:update']({ portId: port.id, label: 'Renamed' }),
      await h['ports:rotate']({ portId: port.id }),
      await h['ports:receipts']({ portId: port.id }),
      await h['ports:resetPassword']({ portId: port.id }),
      await h['ports:ipHistory']({ portId: port.id, page: 1, perPage: 10 }),
      await h['ports:exportIpHistory']({ portId: port.id }),
      await h['ports:usage']({ portId: port.id }),
      await h['ports:relocations'](undefined),
    ];
    await advanceBoth(sandbox, kit.clock, 31);
    answers.push(await h['ports:rotateMany']({ portIds: [port.id] }));
    answers.push(await h['ports:relocate']({ portId: port.id, country: 'US', carrier: 'verizon' }));
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain('key=');
      expect(text).not.toContain(DEMO_KEY);
    }
    for (const event of kit.events.all) expect(JSON.stringify(event)).not.toContain('key=');
    const revealed = await h['ports:revealRotationLink']({ portId: port.id });
    expect(revealed.rotationLink).toContain(`/mobile/${port.id}/rotate?key=`);
  });

  it('updates label, auto-renew and the server-side rotation mode, and tells every window', async () => {
    const port = await manualPort(sandbox);
    const updated = await handlers()['ports:update']({
      portId: port.id,
      label: 'Berlin 2',
      autoRenew: false,
      rotation: { mode: 'interval', intervalMinutes: 15 },
    });
    expect(updated).toMatchObject({
      label: 'Berlin 2',
      autoRenew: false,
      rotation: { mode: 'interval', intervalMinutes: 15 },
    });
    const back = await handlers()['ports:update']({ portId: port.id, rotation: { mode: 'manual' } });
    expect(back.rotation).toEqual({ mode: 'manual', intervalMinutes: null });
    expect(kit.events.of('ports:changed').map((e) => e.changed[0]?.label)).toEqual(['Berlin 2', 'Berlin 2']);
  });

  it('lists each port with its auto-renew, as the service has it (the Ports list filters by it)', async () => {
    const port = await manualPort(sandbox);
    const h = handlers();
    await h['ports:update']({ portId: port.id, autoRenew: false });
    const off = await h['ports:list']({ fresh: true });
    expect(off.columns).toEqual(PORT_ROW_COLUMNS);
    const rows = portRowsOf(off);
    expect(rows.find((row) => row.id === port.id)?.autoRenew).toBe(false);
    // Every row says what the whole port says.
    for (const row of rows) expect(row.autoRenew).toBe((await h['ports:get']({ portId: row.id })).autoRenew);
    await h['ports:update']({ portId: port.id, autoRenew: true });
    const on = portRowsOf(await h['ports:list']({ fresh: true }));
    expect(on.find((row) => row.id === port.id)?.autoRenew).toBe(true);
  });

  it('refuses labels with control or text-direction characters, and empty updates', () => {
    const schema = ipcCalls['ports:update'].input;
    expect(schema.safeParse({ portId: 'mp_1', label: 'Good label' }).success).toBe(true);
    expect(schema.safeParse({ portId: 'mp_1', label: 'evil\u202etxt' }).success).toBe(false);
    expect(schema.safeParse({ portId: 'mp_1', label: 'two\nlines' }).success).toBe(false);
    expect(schema.safeParse({ portId: 'mp_1', label: 'x'.repeat(61) }).success).toBe(false);
    expect(schema.safeParse({ portId: 'mp_1', label: '   ' }).success).toBe(false);
    expect(schema.safeParse({ portId: 'mp_1' }).success).toBe(false);
    expect(
      schema.safeParse({ portId: 'mp_1', rotation: { mode: 'interval', intervalMinutes: 1441 } }).success,
    ).toBe(false);
    const rotate = ipcCalls['ports:rotate'].input;
    expect(rotate.safeParse({ portId: 'mp_1', untilNew: { lastN: 21, maxTries: 3 } }).success).toBe(false);
    expect(rotate.safeParse({ portId: 'mp_1', untilNew: { lastN: 5, maxTries: 11 } }).success).toBe(false);
    const many = ipcCalls['ports:rotateMany'].input;
    expect(many.safeParse({ portIds: [] }).success).toBe(false);
    expect(many.safeParse({ portIds: Array.from({ length: 1001 }, (_, i) => `mp_${i}`) }).success).toBe(
      false,
    );
  });
});
