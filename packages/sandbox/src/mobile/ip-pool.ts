import { stableHash } from '../seeded-random';

/**
 * Carrier IP pools. Each carrier gets its own /22 inside 100.64.0.0/10 (the shared address space
 * of carrier-grade NAT, RFC 6598), so sandbox IPs look like carrier addresses and can never be
 * mistaken for someone's real exit IP.
 */
const SHARED_SPACE_BASE = (100 << 24) | (64 << 16);
const BLOCKS_IN_SHARED_SPACE = 4096;
/** Per /22: four /24s, hosts .1 to .254 in each. */
export const HOSTS_PER_POOL = 4 * 254;
/** One rotation in eight hands back the same IP, as CGNAT pools do. */
const SAME_IP_ONE_IN = 8;

const poolBase = (country: string, carrier: string): number =>
  SHARED_SPACE_BASE + (stableHash(`pool|${country}|${carrier}`) % BLOCKS_IN_SHARED_SPACE) * 1024;

const formatIpv4 = (address: number): string =>
  [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255].join('.');

const parseIpv4 = (ip: string): number | null => {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return null;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
};

/** The `index`th address (0-based, below HOSTS_PER_POOL) of a carrier's pool. */
export function poolAddress(country: string, carrier: string, index: number): string {
  const third = Math.floor(index / 254);
  const host = (index % 254) + 1;
  return formatIpv4(poolBase(country, carrier) + third * 256 + host);
}

/**
 * What the carrier hands a port when its modem reconnects at `at`: a pure function of the port and
 * the time, so that replaying time (settle) always gives the same IPs. `null` means "the same IP as
 * before".
 */
export function rotationDraw(portId: string, at: number, country: string, carrier: string): string | null {
  const hash = stableHash(`rotate|${portId}|${at}`);
  if (hash % SAME_IP_ONE_IN === 0) return null;
  return poolAddress(country, carrier, Math.floor(hash / SAME_IP_ONE_IN) % HOSTS_PER_POOL);
}

/** A fresh modem's IP (first assignment or relocation): never "the same as before". */
export function freshModemIp(portId: string, at: number, country: string, carrier: string): string {
  return poolAddress(country, carrier, stableHash(`modem|${portId}|${at}`) % HOSTS_PER_POOL);
}

/** Private-use ASNs (RFC 6996), so that a sandbox carrier's ASN is never mistaken for a real network. */
const PRIVATE_ASN_FIRST = 64512;
const PRIVATE_ASNS = 1023;

/** The ASN a carrier's modems exit through: fixed per (country, carrier), in the private-use range. */
export function carrierAsn(country: string, carrier: string): number {
  return PRIVATE_ASN_FIRST + (stableHash(`asn|${country}|${carrier}`) % PRIVATE_ASNS);
}

/** True when `ip` is in the pool of that carrier. */
export function isPoolAddress(country: string, carrier: string, ip: string): boolean {
  const address = parseIpv4(ip);
  if (address === null) return false;
  const offset = address - poolBase(country, carrier);
  return offset >= 0 && offset < 1024 && offset % 256 >= 1 && offset % 256 <= 254;
}
