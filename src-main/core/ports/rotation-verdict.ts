import type { ProxyExit, RotationVerdict } from '../../../src-shared/contract';

/** An IP the port (or another port of the profile) had, and when it was assigned or last seen. */
export interface SeenIp {
  ip: string;
  portId: string;
  at: number;
}

export interface VerdictInput {
  portId: string;
  /** The IP before the rotation and the one the service answered. */
  previousIp: string;
  serviceIp: string;
  /** The exit read through the port after the rotation; null when every check failed. */
  exit: Pick<ProxyExit, 'ip' | 'asn' | 'country'> | null;
  checks: number;
  /** The port's network before: the last exit seen through it (ASN) and the port's country. */
  expectedAsn: number | null;
  expectedCountry: string | null;
  /** IPs seen within the repeat window, newest first (not the rotation's own new assignment). */
  seen: readonly SeenIp[];
}

/**
 * The verdict on one rotation from what a check through the port found: `unchanged` (the old IP
 * still, or handed back), `repeat` (an IP seen within the window on this or another port of the
 * profile), `drift` (another ASN or country than the port's), otherwise `clean`; `unknown` when the
 * port could not be checked. The first that applies wins, in that order.
 */
export function judgeRotation(input: VerdictInput): RotationVerdict {
  const exit = input.exit;
  const base = {
    exitIp: exit?.ip ?? null,
    asn: exit?.asn ?? null,
    country: exit?.country ?? null,
    expectedAsn: input.expectedAsn,
    expectedCountry: input.expectedCountry,
    seenBefore: null,
    checks: input.checks,
  };
  if (!exit) {
    if (input.serviceIp === input.previousIp) {
      return {
        ...base,
        kind: 'unchanged',
        message: `The service handed back the same IP (${input.previousIp}); the port could not be checked.`,
      };
    }
    return { ...base, kind: 'unknown', message: 'The port could not be checked after the rotation.' };
  }
  if (exit.ip === input.previousIp) {
    return {
      ...base,
      kind: 'unchanged',
      message:
        input.serviceIp === input.previousIp
          ? `The rotation kept the IP ${exit.ip}.`
          : `The service answered ${input.serviceIp}, but traffic still leaves from the old IP ${exit.ip}.`,
    };
  }
  const seen = input.seen.find((entry) => entry.ip === exit.ip);
  if (seen) {
    const where = seen.portId === input.portId ? 'this port' : `port ${seen.portId}`;
    const at = new Date(seen.at).toISOString();
    return {
      ...base,
      kind: 'repeat',
      seenBefore: { portId: seen.portId, at },
      message: `${exit.ip} is an IP ${where} had before (${at}).`,
    };
  }
  const asnMoved = input.expectedAsn !== null && exit.asn !== null && exit.asn !== input.expectedAsn;
  const countryMoved =
    input.expectedCountry !== null &&
    exit.country !== null &&
    exit.country.toUpperCase() !== input.expectedCountry.toUpperCase();
  if (asnMoved || countryMoved) {
    const parts = [
      asnMoved ? `AS${exit.asn} instead of AS${input.expectedAsn}` : null,
      countryMoved ? `${exit.country} instead of ${input.expectedCountry}` : null,
    ].filter((part): part is string => part !== null);
    return { ...base, kind: 'drift', message: `${exit.ip} leaves through ${parts.join(' and ')}.` };
  }
  return { ...base, kind: 'clean', message: `${exit.ip} is new and on the port's network.` };
}
