import type { UsageReport } from '../../../src-shared/api-types';
import type {
  IpHistoryExport,
  IpHistoryView,
  MobilePortView,
  PortHealth,
  PortsListView,
  RotationReceipt,
  SchedulesView,
} from '../../../src-shared/contract';
import { rowObjectsOf } from '../../dispatch/public-answers';
import {
  CallFailed,
  type CommandContext,
  type CommandSpec,
  EXIT,
  type ExitCode,
  printValue,
  timeoutMs,
  UsageError,
} from '../command-spec';
import { bytes, details, localTime, table } from '../output';

const WAIT = { flags: '--wait', help: 'wait for the operation to finish' } as const;
const timeout = (seconds: number) =>
  ({
    flags: '--timeout <seconds>',
    help: `give up waiting after this long (exit code 3)`,
    seconds: true,
    default: String(seconds),
  }) as const;

/** How often a relocation is read again while the port is provisioning. */
const RELOCATION_POLL_MS = 10_000;

function renderPorts(view: PortsListView, context: CommandContext): string {
  return table(context.out, rowObjectsOf(view), [
    { header: 'ID', value: (port) => port.id },
    { header: 'LABEL', value: (port) => port.label },
    { header: 'STATUS', value: (port) => port.status },
    {
      header: 'COUNTRY',
      value: (port) =>
        [context.places.country(port.country), context.places.city(port.country, port.city)]
          .filter(Boolean)
          .join(' / '),
    },
    { header: 'CARRIER', value: (port) => `${port.carrierName} ${port.networkType}` },
    { header: 'IP', value: (port) => port.currentIp },
    {
      header: 'ROTATION',
      value: (port) =>
        port.rotationMode === 'interval' ? `every ${port.rotationMinutes} min` : port.rotationMode,
    },
  ]);
}

/** One port, its place and carrier by name (`--json` keeps the ids). */
function renderPort(port: MobilePortView, context: CommandContext): string {
  return details(context.out, {
    ...port,
    country: context.places.country(port.country),
    city: context.places.city(port.country, port.city),
    carrier: port.carrierName,
  });
}

function renderReceipt(receipt: RotationReceipt): string {
  const seconds = (receipt.tookMs / 1000).toFixed(1);
  const lines = [
    receipt.sameIp
      ? `Rotated ${receipt.portId}: the carrier gave back the same IP ${receipt.ip} (${seconds} s)`
      : `Rotated ${receipt.portId}: ${receipt.previousIp} -> ${receipt.ip} (${seconds} s)`,
    `Next rotation from ${localTime(receipt.nextRotationAvailableAt)}`,
  ];
  if (receipt.untilNew) {
    lines.push(
      receipt.untilNew.reachedNewIp
        ? `New IP (not among the last ${receipt.untilNew.lastN}) after ${receipt.attempts} attempt(s)`
        : `No new IP after ${receipt.attempts} attempt(s): ${receipt.ip} was among the last ${receipt.untilNew.lastN}`,
    );
  }
  if (receipt.verification) {
    lines.push(
      receipt.verification.matches
        ? `Exit IP checked through the port: ${receipt.verification.exitIp}`
        : `Warning: traffic leaves from ${receipt.verification.exitIp}, not ${receipt.ip}`,
    );
  }
  if (receipt.verdict) lines.push(`Verdict: ${receipt.verdict.kind} (${receipt.verdict.message})`);
  if (receipt.untilUnique) {
    lines.push(
      receipt.untilUnique.reachedClean
        ? `Clean IP after ${receipt.attempts} rotation(s)`
        : `No clean IP after ${receipt.attempts} rotation(s) (at most ${receipt.untilUnique.maxTries})`,
    );
  }
  return lines.join('\n');
}

const percent = (ratio: number | null): string => (ratio === null ? '-' : `${(ratio * 100).toFixed(2)} %`);
const ms = (value: number | null): string => (value === null ? '-' : `${value} ms`);

function renderHealth(scores: PortHealth[], context: CommandContext): string {
  return table(context.out, scores, [
    { header: 'PORT', value: (h) => h.portId },
    {
      header: 'STATUS',
      value: (h) => (h.failuresInARow > 0 ? `${h.status} (${h.failuresInARow} failed)` : h.status),
    },
    { header: 'SINCE', value: (h) => h.statusSince },
    { header: 'UPTIME 24H', value: (h) => percent(h.uptime24h), right: true },
    { header: 'UPTIME 30D', value: (h) => percent(h.uptime30d), right: true },
    { header: 'P50', value: (h) => ms(h.latency24h.firstByteP50), right: true },
    { header: 'P95', value: (h) => ms(h.latency24h.firstByteP95), right: true },
    { header: 'ROTATIONS', value: (h) => h.rotations30d, right: true },
    { header: 'UNIQUE', value: (h) => percent(h.uniqueIpRatio30d), right: true },
    { header: 'UNCHANGED', value: (h) => h.unchanged30d, right: true },
    { header: 'REPEATED', value: (h) => h.repeated30d, right: true },
    { header: 'LAST VERDICT', value: (h) => h.lastVerdict?.kind ?? '-' },
  ]);
}

/** The countries of a usage report's split, to name them. */
export const usagePlaces = (report: UsageReport): string[] => report.byCountry.map((row) => row.country);

export function renderUsage(report: UsageReport, context: CommandContext): string {
  const head = `${report.from} to ${report.to}: ${bytes(report.totalBytes)}, ${report.totalRequests} requests`;
  const days = table(context.out, report.points, [
    { header: 'DATE', value: (point) => point.date },
    { header: 'TRAFFIC', value: (point) => bytes(point.bytes), right: true },
    { header: 'REQUESTS', value: (point) => point.requests, right: true },
  ]);
  const countries =
    report.byCountry.length > 0
      ? `\n\n${table(context.out, report.byCountry, [
          { header: 'COUNTRY', value: (row) => context.places.country(row.country) },
          { header: 'TRAFFIC', value: (row) => bytes(row.bytes), right: true },
        ])}`
      : '';
  return `${head}\n\n${days}${countries}`;
}

function renderSchedules(view: SchedulesView, context: CommandContext): string {
  const head = view.paused ? 'Schedules are paused.\n\n' : '';
  return (
    head +
    table(context.out, view.schedules, [
      { header: 'PORT', value: (s) => s.portId },
      {
        header: 'CADENCE',
        value: (s) =>
          s.cadence.kind === 'every'
            ? `every ${s.cadence.seconds} s`
            : `cron ${s.cadence.expression}${s.cadence.timezone ? ` (${s.cadence.timezone})` : ''}`,
      },
      { header: 'JITTER', value: (s) => `${s.jitterSeconds} s`, right: true },
      { header: 'OFFSET', value: (s) => `${s.offsetSeconds} s`, right: true },
      { header: 'NEXT RUN', value: (s) => localTime(s.nextRunAt) },
      { header: 'LAST', value: (s) => s.lastRuns[0]?.result },
    ])
  );
}

/** `ports rotate`: one rotation; with `--wait`, a cooldown (429) is waited out instead of failing. */
async function rotate(context: CommandContext, input: unknown): Promise<ExitCode> {
  const { out, clock } = context;
  const portId = (input as { portId: string }).portId;
  const deadline = clock.now() + timeoutMs(context, 120);
  for (;;) {
    out.progress(`Rotating ${portId}…`);
    const result = await context.callResult('ports:rotate', input);
    out.clearProgress();
    if (result.ok) {
      await printValue(context, portsCommands.rotate, result.value);
      return EXIT.done;
    }
    const waitMs = result.error.retryAfterMs;
    if (context.options.wait !== true || waitMs === undefined) throw new CallFailed(result.error);
    if (clock.now() + waitMs > deadline) {
      out.error(`${result.error.message} (still in its cooldown when --timeout ends)`);
      return EXIT.pending;
    }
    out.progress(`${portId} is in its cooldown: rotating in ${Math.ceil(waitMs / 1000)} s…`);
    await clock.sleep(waitMs);
  }
}

/** `ports relocate`: the move; with `--wait`, the port is read until it is active on its new modem. */
async function relocate(context: CommandContext, input: unknown): Promise<ExitCode> {
  const { out, clock } = context;
  let port = await context.call('ports:relocate', input);
  if (context.options.wait === true) {
    const deadline = clock.now() + timeoutMs(context, 600);
    while (port.status === 'provisioning' && !out.closed) {
      if (clock.now() + RELOCATION_POLL_MS > deadline) {
        out.error(`${port.id} is still moving to its new modem (provisioning) when --timeout ends`);
        await printValue(context, portsCommands.relocate, port);
        return EXIT.pending;
      }
      out.progress(`${port.id} is moving to a new modem…`);
      await clock.sleep(RELOCATION_POLL_MS);
      port = await context.call('ports:get', { portId: port.id });
    }
    out.clearProgress();
  }
  await printValue(context, portsCommands.relocate, port);
  return EXIT.done;
}

/** `ports history`: one page, or with `--csv` every page as CSV (`ports:exportIpHistory`). */
async function history(context: CommandContext, input: unknown): Promise<ExitCode> {
  if (context.options.csv !== true) {
    await printValue(context, portsCommands.history, await context.call('ports:ipHistory', input));
    return EXIT.done;
  }
  for (const path of ['page', 'perPage']) {
    if (context.given.has(path)) {
      const field = context.fields.find((f) => f.path === path);
      throw new UsageError(`--${field?.flag ?? path} cannot be used with --csv (the CSV has every page)`);
    }
  }
  const exported: IpHistoryExport = await context.call('ports:exportIpHistory', {
    portId: (input as { portId: string }).portId,
  });
  if (context.json) context.out.json(exported);
  else context.out.out(exported.csv);
  return EXIT.done;
}

const portArg = {
  args: ['portId'],
  rename: { portId: 'port-id' },
  describe: { portId: 'the port’s id, from `ports list`' },
};

export const portsCommands = {
  list: {
    path: ['ports', 'list'],
    channel: 'ports:list',
    summary: 'List your mobile ports',
    examples: ['proxy-manager ports list', 'proxy-manager ports list --json'],
    render: renderPorts,
    places: (view: PortsListView) => view.rows.map((row) => row[3]),
  },
  show: {
    path: ['ports', 'show'],
    channel: 'ports:get',
    summary: 'Show one mobile port',
    examples: ['proxy-manager ports show port_1'],
    fields: portArg,
    render: renderPort,
    places: (port: MobilePortView) => [port.country],
  },
  rotate: {
    path: ['ports', 'rotate'],
    channel: 'ports:rotate',
    summary: 'Rotate the IP of a port now (one rotation per 30 seconds)',
    examples: [
      'proxy-manager ports rotate port_1',
      'proxy-manager ports rotate port_1 --until-new 5 --max-tries 3',
      'proxy-manager ports rotate port_1 --until-unique 3',
      'proxy-manager ports rotate port_1 --wait --json',
    ],
    fields: {
      ...portArg,
      rename: { ...portArg.rename, 'untilNew.lastN': 'until-new', 'untilNew.maxTries': 'max-tries' },
      describe: {
        ...portArg.describe,
        'untilNew.lastN': 'rotate again until the IP is not among the port’s last N IPs',
        'untilNew.maxTries': 'with --until-new: rotations at most',
        untilUnique: 'rotate again (waiting out cooldowns) until the verdict is clean, at most N times',
      },
      defaults: { 'untilNew.maxTries': 5 },
    },
    extra: [
      { ...WAIT, help: 'wait out a cooldown instead of failing (exit code 3 on --timeout)' },
      timeout(120),
    ],
    run: rotate,
    render: renderReceipt,
  },
  history: {
    path: ['ports', 'history'],
    channel: 'ports:ipHistory',
    also: ['ports:exportIpHistory'],
    summary: 'Show the IP history of a port, with the app’s receipts',
    examples: [
      'proxy-manager ports history port_1 --per-page 50',
      'proxy-manager ports history port_1 --csv > ips.csv',
    ],
    fields: { ...portArg, defaults: { page: 1, perPage: 20 } },
    extra: [{ flags: '--csv', help: 'every page as CSV' }],
    run: history,
    render: (view: IpHistoryView, context) =>
      `${table(context.out, view.data, [
        { header: 'IP', value: (row) => row.ip },
        { header: 'ASSIGNED', value: (row) => localTime(row.assignedAt) },
        { header: 'RELEASED', value: (row) => localTime(row.releasedAt) },
        { header: 'TRIGGER', value: (row) => row.trigger },
        {
          header: 'RECEIPT',
          value: (row) => (row.receipt ? `${row.receipt.trigger} ${row.receipt.tookMs} ms` : ''),
        },
      ])}\n\nPage ${view.pagination.page} of ${view.pagination.totalPages} (${view.pagination.total} entries)`,
  },
  health: {
    path: ['ports', 'health'],
    channel: 'ports:health',
    summary: 'Show the health of your ports: up or down, uptime, latency and rotation verdicts',
    examples: ['proxy-manager ports health', 'proxy-manager ports health port_1 --json'],
    fields: { ...portArg, describe: { portId: 'one port’s id, from `ports list` (default: every port)' } },
    render: renderHealth,
  },
  receipts: {
    path: ['ports', 'receipts'],
    channel: 'ports:receipts',
    summary: 'Show the app’s receipts of the rotations of a port, newest first',
    examples: ['proxy-manager ports receipts port_1'],
    fields: portArg,
    render: (receipts: RotationReceipt[], context) =>
      table(context.out, receipts, [
        { header: 'FINISHED', value: (r) => localTime(r.finishedAt) },
        { header: 'FROM', value: (r) => r.previousIp },
        { header: 'TO', value: (r) => r.ip },
        { header: 'TRIGGER', value: (r) => r.trigger },
        { header: 'TOOK', value: (r) => `${(r.tookMs / 1000).toFixed(1)} s`, right: true },
      ]),
  },
  usage: {
    path: ['ports', 'usage'],
    channel: 'ports:usage',
    places: usagePlaces,
    summary: 'Show the daily traffic of a port (for information: bandwidth is unlimited)',
    examples: ['proxy-manager ports usage port_1 --from 2026-03-01 --to 2026-03-10'],
    fields: portArg,
    render: renderUsage,
  },
  relocate: {
    path: ['ports', 'relocate'],
    channel: 'ports:relocate',
    also: ['ports:get'],
    summary: 'Move a port to another country, carrier or city (it is provisioning for a while)',
    examples: ['proxy-manager ports relocate port_1 --country US --carrier tmobile_us --wait'],
    fields: { ...portArg, describe: { ...portArg.describe, city: 'a city id from `catalog cities`' } },
    extra: [WAIT, timeout(600)],
    run: relocate,
    render: renderPort,
    places: (port: MobilePortView) => [port.country],
  },
  scheduleList: {
    path: ['ports', 'schedule', 'list'],
    channel: 'schedules:list',
    summary: 'List the rotation schedules of your ports',
    examples: ['proxy-manager ports schedule list'],
    render: renderSchedules,
  },
  scheduleSet: {
    path: ['ports', 'schedule', 'set'],
    channel: 'schedules:set',
    summary: 'Rotate ports on a schedule (runs in the desktop app or web mode)',
    examples: [
      'proxy-manager ports schedule set port_1 --every 600',
      "proxy-manager ports schedule set port_1 port_2 --cron '0 * * * *' --timezone Europe/Berlin --stagger 60",
    ],
    fields: {
      args: ['portIds'],
      rename: {
        portIds: 'port-ids',
        'cadence.seconds': 'every',
        'cadence.expression': 'cron',
        jitterSeconds: 'jitter',
        staggerSeconds: 'stagger',
      },
      placeholder: {
        'cadence.seconds': 'seconds',
        'cadence.expression': 'expression',
        'cadence.timezone': 'zone',
      },
      describe: {
        'cadence.seconds': 'rotate every this many seconds',
        'cadence.expression': 'rotate on a cron expression (5 or 6 fields)',
        'cadence.timezone': 'with --cron: its IANA time zone',
        jitterSeconds: 'random delay added to each run, in seconds',
        staggerSeconds: 'with several ports: port i runs i × this many seconds after the slot',
      },
    },
    render: renderSchedules,
  },
  scheduleRemove: {
    path: ['ports', 'schedule', 'rm'],
    channel: 'schedules:remove',
    summary: 'Remove the schedules of ports',
    examples: ['proxy-manager ports schedule rm port_1 port_2'],
    fields: { args: ['portIds'], rename: { portIds: 'port-ids' } },
    render: renderSchedules,
  },
  schedulePause: {
    path: ['ports', 'schedule', 'pause'],
    channel: 'schedules:pause',
    summary: 'Pause every schedule (of every profile)',
    examples: ['proxy-manager ports schedule pause'],
    fields: { fixed: { paused: true } },
    render: renderSchedules,
  },
  scheduleResume: {
    path: ['ports', 'schedule', 'resume'],
    channel: 'schedules:pause',
    summary: 'Resume the schedules (one catch-up run, not a burst)',
    examples: ['proxy-manager ports schedule resume'],
    fields: { fixed: { paused: false } },
    render: renderSchedules,
  },
} satisfies Record<string, CommandSpec>;
