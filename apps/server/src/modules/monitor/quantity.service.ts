import { and, eq } from 'drizzle-orm';
import type { DeviceType, QuantityChart } from '@ess/contract';
import { productProperty } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { deviceOne } from '../device/index.ts';
import { localMonth, localStart, zoneOffsetMs } from '../../platform/time/local-time.ts';
import { assertType } from './monitor.service.ts';

const DAY = 86_400_000;
const round = (x: number) => Math.round(x * 1e6) / 1e6;
const localYear = (timeZone: string, ts: number) => new Date(ts + zoneOffsetMs(timeZone, ts)).getUTCFullYear();

/** Station-local days (or months) whose start lies in [from, end), as instants. */
function buckets(timeZone: string, type: 'day' | 'month', start: number, end: number): number[] {
  const out: number[] = [];
  let b = type === 'day' ? localStart(timeZone, start, 'day') : localMonth(timeZone, start).start;
  while (b < end) {
    out.push(b);
    b = type === 'day' ? localStart(timeZone, b + DAY * 1.5, 'day') : localMonth(timeZone, b + 40 * DAY).start;
  }
  return out;
}

/**
 * The energy a cumulative register grew by per station-local day or month, from the daily
 * rollups: a day's energy is its last reading minus the last reading before it (or, for the
 * first day the device reported, minus the day's first reading); a month's is the sum of its
 * days. Daily statistics must stay within one local month, monthly ones within one local year.
 */
export async function quantityChart(
  ctx: AppContext,
  user: AuthUser,
  b: { deviceId: number; type: 'day' | 'month'; start: Date; end: Date },
  types: readonly DeviceType[],
  identifier: string,
): Promise<QuantityChart> {
  const dev = await deviceOne(ctx, user, b.deviceId);
  assertType(dev, types);
  const [{ timeZone } = { timeZone: 'UTC' }] = await ctx.db.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, dev.siteId));
  const start = b.start.getTime();
  const end = b.end.getTime();
  if (b.type === 'day' && end > localMonth(timeZone, start).end) throw new AppError('RULE_VIOLATION', '日统计不能跨月查询');
  if (b.type === 'month' && localYear(timeZone, end - 1) !== localYear(timeZone, start)) throw new AppError('RULE_VIOLATION', '月统计不能跨年查询');

  const [prop] = await ctx.db
    .select({ name: productProperty.name, unit: productProperty.unit, slot: productProperty.slot })
    .from(productProperty)
    .where(and(eq(productProperty.productId, dev.productId), eq(productProperty.identifier, identifier)));
  if (!prop || prop.slot === null) throw new AppError('RULE_VIOLATION', `设备产品没有累计属性${identifier}`);
  const s = prop.slot;

  const days = buckets(timeZone, 'day', start, end);
  // Months are whole local months: their days from the 1st.
  const first = b.type === 'month' ? localMonth(timeZone, start).start : localStart(timeZone, start, 'day');
  const { rows } = await ctx.database.sql.query<{ t: number; first: number | null; last: number | null }>(
    `select (extract(epoch from bucket) * 1000)::float8 as t,
            (array_agg(first[${s}] order by first_ts) filter (where cnt[${s}] > 0))[1] as first,
            (array_agg(last[${s}] order by last_ts desc) filter (where cnt[${s}] > 0))[1] as last
       from telemetry_1d where device_id = $1 and bucket >= $2 and bucket < $3 group by bucket order by bucket`,
    [dev.id, new Date(first), new Date(end)],
  );
  const { rows: before } = await ctx.database.sql.query<{ last: number | null }>(
    `select last[${s}] as last from telemetry_1d where device_id = $1 and bucket < $2 and cnt[${s}] > 0 order by bucket desc, last_ts desc limit 1`,
    [dev.id, new Date(first)],
  );
  let prev = before[0]?.last ?? null;
  const perDay = new Map<number, number>();
  for (const r of rows) {
    if (r.last === null) continue;
    const base = prev ?? r.first;
    if (base !== null) perDay.set(Number(r.t), round(Number(r.last) - Number(base)));
    prev = Number(r.last);
  }

  let points: [number, number | null][];
  if (b.type === 'day') {
    points = days.map((d) => [d, perDay.get(d) ?? null]);
  } else {
    const months = buckets(timeZone, 'month', start, end);
    points = months.map((m, i) => {
      const next = months[i + 1] ?? localMonth(timeZone, m).end;
      const inMonth = [...perDay.entries()].filter(([d]) => d >= m && d < next).map(([, v]) => v);
      return [m, inMonth.length ? round(inMonth.reduce((a, x) => a + x, 0)) : null];
    });
  }
  const total = round(points.reduce((a, [, v]) => a + (v ?? 0), 0));
  return { deviceId: dev.id, type: b.type, identifier, name: prop.name, unit: prop.unit, points, total };
}
