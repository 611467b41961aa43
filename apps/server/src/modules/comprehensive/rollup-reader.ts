import type { AppContext } from '../../platform/context.ts';
import { ROLLUP_TABLES, type Granularity } from '../telemetry/index.ts';
import type { Slots } from './station.ts';

/**
 * Readers over the rollups (telemetry_5m / _1h / _1d) for several devices at once: one statement
 * per product (the products give the array slots), each using the rollup's primary key
 * (device_id, bucket, writer). A bucket may hold partial aggregates of several writers: they are
 * combined here as in telemetry/history.service.ts (sums and counts add up; the first and last
 * values are those of the earliest and latest report).
 */

export interface DeviceRef {
  id: number;
  productId: number;
}

/** Devices grouped by product, each group with the 1-based slots of the identifiers (null where the product lacks one). */
function groups(slots: Slots, devices: readonly DeviceRef[], identifiers: readonly string[]): { ids: number[]; slots: (number | null)[] }[] {
  const byProduct = new Map<number, number[]>();
  for (const d of devices) {
    const list = byProduct.get(d.productId) ?? [];
    list.push(d.id);
    byProduct.set(d.productId, list);
  }
  const out: { ids: number[]; slots: (number | null)[] }[] = [];
  for (const [productId, ids] of byProduct) {
    const p = slots.get(productId);
    const s = identifiers.map((i) => {
      const index = p?.indexOf.get(i);
      return index === undefined ? null : index + 1;
    });
    if (s.some((x) => x !== null)) out.push({ ids, slots: s });
  }
  return out;
}

/** A Postgres int[] literal: bound as one text parameter, the same on node-postgres and PGlite. */
const intArray = (ids: readonly number[]) => `{${ids.map((i) => Math.trunc(i)).join(',')}}`;

const num = (x: unknown): number | null => {
  if (x === null || x === undefined) return null;
  const v = Number(x);
  return Number.isFinite(v) ? v : null;
};

/** device id → identifier → reading */
export type Readings = Map<number, Map<string, number>>;

function put(out: Readings, deviceId: number, identifier: string, value: number | null): void {
  if (value === null) return;
  let m = out.get(deviceId);
  if (!m) out.set(deviceId, (m = new Map<string, number>()));
  m.set(identifier, value);
}

/**
 * Each device's last reading of the identifiers before an instant: from the newest bucket that
 * starts before it and holds a report of the first identifier (registers are reported together).
 * With day rollups and a day boundary, that is the reading at the end of the previous day.
 */
export async function lastBefore(ctx: AppContext, slots: Slots, devices: readonly DeviceRef[], identifiers: readonly string[], at: number, g: Granularity = '1d'): Promise<Readings> {
  const out: Readings = new Map();
  const table = ROLLUP_TABLES[g];
  for (const grp of groups(slots, devices, identifiers)) {
    const lead = grp.slots.find((s) => s !== null)!;
    const cols = grp.slots.map((s, i) => (s === null ? `null::float8 as v${i}` : `last[${s}] as v${i}`)).join(', ');
    const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
      `select d.id as device_id, r.* from unnest($1::int[]) as d(id)
         cross join lateral (
           select ${cols} from ${table} t
            where t.device_id = d.id and t.bucket < $2 and t.cnt[${lead}] > 0
            order by t.bucket desc, t.last_ts desc limit 1) r`,
      [intArray(grp.ids), new Date(at)],
    );
    for (const row of rows) identifiers.forEach((id, i) => put(out, Number(row.device_id), id, num(row[`v${i}`])));
  }
  return out;
}

/** Each device's first reading of the identifiers in [from, to): for a device that started reporting within it. */
export async function firstWithin(ctx: AppContext, slots: Slots, devices: readonly DeviceRef[], identifiers: readonly string[], from: number, to: number, g: Granularity = '1d'): Promise<Readings> {
  const out: Readings = new Map();
  const table = ROLLUP_TABLES[g];
  for (const grp of groups(slots, devices, identifiers)) {
    const lead = grp.slots.find((s) => s !== null)!;
    const cols = grp.slots.map((s, i) => (s === null ? `null::float8 as v${i}` : `first[${s}] as v${i}`)).join(', ');
    const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
      `select d.id as device_id, r.* from unnest($1::int[]) as d(id)
         cross join lateral (
           select ${cols} from ${table} t
            where t.device_id = d.id and t.bucket >= $2 and t.bucket < $3 and t.cnt[${lead}] > 0
            order by t.bucket, t.first_ts limit 1) r`,
      [intArray(grp.ids), new Date(from), new Date(to)],
    );
    for (const row of rows) identifiers.forEach((id, i) => put(out, Number(row.device_id), id, num(row[`v${i}`])));
  }
  return out;
}

export interface BucketReading {
  /** Bucket start, epoch ms. */
  t: number;
  first: number | null;
  last: number | null;
}

/** Per device, the first and last reading of a register in each bucket of [from, to). */
export async function bucketReadings(ctx: AppContext, slots: Slots, devices: readonly DeviceRef[], identifier: string, g: Granularity, from: number, to: number): Promise<Map<number, BucketReading[]>> {
  const out = new Map<number, BucketReading[]>();
  const table = ROLLUP_TABLES[g];
  for (const grp of groups(slots, devices, [identifier])) {
    const s = grp.slots[0]!;
    const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
      `select device_id, (extract(epoch from bucket) * 1000)::float8 as t,
              (array_agg(first[${s}] order by first_ts) filter (where cnt[${s}] > 0))[1] as first,
              (array_agg(last[${s}] order by last_ts desc) filter (where cnt[${s}] > 0))[1] as last
         from ${table} where device_id = any($1::int[]) and bucket >= $2 and bucket < $3
        group by device_id, bucket order by device_id, bucket`,
      [intArray(grp.ids), new Date(from), new Date(to)],
    );
    for (const r of rows) {
      const id = Number(r.device_id);
      const list = out.get(id) ?? [];
      list.push({ t: Number(r.t), first: num(r.first), last: num(r.last) });
      out.set(id, list);
    }
  }
  return out;
}

/** device id → bucket start → average per identifier (in the order asked). */
export type BucketAverages = Map<number, Map<number, (number | null)[]>>;

/** Per device and bucket of [from, to), the average of each identifier over the bucket's reports. */
export async function bucketAverages(ctx: AppContext, slots: Slots, devices: readonly DeviceRef[], identifiers: readonly string[], g: Granularity, from: number, to: number): Promise<BucketAverages> {
  const out: BucketAverages = new Map();
  const table = ROLLUP_TABLES[g];
  for (const grp of groups(slots, devices, identifiers)) {
    const cols = grp.slots
      .map((s, i) => (s === null ? `null::float8 as a${i}` : `sum(sum[${s}]) / nullif(sum(cnt[${s}]), 0) as a${i}`))
      .join(', ');
    const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
      `select device_id, (extract(epoch from bucket) * 1000)::float8 as t, ${cols}
         from ${table} where device_id = any($1::int[]) and bucket >= $2 and bucket < $3
        group by device_id, bucket`,
      [intArray(grp.ids), new Date(from), new Date(to)],
    );
    for (const r of rows) {
      const id = Number(r.device_id);
      let m = out.get(id);
      if (!m) out.set(id, (m = new Map<number, (number | null)[]>()));
      m.set(Number(r.t), identifiers.map((_, i) => num(r[`a${i}`])));
    }
  }
  return out;
}

/**
 * Per device, the 5-minute buckets of [from, to) with a report of the identifier, and among
 * them those whose maximum stayed below `bad` (a state value of fault): for availability.
 */
export async function stateBuckets(ctx: AppContext, slots: Slots, devices: readonly DeviceRef[], identifier: string, bad: number, from: number, to: number): Promise<Map<number, { reported: number; good: number; first: number | null }>> {
  const out = new Map<number, { reported: number; good: number; first: number | null }>();
  for (const grp of groups(slots, devices, [identifier])) {
    const s = grp.slots[0]!;
    const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
      `select device_id, count(*)::int as reported, count(*) filter (where m < $4)::int as good, min(t) as first
         from (select device_id, (extract(epoch from bucket) * 1000)::float8 as t, max(max[${s}]) as m
                 from telemetry_5m where device_id = any($1::int[]) and bucket >= $2 and bucket < $3
                group by device_id, bucket having sum(cnt[${s}]) > 0) b
        group by device_id`,
      [intArray(grp.ids), new Date(from), new Date(to), bad],
    );
    for (const r of rows) out.set(Number(r.device_id), { reported: Number(r.reported), good: Number(r.good), first: num(r.first) });
  }
  return out;
}
