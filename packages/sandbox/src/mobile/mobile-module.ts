import { replacePassword } from '../gateway/gateway-credentials';
import { BodyReader, QueryReader } from '../http/input-reader';
import { paginate, readPageRequest } from '../http/pagination';
import type { RouteContext, RouteDefinition, RouteResult } from '../http/router';
import { conflict, notFound, SandboxError } from '../http/sandbox-error';
import type { SandboxModule, SandboxWorld } from '../sandbox-world';
import { buildUsageReport, readUsageWindow, type UsageSource } from '../usage/usage-report';
import { newPassword } from './port-factory';
import {
  earlierIp,
  nextRotationAvailableAt,
  rotatePort,
  settlePorts,
  startRelocation,
} from './port-lifecycle';
import { checkAvailability, readLocation } from './port-location';
import {
  type IpTrigger,
  LABEL_MAX_LENGTH,
  MAX_INTERVAL_MINUTES,
  MIN_INTERVAL_MINUTES,
  type MobilePortRecord,
  type RotationMode,
} from './port-record';
import { linkContext, renderIpHistoryEntry, renderPort, renderRotation } from './port-view';
import { PROXIES_SCOPE } from '../sandbox-scopes';

const MINUTE_MS = 60_000;
const ROTATION_DELAY_MIN_MS = 5_000;
const ROTATION_DELAY_MAX_MS = 15_000;

/** Mobile ports: list, read, change, rotate (now, by link, on a timer), relocate, IP history, usage. */
export function createMobileModule(world: SandboxWorld): SandboxModule {
  const ports = (): MobilePortRecord[] => world.state.mobile.ports;
  /**
   * Control switch: how many of a port's next rotations hand back the same IP. In memory only (a
   * test or demo arms it, then rotates), so it never outlives the process.
   */
  const sameIpNext = new Map<string, number>();
  /** Control switch: how many of a port's next rotations hand back an IP it had before. In memory only. */
  const repeatIpNext = new Map<string, number>();

  const controlPort = (portId: string | undefined): MobilePortRecord => {
    const port = ports().find((p) => p.id === portId);
    if (!port) throw notFound(`Mobile port ${portId ?? ''}`);
    return port;
  };

  const findPort = (ctx: RouteContext): MobilePortRecord => {
    const id = ctx.params.portId ?? '';
    const port = ports().find((p) => p.id === id);
    if (!port) throw notFound(`Mobile port ${id}`);
    return port;
  };

  const portBody = (ctx: RouteContext, port: MobilePortRecord, status = 200): RouteResult => ({
    status,
    body: renderPort(port, linkContext(ctx.headers, ctx.auth?.key ?? ''), world.gateway),
  });

  /** Expired and provisioning ports cannot change modem; `action` names what was refused. */
  const assertOnline = (port: MobilePortRecord, action: string): void => {
    if (port.status === 'expired') {
      throw conflict(
        'port_expired',
        `Port ${port.id} expired at ${new Date(port.expiresAt).toISOString()}; cannot ${action}`,
      );
    }
    if (port.status === 'provisioning') {
      throw conflict(
        'port_provisioning',
        `Port ${port.id} is moving to a new modem; cannot ${action} until it is active`,
      );
    }
  };

  /** The rotation itself happens at request time; the answer comes when the modem would have reconnected. */
  const rotate = async (ctx: RouteContext, port: MobilePortRecord, trigger: IpTrigger) => {
    assertOnline(port, 'rotate');
    const availableAt = nextRotationAvailableAt(port);
    if (ctx.now < availableAt) {
      const waitSeconds = Math.max(1, Math.ceil((availableAt - ctx.now) / 1000));
      throw new SandboxError(
        429,
        'rotation_too_soon',
        `One rotation per 30 seconds: try again at ${new Date(availableAt).toISOString()}`,
        undefined,
        { 'Retry-After': String(waitSeconds) },
      );
    }
    const forced = takeOne(sameIpNext, port.id);
    const repeat = !forced && takeOne(repeatIpNext, port.id) ? earlierIp(port) : null;
    const outcome = rotatePort(port, ctx.now, trigger, { sameIp: forced, ...(repeat ? { ip: repeat } : {}) });
    await world.simulateDelay(ROTATION_DELAY_MIN_MS, ROTATION_DELAY_MAX_MS);
    return outcome;
  };

  const routes: RouteDefinition[] = [
    {
      method: 'GET',
      path: '/v1/mobile',
      auth: 'bearer',
      handler: (ctx) => {
        const link = linkContext(ctx.headers, ctx.auth?.key ?? '');
        return { status: 200, body: { data: ports().map((port) => renderPort(port, link, world.gateway)) } };
      },
    },
    {
      method: 'GET',
      path: '/v1/mobile/:portId',
      auth: 'bearer',
      handler: (ctx) => portBody(ctx, findPort(ctx)),
    },
    {
      method: 'PATCH',
      path: '/v1/mobile/:portId',
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: (ctx) => {
        const port = findPort(ctx);
        const reader = BodyReader.of(ctx.body, { emptyAllowed: true });
        const label = reader.string('label', { max: LABEL_MAX_LENGTH, displayText: true });
        const autoRenew = reader.boolean('autoRenew');
        const rotation = readRotation(reader);
        reader.throwIfAny();
        if (label !== undefined) port.label = label;
        if (autoRenew !== undefined) port.autoRenew = autoRenew;
        if (rotation) applyRotation(port, rotation, ctx.now);
        return portBody(ctx, port);
      },
    },
    {
      method: 'POST',
      path: '/v1/mobile/:portId/rotate',
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: async (ctx) => {
        const outcome = await rotate(ctx, findPort(ctx), 'manual');
        return { status: 200, body: renderRotation(outcome) };
      },
    },
    {
      method: 'GET',
      path: '/v1/mobile/:portId/rotate',
      auth: 'query-key',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: async (ctx) => {
        const port = findPort(ctx);
        const query = new QueryReader(ctx.query);
        const format = query.oneOf('format', ['json', 'text'] as const) ?? 'json';
        query.throwIfAny();
        const outcome = await rotate(ctx, port, 'link');
        return format === 'text'
          ? { status: 200, text: outcome.ip }
          : { status: 200, body: renderRotation(outcome) };
      },
    },
    {
      method: 'POST',
      path: '/v1/mobile/:portId/relocate',
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: (ctx) => {
        const port = findPort(ctx);
        const reader = BodyReader.of(ctx.body, { emptyAllowed: false });
        const location = readLocation(reader);
        reader.throwIfAny();
        if (!location) throw new Error('readLocation returned nothing without field errors');
        assertOnline(port, 'relocate');
        const availability = checkAvailability(location);
        if (!availability.ok) throw conflict(availability.reason, availability.message);
        startRelocation(port, world, location, availability.carrier, ctx.now);
        return portBody(ctx, port, 202);
      },
    },
    {
      method: 'POST',
      path: '/v1/mobile/:portId/reset-password',
      auth: 'bearer',
      scope: PROXIES_SCOPE,
      mutates: true,
      handler: (ctx) => {
        const port = findPort(ctx);
        replacePassword(port, newPassword(world.random), ctx.now);
        return portBody(ctx, port);
      },
    },
    {
      method: 'GET',
      path: '/v1/mobile/:portId/ip-history',
      auth: 'bearer',
      handler: (ctx) => {
        const port = findPort(ctx);
        const query = new QueryReader(ctx.query);
        const page = readPageRequest(query);
        query.throwIfAny();
        const newestFirst = [...port.ipHistory].reverse();
        const { data, pagination } = paginate(newestFirst, page);
        return { status: 200, body: { data: data.map(renderIpHistoryEntry), pagination } };
      },
    },
    {
      method: 'GET',
      path: '/v1/mobile/:portId/usage',
      auth: 'bearer',
      handler: (ctx) => {
        const port = findPort(ctx);
        const { fromMs, toMs } = readUsageWindow(new QueryReader(ctx.query), ctx.now);
        return {
          status: 200,
          body: buildUsageReport(usageSources(port), fromMs, toMs, ctx.now, port.gateway),
        };
      },
    },
  ];

  return {
    name: 'mobile',
    routes,
    controlRoutes: [
      {
        // `{ portId, times }`: the port's next `times` rotations (any trigger) keep its IP; 0 disarms.
        method: 'POST',
        path: '/mobile/same-ip',
        auth: 'public',
        handler: ({ body }) => {
          const reader = BodyReader.of(body, { emptyAllowed: false });
          const portId = reader.string('portId', { required: true, min: 1 });
          const times = reader.integer('times', { min: 0, max: 1000 }) ?? 1;
          reader.throwIfAny();
          const port = ports().find((p) => p.id === portId);
          if (!port) throw notFound(`Mobile port ${portId ?? ''}`);
          if (times === 0) sameIpNext.delete(port.id);
          else sameIpNext.set(port.id, times);
          return { status: 200, body: { portId: port.id, remaining: times } };
        },
      },
      {
        // `{ portId, times }`: the port's next `times` rotations hand back the newest IP it had before
        // its current one (an IP seen again); 0 disarms. 409 when the port never had another IP.
        method: 'POST',
        path: '/mobile/repeat-ip',
        auth: 'public',
        handler: ({ body }) => {
          const reader = BodyReader.of(body, { emptyAllowed: false });
          const portId = reader.string('portId', { required: true, min: 1 });
          const times = reader.integer('times', { min: 0, max: 1000 }) ?? 1;
          reader.throwIfAny();
          const port = controlPort(portId);
          const ip = earlierIp(port);
          if (times > 0 && ip === null) {
            throw conflict('no_earlier_ip', `Port ${port.id} has had no IP but its current one`);
          }
          if (times === 0) repeatIpNext.delete(port.id);
          else repeatIpNext.set(port.id, times);
          return { status: 200, body: { portId: port.id, remaining: times, ip } };
        },
      },
      {
        // `{ portId, seconds }`: the port's modem answers no proxy request for `seconds` of sandbox
        // clock (the gateway refuses with 503 `unavailable`); 0 brings it back now.
        method: 'POST',
        path: '/mobile/offline',
        auth: 'public',
        mutates: true,
        handler: ({ body, now }) => {
          const reader = BodyReader.of(body, { emptyAllowed: false });
          const portId = reader.string('portId', { required: true, min: 1 });
          const seconds = reader.integer('seconds', { required: true, min: 0, max: 30 * 86_400 });
          reader.throwIfAny();
          const port = controlPort(portId);
          if (seconds === 0 || seconds === undefined) delete port.modemOfflineUntil;
          else port.modemOfflineUntil = now + seconds * 1000;
          const until = port.modemOfflineUntil;
          return {
            status: 200,
            body: {
              portId: port.id,
              offlineUntil: until === undefined ? null : new Date(until).toISOString(),
            },
          };
        },
      },
      {
        // `{ portId, asn, asnName?, country? }`: the port's exit reports this ASN (and country) from now
        // on, as when a carrier moves a modem to another network; `asn: null` goes back to the carrier's.
        method: 'POST',
        path: '/mobile/network',
        auth: 'public',
        mutates: true,
        handler: ({ body }) => {
          const reader = BodyReader.of(body, { emptyAllowed: false });
          const portId = reader.string('portId', { required: true, min: 1 });
          const asn = reader.integer('asn', { required: true, nullable: true, min: 1, max: 4_294_967_295 });
          const asnName = reader.string('asnName', { min: 1, max: 100, displayText: true });
          const country = reader.string('country', { min: 2, max: 2 });
          if (country !== undefined && !/^[A-Z]{2}$/.test(country)) {
            reader.errors.add('country', 'invalid_format', 'must be a two-letter upper-case country code');
          }
          reader.throwIfAny();
          const port = controlPort(portId);
          if (asn === null || asn === undefined) delete port.exitNetwork;
          else {
            port.exitNetwork = {
              asn,
              asnName: asnName ?? `AS${asn}`,
              country: country ?? port.country,
            };
          }
          return { status: 200, body: { portId: port.id, exitNetwork: port.exitNetwork ?? null } };
        },
      },
    ],
    settle: (now) => {
      settlePorts(ports(), now, world.state.account);
    },
    // Expiries spend the balance (renewals); nothing else a port does touches shared state.
    nextEventAt: () => {
      let next: number | null = null;
      for (const port of ports()) {
        if (port.status !== 'expired' && (next === null || port.expiresAt < next)) next = port.expiresAt;
      }
      return next;
    },
  };
}

/** Uses up one of a control switch's armed rotations; true when one was armed. */
function takeOne(armed: Map<string, number>, portId: string): boolean {
  const left = armed.get(portId) ?? 0;
  if (left > 1) armed.set(portId, left - 1);
  else armed.delete(portId);
  return left > 0;
}

interface RotationSetting {
  mode: RotationMode;
  intervalMinutes: number | null;
}

/** `rotation`: `{ mode: "manual", intervalMinutes: null }` or `{ mode: "interval", intervalMinutes: 1-1440 }`. */
function readRotation(reader: BodyReader): RotationSetting | undefined {
  const rotation = reader.object('rotation');
  if (!rotation) return undefined;
  const mode = rotation.oneOf('mode', ['interval', 'manual'] as const, { required: true });
  if (mode === 'interval') {
    const minutes = rotation.integer('intervalMinutes', {
      required: true,
      min: MIN_INTERVAL_MINUTES,
      max: MAX_INTERVAL_MINUTES,
    });
    return minutes === undefined ? undefined : { mode, intervalMinutes: minutes };
  }
  const minutes = rotation.integer('intervalMinutes', { nullable: true });
  if (mode === 'manual') {
    if (typeof minutes === 'number') {
      reader.errors.add('rotation.intervalMinutes', 'must_be_null', 'must be null when mode is manual');
      return undefined;
    }
    return { mode, intervalMinutes: null };
  }
  return undefined;
}

/** A new interval (or a switch to interval) starts its timer now; the same setting sent again changes nothing. */
function applyRotation(port: MobilePortRecord, rotation: RotationSetting, now: number): void {
  const unchanged =
    port.rotation.mode === rotation.mode && port.rotation.intervalMinutes === rotation.intervalMinutes;
  port.rotation = { ...rotation };
  if (unchanged) return;
  port.nextIntervalRotationAt =
    rotation.mode === 'interval' && rotation.intervalMinutes !== null && port.status === 'active'
      ? now + rotation.intervalMinutes * MINUTE_MS
      : null;
}

/** One usage source per country the port has exited from (relocations), so `byCountry` follows it. */
function usageSources(port: MobilePortRecord): UsageSource[] {
  return port.locations.map((location, i) => ({
    key: `mobile|${port.id}`,
    activeFromMs: i === 0 ? port.createdAt : location.since,
    activeUntilMs: port.locations[i + 1]?.since ?? (port.status === 'expired' ? port.expiresAt : null),
    meanDailyBytes: port.meanDailyBytes,
    countries: [location.country],
  }));
}
