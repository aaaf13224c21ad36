import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AsnLookup, ipv4Number, parseRanges } from '../../../src-main/core/health/asn-lookup';

describe('AsnLookup', () => {
  it('finds the range of an address by bisection, with quoted names and unknown gaps', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asn-'));
    const file = join(dir, 'asn.csv');
    writeFileSync(
      file,
      [
        '16777216,16777471,13335,"Cloudflare, Inc."',
        '16778240,16779263,38803,Gtelecom Pty Ltd',
        `${ipv4Number('100.64.0.0')},${ipv4Number('100.127.255.255')},64999,CGNAT test`,
        'garbage line',
        '',
      ].join('\n'),
    );
    const lookup = new AsnLookup(file);
    expect(lookup.asnOf('1.0.0.1')).toBe(13335);
    expect(lookup.asnOf('1.0.4.0')).toBe(38803);
    expect(lookup.asnOf('1.0.2.0')).toBeNull();
    expect(lookup.asnOf('100.100.1.1')).toBe(64999);
    expect(lookup.asnOf('2001:db8::1')).toBeNull();
    expect(lookup.asnOf('300.1.1.1')).toBeNull();
    rmSync(dir, { recursive: true, force: true });
    expect(parseRanges('1,2,3,x\nbad').asn).toEqual(new Uint32Array([3]));
  });

  it('answers null (and logs once) when the data set cannot be read', () => {
    const lines: string[] = [];
    const lookup = new AsnLookup('/nonexistent/asn.csv', (line) => lines.push(line));
    expect(lookup.asnOf('1.1.1.1')).toBeNull();
    expect(lookup.asnOf('8.8.8.8')).toBeNull();
    expect(lines).toHaveLength(1);
    expect(new AsnLookup(null).asnOf('1.1.1.1')).toBeNull();
  });

  it('ships the @ip-location-db/asn data set: 1.1.1.1 is Cloudflare (AS13335), 8.8.8.8 Google (AS15169)', () => {
    const file = AsnLookup.defaultFile();
    expect(file).toMatch(/@ip-location-db[\\/]asn[\\/]asn-ipv4-num\.csv$/);
    const lookup = new AsnLookup(file);
    expect(lookup.asnOf('1.1.1.1')).toBe(13335);
    expect(lookup.asnOf('8.8.8.8')).toBe(15169);
  });
});
