import { and, eq, inArray } from 'drizzle-orm';
import {
  PACK_CELL_COUNT,
  type CellDistribution, type CellTrend, type DeviceLatestRecord, type HistogramBucket, type MonitorChartInterval,
} from '@ess/contract';
import { productProperty } from '../../db/schema/device.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { deviceOne, latestList } from '../device/index.ts';
import { ROLLUP_TABLES } from '../telemetry/index.ts';
import { assertType, assertWithinDay, cellsOf } from './monitor.service.ts';

const round = (x: number, digits = 6) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Equal-width buckets [k·step, (k+1)·step) holding at least one value, in order. */
export function histogram(values: number[], step: number): HistogramBucket[] {
  const counts = new Map<number, number>();
  for (const v of values) {
    // A value a hair below a boundary through float error still belongs to the bucket above.
    const k = Math.floor(round(v / step, 9));
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([k, count]) => ({ from: round(k * step), to: round((k + 1) * step), count }));
}

function stats(values: number[]) {
  if (values.length === 0) return { max: null, min: null, avg: null };
  return { max: Math.max(...values), min: Math.min(...values), avg: round(values.reduce((a, x) => a + x, 0) / values.length) };
}

function distribution(deviceId: number, packs: DeviceLatestRecord[], voltageStep: number, temperatureStep: number): CellDistribution {
  const cells = packs.flatMap((p) => cellsOf(p.values).map((c) => ({ packId: p.id, packNo: p.subNo, ...c })));
  const volts = cells.map((c) => c.voltage).filter((x): x is number => x !== null);
  const temps = cells.map((c) => c.temperature).filter((x): x is number => x !== null);
  const newest = packs.map((p) => p.ts).filter((x): x is string => x !== null).sort().at(-1) ?? null;
  return {
    deviceId,
    ts: newest,
    cells,
    voltage: { histogram: histogram(volts, voltageStep), ...stats(volts), unit: 'V' },
    temperature: { histogram: histogram(temps, temperatureStep), ...stats(temps), unit: '°C' },
  };
}

/** A pack's cell voltages and temperatures (latest values): per cell and as histograms. */
export async function packCellDistribution(ctx: AppContext, user: AuthUser, b: { deviceId: number; voltageStep: number; temperatureStep: number }): Promise<CellDistribution> {
  assertType(await deviceOne(ctx, user, b.deviceId), ['batteryPack']);
  const packs = await latestList(ctx, user, { deviceIds: [b.deviceId] });
  return distribution(b.deviceId, packs, b.voltageStep, b.temperatureStep);
}

/** Every cell of a cluster's packs (latest values), for the cluster's heat map and histograms. */
export async function clusterCellDistribution(ctx: AppContext, user: AuthUser, b: { deviceId: number; voltageStep: number; temperatureStep: number }): Promise<CellDistribution> {
  assertType(await deviceOne(ctx, user, b.deviceId), ['batteryCluster']);
  const packs = (await latestList(ctx, user, { parentId: b.deviceId, types: ['batteryPack'] })).sort((x, y) => (x.subNo ?? 0) - (y.subNo ?? 0) || x.id - y.id);
  return distribution(b.deviceId, packs, b.voltageStep, b.temperatureStep);
}

const BUCKET_MS: Record<MonitorChartInterval, number> = { '5m': 300_000, '1h': 3_600_000 };

/**
 * A pack's cell trend from the rollups: per bucket, the highest cell maximum, the lowest cell
 * minimum and the average of the cell averages, for voltage and temperature.
 */
export async function packCellTrend(
  ctx: AppContext,
  user: AuthUser,
  b: { deviceId: number; start: Date; end: Date; interval: MonitorChartInterval },
): Promise<CellTrend> {
  const dev = await deviceOne(ctx, user, b.deviceId);
  assertType(dev, ['batteryPack']);
  assertWithinDay(b.start, b.end);
  const wanted = Array.from({ length: PACK_CELL_COUNT }, (_, i) => [`cellVoltage${i + 1}`, `cellTemperature${i + 1}`]).flat();
  const props = await ctx.db
    .select({ identifier: productProperty.identifier, slot: productProperty.slot })
    .from(productProperty)
    .where(and(eq(productProperty.productId, dev.productId), inArray(productProperty.identifier, wanted)));
  const slots = (prefix: string) => props.filter((p) => p.identifier.startsWith(prefix) && p.slot !== null).map((p) => p.slot!);
  const vSlots = slots('cellVoltage');
  const tSlots = slots('cellTemperature');
  if (vSlots.length === 0 && tSlots.length === 0) throw new AppError('RULE_VIOLATION', '该电池包的产品没有电芯属性');
  const all = [...vSlots, ...tSlots];
  const cols = all
    .map((s, i) => `sum(sum[${s}]) / nullif(sum(cnt[${s}]), 0) as a${i}, min(min[${s}]) as n${i}, max(max[${s}]) as x${i}`)
    .join(', ');
  const from = new Date(b.start.getTime() - BUCKET_MS[b.interval] + 1);
  const { rows } = await ctx.database.sql.query<Record<string, unknown>>(
    `select (extract(epoch from bucket) * 1000)::float8 as t, ${cols} from ${ROLLUP_TABLES[b.interval]}
     where device_id = $1 and bucket >= $2 and bucket < $3 group by bucket order by bucket`,
    [dev.id, from, b.end],
  );
  const num = (x: unknown) => {
    if (x === null || x === undefined) return null;
    const v = Number(x);
    return Number.isFinite(v) ? v : null;
  };
  const series = (offset: number, count: number) =>
    rows.map((r): [number, number | null, number | null, number | null] => {
      const avgs: number[] = [];
      const mins: number[] = [];
      const maxs: number[] = [];
      for (let i = offset; i < offset + count; i++) {
        const a = num(r[`a${i}`]);
        const n = num(r[`n${i}`]);
        const x = num(r[`x${i}`]);
        if (a !== null) avgs.push(a);
        if (n !== null) mins.push(n);
        if (x !== null) maxs.push(x);
      }
      return [
        Number(r.t),
        maxs.length ? Math.max(...maxs) : null,
        mins.length ? Math.min(...mins) : null,
        avgs.length ? round(avgs.reduce((a, x) => a + x, 0) / avgs.length) : null,
      ];
    });
  return {
    deviceId: dev.id, interval: b.interval, start: b.start.toISOString(), end: b.end.toISOString(),
    voltage: series(0, vSlots.length),
    temperature: series(vSlots.length, tSlots.length),
  };
}
