import { and, eq, inArray } from 'drizzle-orm';
import {
  PRICE_PERIODS, meterRegisterIdentifier,
  type MeterElectricData, type MeterElectricDataBody, type MeterElectricRow,
} from '@ess/contract';
import { productProperty } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { latestOne } from '../device/index.ts';
import { assertType, assertWithinDay } from '../monitor/index.ts';
import { ROLLUP_TABLES } from '../telemetry/index.ts';
import { localMonth, zoneOffsetMs } from '../../platform/time/local-time.ts';

/** forwardActiveEnergy, …Tip … …DeepValley, then the same for reverse. */
export const METER_REGISTERS = (['forward', 'reverse'] as const).flatMap((dir) => [
  meterRegisterIdentifier(dir),
  ...PRICE_PERIODS.map((p) => meterRegisterIdentifier(dir, p)),
]);

const BUCKET_MS = { '5m': 300_000, '1h': 3_600_000, '1d': 86_400_000 } as const;
const round = (x: number) => Math.round(x * 1e6) / 1e6;
const num = (x: unknown): number | null => {
  if (x === null || x === undefined) return null;
  const v = Number(x);
  return Number.isFinite(v) ? v : null;
};

function localLabel(timeZone: string, ts: number, interval: MeterElectricDataBody['interval']): string {
  const text = new Date(ts + zoneOffsetMs(timeZone, ts)).toISOString().replace('T', ' ');
  return interval === '1d' ? text.slice(0, 10) : text.slice(0, 16);
}

/**
 * One meter's electric data per bucket from the rollups: average and maximum active power,
 * maximum demand, the register readings at the bucket's end and the forward and reverse energy
 * within it. 5-minute and hour buckets within 24 hours (product-spec §5); days within one
 * station-local month (daily statistics across months are not open).
 */
export async function meterElectricData(ctx: AppContext, user: AuthUser, b: MeterElectricDataBody): Promise<MeterElectricData> {
  const dev = await latestOne(ctx, user, { deviceCode: b.deviceCode, identifiers: [] });
  assertType(dev, ['meter']);
  const [{ timeZone } = { timeZone: 'UTC' }] = await ctx.db.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, dev.siteId));
  const start = b.start.getTime();
  const end = b.end.getTime();
  if (b.interval === '1d') {
    if (end > localMonth(timeZone, start).end) throw new AppError('RULE_VIOLATION', '日统计不能跨月查询');
  } else {
    assertWithinDay(b.start, b.end);
  }
  const wanted = ['activePower', 'demand', ...METER_REGISTERS];
  const props = await ctx.db
    .select({ identifier: productProperty.identifier, slot: productProperty.slot })
    .from(productProperty)
    .where(and(eq(productProperty.productId, dev.productId), inArray(productProperty.identifier, wanted)));
  const slot = new Map(props.filter((p) => p.slot !== null).map((p) => [p.identifier, p.slot!]));
  const cols: string[] = [];
  const power = slot.get('activePower');
  const demand = slot.get('demand');
  if (power) cols.push(`sum(sum[${power}]) / nullif(sum(cnt[${power}]), 0) as p_avg, max(max[${power}]) as p_max`);
  if (demand) cols.push(`max(max[${demand}]) as d_max`);
  const regs = METER_REGISTERS.filter((r) => slot.has(r));
  regs.forEach((r, i) => cols.push(`(array_agg(last[${slot.get(r)}] order by last_ts desc) filter (where cnt[${slot.get(r)}] > 0))[1] as r${i}`));
  const table = ROLLUP_TABLES[b.interval];
  const from = new Date(start - BUCKET_MS[b.interval] + 1);
  const { rows } = cols.length
    ? await ctx.database.sql.query<Record<string, unknown>>(
      `select (extract(epoch from bucket) * 1000)::float8 as t, ${cols.join(', ')} from ${table}
        where device_id = $1 and bucket >= $2 and bucket < $3 group by bucket order by bucket`,
      [dev.id, from, b.end],
    )
    : { rows: [] };
  // The readings before the first bucket, for its energy.
  const fwd = slot.get(meterRegisterIdentifier('forward'));
  const rev = slot.get(meterRegisterIdentifier('reverse'));
  const firstBucket = rows[0] ? new Date(Number(rows[0].t)) : from;
  let prevF: number | null = null;
  let prevR: number | null = null;
  if (fwd || rev) {
    const { rows: before } = await ctx.database.sql.query<{ f: unknown; r: unknown }>(
      `select ${fwd ? `last[${fwd}]` : 'null'} as f, ${rev ? `last[${rev}]` : 'null'} as r from ${table}
        where device_id = $1 and bucket < $2 order by bucket desc, last_ts desc limit 1`,
      [dev.id, firstBucket],
    );
    prevF = num(before[0]?.f);
    prevR = num(before[0]?.r);
  }
  const fIndex = regs.indexOf(meterRegisterIdentifier('forward'));
  const rIndex = regs.indexOf(meterRegisterIdentifier('reverse'));
  const out: MeterElectricRow[] = rows.map((r) => {
    const t = Number(r.t);
    const registers = Object.fromEntries(regs.map((id, i) => [id, num(r[`r${i}`])]));
    const f = fIndex >= 0 ? num(r[`r${fIndex}`]) : null;
    const rv = rIndex >= 0 ? num(r[`r${rIndex}`]) : null;
    const row: MeterElectricRow = {
      time: new Date(t).toISOString(),
      localTime: localLabel(timeZone, t, b.interval),
      activePowerAvg: num(r.p_avg) === null ? null : round(num(r.p_avg)!),
      activePowerMax: num(r.p_max),
      demandMax: num(r.d_max),
      registers,
      forwardEnergy: f !== null && prevF !== null ? round(f - prevF) : null,
      reverseEnergy: rv !== null && prevR !== null ? round(rv - prevR) : null,
    };
    if (f !== null) prevF = f;
    if (rv !== null) prevR = rv;
    return row;
  });
  return {
    deviceId: dev.id, deviceCode: dev.code, deviceName: dev.name, siteName: dev.siteName, timeZone, interval: b.interval, rows: out,
  };
}

const PERIOD_LABELS = { '': '总', Tip: '尖', Peak: '峰', Flat: '平', Valley: '谷', DeepValley: '深谷' } as const;
function registerHeader(id: string): string {
  const m = /^(forward|reverse)ActiveEnergy(.*)$/.exec(id);
  const dir = m?.[1] === 'reverse' ? '反向有功电能' : '正向有功电能';
  return `${dir}（${PERIOD_LABELS[(m?.[2] ?? '') as keyof typeof PERIOD_LABELS] ?? m?.[2]}）kWh`;
}

/** The export's columns: the same figures as the list, register readings one column each. */
export function meterElectricColumns(): XlsxColumn<MeterElectricRow>[] {
  return [
    { header: '时间（站点当地）', width: 20, value: (r) => r.localTime },
    { header: '平均有功功率 kW', value: (r) => r.activePowerAvg },
    { header: '最大有功功率 kW', value: (r) => r.activePowerMax },
    { header: '最大需量 kW', value: (r) => r.demandMax },
    { header: '正向电量 kWh', value: (r) => r.forwardEnergy },
    { header: '反向电量 kWh', value: (r) => r.reverseEnergy },
    ...METER_REGISTERS.map((id): XlsxColumn<MeterElectricRow> => ({ header: registerHeader(id), width: 24, value: (r) => r.registers[id] ?? null })),
  ];
}
