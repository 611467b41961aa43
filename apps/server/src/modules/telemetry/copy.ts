/**
 * PostgreSQL binary COPY encoding, used for telemetry rows `(device_id int4, ts timestamptz,
 * seq int4, v float8[])` and the latest-values staging rows: ARCHITECTURE.md §7 measured one row per report with a float8 array written by
 * binary COPY an order of magnitude faster than any per-point layout or INSERT.
 */

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
const PG_EPOCH_MS = 946_684_800_000;
const FLOAT8_OID = 701;
const INT4_OID = 23;

/** Appends encoded rows to a growing buffer; `take()` returns a complete COPY stream. */
export class CopyEncoder {
  private buf: Buffer;
  private pos = 0;
  rows = 0;

  constructor(initialBytes = 1 << 20) {
    this.buf = Buffer.allocUnsafe(initialBytes);
    this.header();
  }

  private header(): void {
    SIGNATURE.copy(this.buf, 0);
    this.buf.writeInt32BE(0, 11); // flags
    this.buf.writeInt32BE(0, 15); // header extension length
    this.pos = 19;
    this.rows = 0;
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  get bytes(): number {
    return this.pos;
  }

  /** One report: NaN entries of `values` are written as SQL NULL (identifier not reported). */
  add(deviceId: number, tsMs: number, seq: number | null, values: Float64Array): void {
    this.row(4);
    this.int4(deviceId);
    this.timestamptz(tsMs);
    this.int4(seq);
    this.float8Array(values);
  }

  /** Starts a row of `fields` fields; each field is then written with one of the methods below. */
  row(fields: number): void {
    this.ensure(2);
    this.buf.writeInt16BE(fields, this.pos);
    this.pos += 2;
    this.rows++;
  }

  private nul(): void {
    this.ensure(4);
    this.buf.writeInt32BE(-1, this.pos);
    this.pos += 4;
  }

  int4(v: number | null): void {
    if (v === null) return this.nul();
    this.ensure(8);
    this.buf.writeInt32BE(4, this.pos);
    this.buf.writeInt32BE(v | 0, this.pos + 4);
    this.pos += 8;
  }

  timestamptz(ms: number | null): void {
    if (ms === null) return this.nul();
    this.ensure(12);
    this.buf.writeInt32BE(8, this.pos);
    this.buf.writeBigInt64BE(BigInt(Math.round((ms - PG_EPOCH_MS) * 1000)), this.pos + 4);
    this.pos += 12;
  }

  /** jsonb in binary form: version 1, then the JSON text. */
  jsonb(text: string | null): void {
    if (text === null) return this.nul();
    const bytes = Buffer.byteLength(text);
    this.ensure(9 + bytes);
    this.buf.writeInt32BE(bytes + 1, this.pos);
    this.buf.writeUInt8(1, this.pos + 4);
    this.buf.write(text, this.pos + 5, 'utf8');
    this.pos += 5 + bytes;
  }

  /** A one-dimensional int4[] without NULLs. */
  int4Array(values: Int32Array): void {
    const n = values.length;
    const arrayBytes = 20 + n * 8;
    this.ensure(4 + arrayBytes);
    const b = this.buf;
    let o = this.pos;
    b.writeInt32BE(arrayBytes, o);
    b.writeInt32BE(1, o + 4);
    b.writeInt32BE(0, o + 8);
    b.writeInt32BE(INT4_OID, o + 12);
    b.writeInt32BE(n, o + 16);
    b.writeInt32BE(1, o + 20);
    o += 24;
    for (let i = 0; i < n; i++) {
      b.writeInt32BE(4, o);
      b.writeInt32BE(values[i]!, o + 4);
      o += 8;
    }
    this.pos = o;
  }

  /** A one-dimensional float8[]; non-finite entries are NULL elements. */
  float8Array(values: Float64Array | null): void {
    if (values === null) return this.nul();
    const n = values.length;
    const finite = countFinite(values);
    const arrayBytes = 20 + n * 4 + finite * 8;
    this.ensure(4 + arrayBytes);
    const b = this.buf;
    let o = this.pos;
    b.writeInt32BE(arrayBytes, o);
    b.writeInt32BE(1, o + 4); // dimensions
    b.writeInt32BE(finite < n ? 1 : 0, o + 8); // has nulls
    b.writeInt32BE(FLOAT8_OID, o + 12);
    b.writeInt32BE(n, o + 16);
    b.writeInt32BE(1, o + 20); // lower bound
    o += 24;
    for (let i = 0; i < n; i++) {
      const x = values[i]!;
      if (Number.isFinite(x)) {
        b.writeInt32BE(8, o);
        b.writeDoubleBE(x, o + 4);
        o += 12;
      } else {
        b.writeInt32BE(-1, o);
        o += 4;
      }
    }
    this.pos = o;
  }

  /** The COPY stream of every row added since the last take (with trailer); resets the encoder. */
  take(): Buffer {
    this.ensure(2);
    this.buf.writeInt16BE(-1, this.pos);
    const out = Buffer.from(this.buf.subarray(0, this.pos + 2));
    this.header();
    return out;
  }
}

function countFinite(values: Float64Array): number {
  let c = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) c++;
  return c;
}
