import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { READING_REGISTERS, READING_TOLERANCE_MS, type QualityFlag } from '@ess/contract';
import { device, productProperty } from '../../db/schema/device.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';

/**
 * Reading a meter's cumulative registers at an instant from the stored telemetry (issue 18
 * item 1). The hour rollups (telemetry_1h, station-local hours, kept beyond raw telemetry's
 * retention; the demo's history writes them) hold per bucket the last and first reported value of
 * every slot with the bucket's last and first report times, so the value at or just before an
 * hour boundary M is the last of the bucket ending at M, and the nearest after is the first of
 * the bucket starting at M:
 * - a report within MEASURED_WINDOW_MS before M (or at M): measured;
 * - else the nearest report within READING_TOLERANCE_MS on either side: estimated;
 * - else missing (values null).
 * A meter replacement is read from the raw reports around the change (the last before, the first
 * after), or from the 5-minute rollups when the raw ones are gone (buckets wholly before and
 * wholly after the change; estimated).
 */

/** "At or just before": a report in the last five minutes before the instant. */
export const MEASURED_WINDOW_MS = 5 * 60_000;
const HOUR = 3_600_000;
const FIVE = 300_000;

export interface ReadValues {
  /** kWh by READING_REGISTERS position, null where not read. */
  values: (number | null)[];
  sourceTs: Date | null;
  quality: QualityFlag;
}

export interface MeterRef {
  id: number;
  productId: number;
}

/** The product slots of the twelve registers (READING_REGISTERS order, null where the product has none). */
export async function registerSlots(db: DbOrTx, productId: number): Promise<(number | null)[]> {
  const rows = await db
    .select({ identifier: productProperty.identifier, slot: productProperty.slot })
    .from(productProperty)
    .where(and(eq(productProperty.productId, productId), inArray(productProperty.identifier, [...READING_REGISTERS]), isNotNull(productProperty.slot)));
  const slot = new Map(rows.map((r) => [r.identifier, r.slot!]));
  return READING_REGISTERS.map((r) => slot.get(r) ?? null);
}

const num = (x: unknown): number | null => {
  if (x === null || x === undefined) return null;
  const v = Number(x);
  return Number.isFinite(v) ? Math.round(v * 1000) / 1000 : null;
};
const missing = (): ReadValues => ({ values: READING_REGISTERS.map(() => null), sourceTs: null, quality: 'missing' });

/**
 * The registers at each of `instants` (hour boundaries of the station's zone: local midnights,
 * 24:00 of a month end). One query for all of them.
 */
export async function readAtInstants(ctx: AppContext, meter: MeterRef, instants: readonly number[]): Promise<Map<number, ReadValues>> {
  const out = new Map<number, ReadValues>();
  if (!instants.length) return out;
  const slots = await registerSlots(ctx.db, meter.productId);
  const used = slots.map((s, i) => [s, i] as const).filter((x): x is readonly [number, number] => x[0] !== null);
  if (!used.length) {
    for (const t of instants) out.set(t, missing());
    return out;
  }
  const cols = used.map(([s, i]) =>
    `(array_agg(last[${s}] order by last_ts desc) filter (where cnt[${s}] > 0))[1] as l${i},
     (array_agg(first[${s}] order by first_ts asc) filter (where cnt[${s}] > 0))[1] as f${i}`).join(', ');
  const buckets = [...new Set(instants.flatMap((t) => [t - HOUR, t]))].map((t) => new Date(t).toISOString());
  const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
    `select (extract(epoch from bucket) * 1000)::float8 as b, (extract(epoch from max(last_ts)) * 1000)::float8 as lt,
       (extract(epoch from min(first_ts)) * 1000)::float8 as ft, ${cols}
     from telemetry_1h where device_id = $1 and bucket = any($2::timestamptz[]) group by bucket`,
    [meter.id, `{${buckets.join(',')}}`],
  );
  const byBucket = new Map(rows.map((r) => [Number(r.b), r]));
  for (const t of instants) {
    const before = byBucket.get(t - HOUR);
    const after = byBucket.get(t);
    const lt = before ? Number(before.lt) : null;
    const ft = after ? Number(after.ft) : null;
    const pick = (row: Record<string, unknown>, p: 'l' | 'f') => READING_REGISTERS.map((_, i) => num(row[`${p}${i}`]));
    if (before && lt !== null && lt <= t && t - lt <= MEASURED_WINDOW_MS) {
      out.set(t, { values: pick(before, 'l'), sourceTs: new Date(lt), quality: 'measured' });
      continue;
    }
    const dBefore = before && lt !== null && t - lt <= READING_TOLERANCE_MS ? t - lt : Infinity;
    const dAfter = after && ft !== null && ft - t <= READING_TOLERANCE_MS ? ft - t : Infinity;
    if (dBefore === Infinity && dAfter === Infinity) out.set(t, missing());
    else if (dBefore <= dAfter) out.set(t, { values: pick(before!, 'l'), sourceTs: new Date(lt!), quality: 'estimated' });
    else out.set(t, { values: pick(after!, 'f'), sourceTs: new Date(ft!), quality: 'estimated' });
  }
  return out;
}

/** The old meter's last registers before a replacement at `at` and the new meter's first after it. */
export async function readAroundChange(ctx: AppContext, meter: MeterRef, at: number): Promise<{ oldEnd: ReadValues; newStart: ReadValues }> {
  const slots = await registerSlots(ctx.db, meter.productId);
  const pickRaw = (v: unknown): (number | null)[] => {
    const arr = Array.isArray(v) ? (v as unknown[]) : [];
    return slots.map((s) => (s === null ? null : num(arr[s - 1])));
  };
  const raw = async (before: boolean): Promise<ReadValues | null> => {
    const { rows } = await ctx.database.sql.query<{ ts: Date | string; v: unknown }>(
      before
        ? `select ts, v from telemetry where device_id = $1 and ts < $2 and ts >= $3 order by ts desc limit 1`
        : `select ts, v from telemetry where device_id = $1 and ts >= $2 and ts <= $3 order by ts asc limit 1`,
      [meter.id, new Date(at), new Date(before ? at - READING_TOLERANCE_MS : at + READING_TOLERANCE_MS)],
    );
    const r = rows[0];
    return r ? { values: pickRaw(r.v), sourceTs: new Date(r.ts), quality: 'measured' } : null;
  };
  const used = slots.map((s, i) => [s, i] as const).filter((x): x is readonly [number, number] => x[0] !== null);
  const rollup = async (before: boolean): Promise<ReadValues> => {
    if (!used.length) return missing();
    const p = before ? 'last' : 'first';
    const cols = used.map(([s, i]) => `(array_agg(${p}[${s}] order by ${p}_ts ${before ? 'desc' : 'asc'}) filter (where cnt[${s}] > 0))[1] as r${i}`).join(', ');
    // Buckets wholly before (bucket + 5 min ≤ at) or wholly after (bucket ≥ at) the change.
    const cut = before ? Math.floor(at / FIVE) * FIVE : Math.ceil(at / FIVE) * FIVE;
    const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
      before
        ? `select (extract(epoch from max(last_ts)) * 1000)::float8 as ts, ${cols} from telemetry_5m
             where device_id = $1 and bucket = (select max(bucket) from telemetry_5m where device_id = $1 and bucket < $2 and bucket >= $3)`
        : `select (extract(epoch from min(first_ts)) * 1000)::float8 as ts, ${cols} from telemetry_5m
             where device_id = $1 and bucket = (select min(bucket) from telemetry_5m where device_id = $1 and bucket >= $2 and bucket <= $3)`,
      [meter.id, new Date(cut), new Date(before ? at - READING_TOLERANCE_MS - FIVE : at + READING_TOLERANCE_MS)],
    );
    const r = rows[0];
    if (!r || r.ts === null) return missing();
    return { values: READING_REGISTERS.map((_, i) => num(r[`r${i}`])), sourceTs: new Date(Number(r.ts)), quality: 'estimated' };
  };
  const oldEnd = (await raw(true)) ?? (await rollup(true));
  const newStart = (await raw(false)) ?? (await rollup(false));
  return { oldEnd, newStart };
}

/**
 * The kW a meter of a purpose can physically pass: the rated power of what it measures at its
 * station (storage: the converters; pv: the PV inverters; pile: the charging piles; main: the
 * transformers' kVA, else everything). Null when nothing is rated (no clamping).
 */
export async function meterLimitKw(db: DbOrTx, siteId: number, purpose: string | null): Promise<number | null> {
  const types: Record<string, string[]> = { storage: ['pcs'], pv: ['pvInverter'], pile: ['chargingPile'], main: ['transformer'] };
  const want = types[purpose ?? 'main'] ?? ['transformer'];
  const [r] = await db
    .select({ kw: sql<string | null>`sum(${device.ratedPower})` })
    .from(device)
    .where(and(eq(device.siteId, siteId), inArray(device.type, want)));
  const kw = r?.kw === null || r?.kw === undefined ? null : Number(r.kw);
  return kw && kw > 0 ? kw : null;
}
