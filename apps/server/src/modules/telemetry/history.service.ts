import { and, eq, inArray } from 'drizzle-orm';
import { HISTORY_RANGE_LIMITS_MS, type DeviceHistory, type HistoryInterval, type HistoryPoint, type HistorySeries } from '@ess/contract';
import { productProperty } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { deviceOne } from '../device/index.ts';
import { ROLLUP_TABLES } from './rollup.ts';
import { localMonth } from '../../platform/time/local-time.ts';

type Interval = Exclude<HistoryInterval, 'auto'>;

const DAY = 86_400_000;

/** Bucket width of each level (raw reports have none). */
const WIDTH: Record<Interval, number> = { raw: 0, '5m': 300_000, '1h': 3_600_000, '1d': DAY };

/** The levels `auto` may use for a range, finest first, each within its range limit. */
function autoLevels(rangeMs: number): Interval[] {
  const out: Interval[] = [];
  if (rangeMs <= HISTORY_RANGE_LIMITS_MS.raw) out.push('raw');
  if (rangeMs <= HISTORY_RANGE_LIMITS_MS['5m']) out.push('5m');
  out.push('1h');
  return out;
}

/** The device's first report (raw) or first bucket holding the range's data (rollups) in [start, end), epoch ms. */
async function firstOf(ctx: AppContext, level: Interval, deviceId: number, start: number, end: number): Promise<number | null> {
  const { sql } = ctx.database;
  const { rows } = level === 'raw'
    ? await sql.query<{ t: unknown }>(
      'select (extract(epoch from ts) * 1000)::float8 as t from telemetry where device_id = $1 and ts >= $2 and ts < $3 order by ts limit 1',
      [deviceId, new Date(start), new Date(end)],
    )
    : await sql.query<{ t: unknown }>(
      `select (extract(epoch from bucket) * 1000)::float8 as t from ${ROLLUP_TABLES[level]} where device_id = $1 and bucket > $2 and bucket < $3 order by bucket limit 1`,
      [deviceId, new Date(start - WIDTH[level]), new Date(end)],
    );
  return rows[0] ? num(rows[0].t) : null;
}

/**
 * `auto`: the finest level whose data covers the range as far back as any level's does. Raw
 * reports are kept a few days and exist only since the ingest stored them (the demo's history,
 * for one, is written as rollups only); 5-minute rollups are purged after their retention. A
 * level covers when its first data lies within the first bucket of every coarser level that has
 * data (a device that began reporting within the range is covered from its first report by
 * every level alike). Without data anywhere, the finest level the range allows.
 */
async function chooseInterval(ctx: AppContext, asked: HistoryInterval, deviceId: number, start: number, end: number): Promise<Interval> {
  if (asked !== 'auto') return asked;
  const levels = autoLevels(end - start);
  if (levels.length === 1) return levels[0]!;
  const firsts = await Promise.all(levels.map((l) => firstOf(ctx, l, deviceId, start, end)));
  for (let i = 0; i < levels.length - 1; i++) {
    const f = firsts[i];
    if (f === null || f === undefined) continue;
    const covers = levels.slice(i + 1).every((coarser, k) => {
      const g = firsts[i + 1 + k];
      return g === null || g === undefined || f < g + WIDTH[coarser];
    });
    if (covers) return levels[i]!;
  }
  return firsts.some((f) => f !== null) ? levels.at(-1)! : levels[0]!;
}

function checkRange(interval: Interval, start: number, end: number, timeZone: string): void {
  const range = end - start;
  if (interval === 'raw' && range > HISTORY_RANGE_LIMITS_MS.raw) throw new AppError('RULE_VIOLATION', '查询时间范围不能超过24小时');
  if (interval === '5m' && range > HISTORY_RANGE_LIMITS_MS['5m']) throw new AppError('RULE_VIOLATION', '5分钟数据的查询时间范围不能超过7天');
  if (interval === '1h' && range > HISTORY_RANGE_LIMITS_MS['1h']) throw new AppError('RULE_VIOLATION', '小时数据的查询时间范围不能超过93天');
  if (interval === '1d') {
    const month = localMonth(timeZone, start);
    if (end > month.end) throw new AppError('RULE_VIOLATION', '日统计不能跨月查询');
  }
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : x === null || x === undefined ? null : Number(x));

/**
 * A device's history for some identifiers: raw reports within 24 hours, otherwise the rollup
 * whose bucket suits the range (5 minutes up to 7 days, hours up to 93 days, days within one
 * station-local month); `auto` takes the finest of them that has data for the whole range. Bucket points are averages with min and max; cumulative registers also
 * get the increase per point.
 */
export async function deviceHistory(
  ctx: AppContext,
  user: AuthUser,
  body: { deviceId: number; identifiers: string[]; start: Date; end: Date; interval: HistoryInterval },
): Promise<DeviceHistory> {
  const dev = await deviceOne(ctx, user, body.deviceId);
  const start = body.start.getTime();
  const end = body.end.getTime();
  const [{ timeZone } = { timeZone: 'UTC' }] = await ctx.db.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, dev.siteId));
  const interval = await chooseInterval(ctx, body.interval, dev.id, start, end);
  checkRange(interval, start, end, timeZone);

  const props = await ctx.db
    .select({ identifier: productProperty.identifier, name: productProperty.name, unit: productProperty.unit, cumulative: productProperty.cumulative, slot: productProperty.slot })
    .from(productProperty)
    .where(and(eq(productProperty.productId, dev.productId), inArray(productProperty.identifier, body.identifiers)));
  const byId = new Map(props.map((p) => [p.identifier, p]));
  for (const identifier of body.identifiers) {
    const p = byId.get(identifier);
    if (!p) throw new AppError('INVALID_PARAM', `identifiers: 设备没有属性 ${identifier}`);
    if (p.slot === null) throw new AppError('INVALID_PARAM', `identifiers: 文本属性 ${identifier} 没有历史曲线`);
  }
  const wanted = body.identifiers.map((i) => byId.get(i)!);
  const slots = wanted.map((p) => p.slot!);
  const { sql } = ctx.database;

  const series: HistorySeries[] = wanted.map((p) => ({ identifier: p.identifier, name: p.name, unit: p.unit, cumulative: p.cumulative, points: [] }));

  if (interval === 'raw') {
    const cols = slots.map((s, i) => `v[${s}] as a${i}`).join(', ');
    const { rows } = await sql.query<Record<string, unknown>>(
      `select (extract(epoch from ts) * 1000)::float8 as t, ${cols} from telemetry where device_id = $1 and ts >= $2 and ts < $3 order by ts`,
      [dev.id, body.start, body.end],
    );
    const prevOf = await previousValues(ctx, `select ${slots.map((s, i) => `v[${s}] as a${i}`).join(', ')} from telemetry where device_id = $1 and ts < $2 order by ts desc limit 1`, dev.id, body.start);
    wanted.forEach((p, i) => {
      const s = series[i]!;
      s.points = rows.map((r) => [num(r.t)!, num(r[`a${i}`])] as HistoryPoint);
      if (p.cumulative) s.delta = deltas(s.points, prevOf[i] ?? null);
    });
  } else {
    const table = ROLLUP_TABLES[interval];
    // A bucket may hold partial aggregates of several writers (instances, restarts): combine them.
    const cols = slots
      .map((s, i) => `sum(sum[${s}]) / nullif(sum(cnt[${s}]), 0) as avg${i}, min(min[${s}]) as min${i}, max(max[${s}]) as max${i}, ` +
        `(array_agg(last[${s}] order by last_ts desc))[1] as last${i}`)
      .join(', ');
    // A bucket starting before `start` still holds data of the range: take the one containing start.
    const from = new Date(start - (interval === '5m' ? 300_000 : interval === '1h' ? 3_600_000 : DAY) + 1);
    const { rows } = await sql.query<Record<string, unknown>>(
      `select (extract(epoch from bucket) * 1000)::float8 as t, ${cols} from ${table} where device_id = $1 and bucket >= $2 and bucket < $3 group by bucket order by bucket`,
      [dev.id, from, body.end],
    );
    const first = rows[0] ? new Date(num(rows[0].t)!) : from;
    const prevOf = await previousValues(ctx, `select ${slots.map((s, i) => `last[${s}] as a${i}`).join(', ')} from ${table} where device_id = $1 and bucket < $2 order by bucket desc, last_ts desc limit 1`, dev.id, first);
    wanted.forEach((p, i) => {
      const s = series[i]!;
      s.points = rows.map((r) => [num(r.t)!, num(r[`avg${i}`])] as HistoryPoint);
      s.min = rows.map((r) => [num(r.t)!, num(r[`min${i}`])] as HistoryPoint);
      s.max = rows.map((r) => [num(r.t)!, num(r[`max${i}`])] as HistoryPoint);
      if (p.cumulative) {
        const lasts = rows.map((r) => [num(r.t)!, num(r[`last${i}`])] as HistoryPoint);
        s.delta = deltas(lasts, prevOf[i] ?? null);
      }
    });
  }
  return { deviceId: dev.id, interval, start: body.start.toISOString(), end: body.end.toISOString(), series };
}

async function previousValues(ctx: AppContext, text: string, deviceId: number, before: Date): Promise<(number | null)[]> {
  const { rows } = await ctx.database.sql.query<Record<string, unknown>>(text, [deviceId, before]);
  const row = rows[0];
  if (!row) return [];
  return Object.keys(row).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).map((k) => num(row[k]));
}

/** Increase of a register since the previous reading (the reading before the range for the first). */
function deltas(readings: HistoryPoint[], before: number | null): HistoryPoint[] {
  let prev = before;
  return readings.map(([t, v]) => {
    const d = v !== null && prev !== null ? Math.round((v - prev) * 1e6) / 1e6 : null;
    if (v !== null) prev = v;
    return [t, d];
  });
}
