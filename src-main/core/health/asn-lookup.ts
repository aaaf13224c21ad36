import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The ASN of an IPv4 address from an offline data set, for an IP echo that names no ASN (ipify
 * answers the IP only). The data is `@ip-location-db/asn` (RouteViews and DB-IP, CC BY 4.0), shipped
 * in the app and refreshed by an app update: never fetched at run time, so no lookup leaves the
 * machine. Its `asn-ipv4-num.csv` is `first,last,asn,name` with addresses as numbers, sorted and
 * not overlapping; read once, on first use, into typed arrays (about 412,000 ranges, 5 MB) and
 * searched by bisection.
 */
export class AsnLookup {
  private ranges: { first: Uint32Array; last: Uint32Array; asn: Uint32Array } | null = null;
  private failed = false;

  constructor(
    private readonly file: string | null,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** The data set's CSV in the installed package; null when the package is missing. */
  static defaultFile(): string | null {
    try {
      return createRequire(__filename).resolve('@ip-location-db/asn/asn-ipv4-num.csv');
    } catch {
      return null;
    }
  }

  /** The ASN of `ip` (IPv4 only); null when the data set has no range for it or cannot be read. */
  readonly asnOf = (ip: string): number | null => {
    const address = ipv4Number(ip);
    if (address === null) return null;
    const ranges = this.load();
    if (!ranges) return null;
    let low = 0;
    let high = ranges.first.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if ((ranges.first[middle] as number) > address) high = middle - 1;
      else if ((ranges.last[middle] as number) < address) low = middle + 1;
      else return ranges.asn[middle] as number;
    }
    return null;
  };

  private load(): AsnLookup['ranges'] {
    if (this.ranges || this.failed) return this.ranges;
    if (!this.file) {
      this.failed = true;
      return null;
    }
    try {
      this.ranges = parseRanges(readFileSync(this.file, 'utf8'));
    } catch (error) {
      this.failed = true;
      this.log(
        `[health] the ASN data set cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return this.ranges;
  }
}

export function ipv4Number(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const byte = Number(part);
    if (byte > 255) return null;
    value = value * 256 + byte;
  }
  return value;
}

/** `first,last,asn,...` lines (the name may hold quoted commas; only the first three fields are read). */
export function parseRanges(csv: string): { first: Uint32Array; last: Uint32Array; asn: Uint32Array } {
  const lines = csv.split('\n');
  const first = new Uint32Array(lines.length);
  const last = new Uint32Array(lines.length);
  const asn = new Uint32Array(lines.length);
  let count = 0;
  for (const line of lines) {
    const a = line.indexOf(',');
    const b = line.indexOf(',', a + 1);
    const c = line.indexOf(',', b + 1);
    if (a <= 0 || b <= a || c <= b) continue;
    const from = Number(line.slice(0, a));
    const to = Number(line.slice(a + 1, b));
    const number = Number(line.slice(b + 1, c));
    if (!Number.isInteger(from) || !Number.isInteger(to) || !Number.isInteger(number)) continue;
    first[count] = from;
    last[count] = to;
    asn[count] = number;
    count += 1;
  }
  return { first: first.slice(0, count), last: last.slice(0, count), asn: asn.slice(0, count) };
}
