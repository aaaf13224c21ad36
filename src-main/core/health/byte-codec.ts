/**
 * Unsigned varints and short strings: the health store packs many buckets or checks into one row's
 * blob, and most numbers in them (counts, offsets, milliseconds) fit in one or two bytes.
 */
export class ByteWriter {
  private buffer = Buffer.allocUnsafe(256);
  private length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + extra));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  /** A non-negative safe integer. */
  uint(value: number): this {
    this.ensure(8);
    let rest = Math.max(0, Math.floor(value));
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.length++] = rest;
    return this;
  }

  /** Null as 0, n as n + 1. */
  optionalUint(value: number | null): this {
    return this.uint(value === null ? 0 : value + 1);
  }

  /** Any safe integer, zigzag-coded (0, -1, 1, -2, ... as 0, 1, 2, 3, ...). */
  int(value: number): this {
    return this.uint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** Null as length 0, a string as its UTF-8 length + 1 and bytes. */
  optionalString(value: string | null): this {
    if (value === null) return this.uint(0);
    const bytes = Buffer.from(value, 'utf8');
    this.uint(bytes.length + 1);
    this.ensure(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
    return this;
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.buffer.subarray(0, this.length));
  }
}

export class ByteReader {
  private offset = 0;

  constructor(private readonly data: Uint8Array) {}

  get done(): boolean {
    return this.offset >= this.data.length;
  }

  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.data[this.offset++];
      if (byte === undefined) throw new Error('Truncated health record');
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  int(): number {
    const coded = this.uint();
    return coded % 2 === 0 ? coded / 2 : -(coded + 1) / 2;
  }

  optionalUint(): number | null {
    const value = this.uint();
    return value === 0 ? null : value - 1;
  }

  optionalString(): string | null {
    const length = this.uint();
    if (length === 0) return null;
    const end = this.offset + length - 1;
    if (end > this.data.length) throw new Error('Truncated health record');
    const text = Buffer.from(this.data.buffer, this.data.byteOffset + this.offset, length - 1).toString(
      'utf8',
    );
    this.offset = end;
    return text;
  }
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** An IP as 0 (none), 1 + a 32-bit number (IPv4: 6 bytes at most instead of up to 16), or 2 + text. */
export function writeIp(writer: ByteWriter, ip: string | null): void {
  if (ip === null) {
    writer.uint(0);
    return;
  }
  const parts = IPV4.exec(ip)?.slice(1).map(Number);
  if (parts && parts.every((part) => part <= 255) && String(parts.join('.')) === ip) {
    writer.uint(1).uint(parts.reduce((value, part) => value * 256 + part, 0));
    return;
  }
  writer.uint(2).optionalString(ip);
}

export function readIp(reader: ByteReader): string | null {
  const kind = reader.uint();
  if (kind === 0) return null;
  if (kind === 1) {
    const value = reader.uint();
    return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
  }
  return reader.optionalString();
}
