import { randomInt } from 'node:crypto';
import { CopyEncoder } from './copy.ts';
import type { Session } from './copy-writer.ts';
import { FIVE_MINUTES, ZoneBuckets } from '../../platform/time/local-time.ts';

/** One writer's aggregate of one device and bucket, one element per property slot. */
export class Aggregate {
  cnt: Int32Array;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
  first: Float64Array;
  last: Float64Array;
  firstTs = Infinity;
  lastTs = -Infinity;

  dirty = false;
  /** Last written (or, until then, created): a filling aggregate is written every snapshotMs. */
  writtenAt = Date.now();

  constructor(readonly deviceId: number, readonly bucket: number, size: number, readonly writer: number) {
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

export type Granularity = '5m' | '1h' | '1d';
export const ROLLUP_TABLES: Record<Granularity, string> = { '5m': 'telemetry_5m', '1h': 'telemetry_1h', '1d': 'telemetry_1d' };
const GRANULARITIES: Granularity[] = ['5m', '1h', '1d'];

/** One device's aggregates by granularity and bucket. */
interface DeviceAggregates {
  zone: ZoneBuckets;
  buckets: Record<Granularity, Map<number, Aggregate>>;
  /** Newest bucket seen: older ones are complete unless late reports come. */
  newest: Record<Granularity, number>;
  /** Buckets below this were written and dropped from memory. */
  floor: Record<Granularity, number>;
}

/** A writer key unique per ingest process, so partial aggregates of several instances never collide. */
const randomWriter = () => randomInt(1, 0x7fffffff);

/**
 * Rollups maintained incrementally: every stored report is folded into its device's 5-minute,
 * hour and day aggregates in memory. An aggregate is written when its bucket is complete (a
 * report of a later bucket came) and, while it fills, at most every `snapshotMs`, always as this
 * process's whole partial aggregate of the bucket (it replaces the row it wrote before; no merge
 * in SQL). A device reporting every 5 s thus costs about three rows per 5 minutes, not a write
 * per report. A report too late for a bucket already dropped from memory starts a partial
 * aggregate under a writer id of its own, so nothing written is ever overwritten by less.
 */
export class RollupAccumulator {
  private readonly devices = new Map<number, DeviceAggregates>();
  private readonly zones = new Map<string, ZoneBuckets>();
  readonly writer = randomWriter();

  constructor(private readonly snapshotMs: number) {}

  add(deviceId: number, timeZone: string, ts: number, values: Float64Array): void {
    let d = this.devices.get(deviceId);
    if (!d) {
      let zone = this.zones.get(timeZone);
      if (!zone) {
        zone = new ZoneBuckets(timeZone);
        this.zones.set(timeZone, zone);
      }
      d = {
        zone,
        buckets: { '5m': new Map(), '1h': new Map(), '1d': new Map() },
        newest: { '5m': -Infinity, '1h': -Infinity, '1d': -Infinity },
        floor: { '5m': -Infinity, '1h': -Infinity, '1d': -Infinity },
      };
      this.devices.set(deviceId, d);
    }
    this.fold(d, '5m', deviceId, Math.floor(ts / FIVE_MINUTES) * FIVE_MINUTES, ts, values);
    this.fold(d, '1h', deviceId, d.zone.hourOf(ts), ts, values);
    this.fold(d, '1d', deviceId, d.zone.dayOf(ts), ts, values);
  }

  private fold(d: DeviceAggregates, g: Granularity, deviceId: number, bucket: number, ts: number, values: Float64Array): void {
    const map = d.buckets[g];
    let agg = map.get(bucket);
    if (!agg) {
      agg = new Aggregate(deviceId, bucket, values.length, bucket < d.floor[g] ? randomWriter() : this.writer);
      map.set(bucket, agg);
    }
    agg.add(ts, values);
    agg.dirty = true;
    if (bucket > d.newest[g]) d.newest[g] = bucket;
  }

  /**
   * The aggregates due for writing: complete ones, and filling ones not written for
   * `snapshotMs` (all dirty ones with `force`). Complete aggregates already written leave memory.
   */
  take(now: number, force = false): Record<Granularity, Aggregate[]> {
    const out: Record<Granularity, Aggregate[]> = { '5m': [], '1h': [], '1d': [] };
    for (const d of this.devices.values()) {
      for (const g of GRANULARITIES) {
        for (const [bucket, agg] of d.buckets[g]) {
          const complete = bucket < d.newest[g];
          if (agg.dirty && (force || complete || now - agg.writtenAt >= this.snapshotMs)) {
            agg.dirty = false;
            agg.writtenAt = now;
            out[g].push(agg);
          } else if (!agg.dirty && complete) {
            d.buckets[g].delete(bucket);
            if (bucket >= d.floor[g]) d.floor[g] = bucket + 1;
          }
        }
      }
    }
    return out;
  }

  /** Puts aggregates whose write failed back to be written next time. */
  retry(aggs: Aggregate[]): void {
    for (const a of aggs) a.dirty = true;
  }

  get size(): number {
    return this.devices.size;
  }
}

const ROLLUP_COLUMNS = 'device_id, bucket, writer, cnt, sum, min, max, first_ts, first, last_ts, last';

/**
 * Writes aggregates, each replacing the row its writer wrote before for the bucket: binary COPY
 * into a staging table (no text parsing of 300 numbers a row), then one upsert.
 */
export async function writeAggregates(s: Session, table: string, aggs: Aggregate[]): Promise<void> {
  const enc = new CopyEncoder(aggs.length * 2500 + 64);
  for (const a of aggs) {
    enc.row(11);
    enc.int4(a.deviceId);
    enc.timestamptz(a.bucket);
    enc.int4(a.writer);
    enc.int4Array(a.cnt);
    enc.float8Array(a.sum);
    enc.float8Array(a.min);
    enc.float8Array(a.max);
    enc.timestamptz(a.firstTs);
    enc.float8Array(a.first);
    enc.timestamptz(a.lastTs);
    enc.float8Array(a.last);
  }
  await s.query(
    `create temp table if not exists ess_rollup_stage
       (device_id int4, bucket timestamptz, writer int4, cnt int4[], sum float8[], min float8[], max float8[],
        first_ts timestamptz, first float8[], last_ts timestamptz, last float8[]) on commit delete rows`,
  );
  await s.copy('ess_rollup_stage', ROLLUP_COLUMNS, enc.take());
  await s.query(
    `insert into ${table} (${ROLLUP_COLUMNS}) select ${ROLLUP_COLUMNS} from ess_rollup_stage
     on conflict (device_id, bucket, writer) do update set
       cnt = excluded.cnt, sum = excluded.sum, min = excluded.min, max = excluded.max,
       first_ts = excluded.first_ts, first = excluded.first, last_ts = excluded.last_ts, last = excluded.last`,
  );
}
