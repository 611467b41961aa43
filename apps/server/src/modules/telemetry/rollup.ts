import type { SqlExecutor } from '../../platform/db/database.ts';
import { FIVE_MINUTES, ZoneBuckets } from './zone.ts';

/** Partial aggregates of one device and bucket, one element per property slot. */
export class Aggregate {
  cnt: Int32Array;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
  first: Float64Array;
  last: Float64Array;
  firstTs = Infinity;
  lastTs = -Infinity;

  constructor(readonly deviceId: number, readonly bucket: number, size: number) {
    this.cnt = new Int32Array(size);
    this.sum = new Float64Array(size);
    this.min = new Float64Array(size).fill(Infinity);
    this.max = new Float64Array(size).fill(-Infinity);
    this.first = new Float64Array(size).fill(NaN);
    this.last = new Float64Array(size).fill(NaN);
  }

  private grow(size: number): void {
    const widen = <T extends Int32Array | Float64Array>(a: T, fill: number): T => {
      const next = new (a.constructor as new (n: number) => T)(size);
      next.fill(fill);
      next.set(a);
      return next;
    };
    this.cnt = widen(this.cnt, 0);
    this.sum = widen(this.sum, 0);
    this.min = widen(this.min, Infinity);
    this.max = widen(this.max, -Infinity);
    this.first = widen(this.first, NaN);
    this.last = widen(this.last, NaN);
  }

  add(ts: number, values: Float64Array): void {
    if (values.length > this.cnt.length) this.grow(values.length);
    const isFirst = ts < this.firstTs;
    const isLast = ts >= this.lastTs;
    if (isFirst) this.firstTs = ts;
    if (isLast) this.lastTs = ts;
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!;
      if (Number.isNaN(x)) continue;
      this.cnt[i]!++;
      this.sum[i]! += x;
      if (x < this.min[i]!) this.min[i] = x;
      if (x > this.max[i]!) this.max[i] = x;
      if (isFirst || Number.isNaN(this.first[i]!)) this.first[i] = x;
      if (isLast || Number.isNaN(this.last[i]!)) this.last[i] = x;
    }
  }
}

/**
 * PostgreSQL array literal text of a numeric array (non-finite → NULL): node-postgres'
 * generic array serialisation costs about ten times more, and a flush holds millions of numbers.
 */
function literal(a: Float64Array | Int32Array): string {
  let out = '{';
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (i > 0) out += ',';
    out += Number.isFinite(x) ? String(x) : 'NULL';
  }
  return `${out}}`;
}

export type Granularity = '5m' | '1h' | '1d';
export const ROLLUP_TABLES: Record<Granularity, string> = { '5m': 'telemetry_5m', '1h': 'telemetry_1h', '1d': 'telemetry_1d' };

interface DeviceAggregates {
  zone: ZoneBuckets;
  open: Record<Granularity, Aggregate | null>;
}

const ROWS_PER_STATEMENT = 500;

/**
 * Rollups maintained incrementally: every stored report is folded into its device's open
 * 5-minute, hour and day aggregates in memory; a flush upserts every touched aggregate and
 * merges with what is stored (sums and counts add, min/max compare, first/last by time). The
 * cost is one row per device and granularity per flush, whatever the report rate.
 */
export class RollupAccumulator {
  private readonly devices = new Map<number, DeviceAggregates>();
  private closed: Record<Granularity, Aggregate[]> = { '5m': [], '1h': [], '1d': [] };
  private readonly zones = new Map<string, ZoneBuckets>();

  add(deviceId: number, timeZone: string, ts: number, values: Float64Array): void {
    let d = this.devices.get(deviceId);
    if (!d) {
      let zone = this.zones.get(timeZone);
      if (!zone) {
        zone = new ZoneBuckets(timeZone);
        this.zones.set(timeZone, zone);
      }
      d = { zone, open: { '5m': null, '1h': null, '1d': null } };
      this.devices.set(deviceId, d);
    }
    this.fold(d, '5m', deviceId, Math.floor(ts / FIVE_MINUTES) * FIVE_MINUTES, ts, values);
    this.fold(d, '1h', deviceId, d.zone.hourOf(ts), ts, values);
    this.fold(d, '1d', deviceId, d.zone.dayOf(ts), ts, values);
  }

  private fold(d: DeviceAggregates, g: Granularity, deviceId: number, bucket: number, ts: number, values: Float64Array): void {
    let agg = d.open[g];
    if (!agg || agg.bucket !== bucket) {
      if (agg) this.closed[g].push(agg);
      agg = new Aggregate(deviceId, bucket, values.length);
      d.open[g] = agg;
    }
    agg.add(ts, values);
  }

  /** Takes every aggregate touched since the last take; open ones start again empty. */
  take(): Record<Granularity, Aggregate[]> {
    const out = this.closed;
    this.closed = { '5m': [], '1h': [], '1d': [] };
    for (const d of this.devices.values()) {
      for (const g of ['5m', '1h', '1d'] as const) {
        const agg = d.open[g];
        if (agg && agg.lastTs !== -Infinity) out[g].push(agg);
        d.open[g] = null;
      }
    }
    return out;
  }

  get size(): number {
    return this.devices.size;
  }
}

/** Upserts aggregates into a rollup table, merging with stored partial aggregates. */
export async function writeAggregates(sql: SqlExecutor, table: string, aggs: Aggregate[]): Promise<void> {
  for (let i = 0; i < aggs.length; i += ROWS_PER_STATEMENT) {
    const chunk = aggs.slice(i, i + ROWS_PER_STATEMENT);
    const params: unknown[] = [];
    const rows = chunk.map((a) => {
      const b = params.length;
      params.push(
        a.deviceId, new Date(a.bucket), literal(a.cnt), literal(a.sum), literal(a.min), literal(a.max),
        new Date(a.firstTs), literal(a.first), new Date(a.lastTs), literal(a.last),
      );
      return `($${b + 1}::int4,$${b + 2}::timestamptz,$${b + 3}::int4[],$${b + 4}::float8[],$${b + 5}::float8[],$${b + 6}::float8[],$${b + 7}::timestamptz,$${b + 8}::float8[],$${b + 9}::timestamptz,$${b + 10}::float8[])`;
    });
    // Two aggregates of one device and bucket in one statement would hit the same row twice.
    await sql.query(
      `insert into ${table} as r (device_id, bucket, cnt, sum, min, max, first_ts, first, last_ts, last) values ${rows.join(',')}
       on conflict (device_id, bucket) do update set
         cnt = ess_arr_add(r.cnt, excluded.cnt),
         sum = ess_arr_add(r.sum, excluded.sum),
         min = ess_arr_least(r.min, excluded.min),
         max = ess_arr_greatest(r.max, excluded.max),
         first = case when excluded.first_ts < r.first_ts then ess_arr_prefer(excluded.first, r.first) else ess_arr_prefer(r.first, excluded.first) end,
         first_ts = least(r.first_ts, excluded.first_ts),
         last = case when excluded.last_ts >= r.last_ts then ess_arr_prefer(excluded.last, r.last) else ess_arr_prefer(r.last, excluded.last) end,
         last_ts = greatest(r.last_ts, excluded.last_ts)`,
      params,
    );
  }
}

/** Splits aggregates so that no statement holds two of the same device and bucket. */
export function uniqueRuns(aggs: Aggregate[]): Aggregate[][] {
  const runs: Aggregate[][] = [];
  const seen: Set<string>[] = [];
  for (const a of aggs) {
    const key = `${a.deviceId}:${a.bucket}`;
    let i = 0;
    while (seen[i]?.has(key)) i++;
    (runs[i] ??= []).push(a);
    (seen[i] ??= new Set()).add(key);
  }
  return runs;
}
