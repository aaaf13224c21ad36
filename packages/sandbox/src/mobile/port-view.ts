import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayEndpoint } from '../gateway/gateway-endpoint';
import type { RotationOutcome } from './port-lifecycle';
import {
  currentEntry,
  type IpHistoryRecord,
  MIN_ROTATION_INTERVAL_SECONDS,
  type MobilePortRecord,
} from './port-record';

/** Where the sandbox mounts the API; the spec's paths follow it literally. */
const API_MOUNT = '/api/v1';
/** A Host header we are willing to echo into a link: name or address, optional port. */
const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

const iso = (ms: number): string => new Date(ms).toISOString();

/** What a rotation link needs from the request that shows it. */
export interface LinkContext {
  host: string;
  key: string;
}

export function linkContext(headers: IncomingHttpHeaders, key: string): LinkContext {
  const host = headers.host;
  return { host: host !== undefined && SAFE_HOST.test(host) ? host : '127.0.0.1', key };
}

/** The bookmarkable GET rotate URL, carrying the API key of the request that asked. */
const rotationLink = (port: MobilePortRecord, link: LinkContext): string =>
  `http://${link.host}${API_MOUNT}/v1/mobile/${encodeURIComponent(port.id)}/rotate?key=${encodeURIComponent(link.key)}`;

/** `endpoint`: where the sandbox's gateway listens now (shared by every port and subscription). */
export function renderPort(port: MobilePortRecord, link: LinkContext, endpoint: GatewayEndpoint) {
  const current = currentEntry(port);
  return {
    id: port.id,
    label: port.label,
    status: port.status,
    country: port.country,
    city: port.city,
    carrier: port.carrier,
    carrierName: port.carrierName,
    networkType: port.networkType,
    currentIp: current.ip,
    ipChangedAt: iso(current.assignedAt),
    endpoint: { ...endpoint },
    username: port.username,
    password: port.password,
    rotation: { ...port.rotation },
    minRotationIntervalSeconds: MIN_ROTATION_INTERVAL_SECONDS,
    rotationLink: rotationLink(port, link),
    planId: port.planId,
    autoRenew: port.autoRenew,
    createdAt: iso(port.createdAt),
    expiresAt: iso(port.expiresAt),
  };
}

export const renderRotation = (outcome: RotationOutcome) => ({
  ip: outcome.ip,
  previousIp: outcome.previousIp,
  rotatedAt: iso(outcome.rotatedAt),
  nextRotationAvailableAt: iso(outcome.nextRotationAvailableAt),
});

export const renderIpHistoryEntry = (entry: IpHistoryRecord) => ({
  ip: entry.ip,
  assignedAt: iso(entry.assignedAt),
  releasedAt: entry.releasedAt === null ? null : iso(entry.releasedAt),
  trigger: entry.trigger,
});
