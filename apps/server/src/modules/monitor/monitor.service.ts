import { asc, inArray } from 'drizzle-orm';
import {
  DEVICE_TYPE_LABELS, MONITOR_CHILD_FIGURES, MONITOR_SUMMARY, PACK_CELL_COUNT, PRICE_PERIODS, QUERY_RANGE_LIMIT_MS, THING_MODEL,
  meterRegisterIdentifier,
  type BatteryPackDetail, type BmsDetail, type BatteryClusterDetail, type CellValue, type ChargingPileDetail, type DeviceLatestRecord,
  type DeviceProperty, type DeviceType, type EssDetail, type MeterDetail, type MeterRegister, type MonitorChart, type MonitorChartInterval,
  type MonitorChild, type MonitorDetail, type MonitorFigure, type TelemetryValue, type WarnMask,
} from '@ess/contract';
import { productProperty } from '../../db/schema/device.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { deviceOne, deviceProperties, latestList } from '../device/index.ts';
import { deviceHistory } from '../telemetry/index.ts';

type PropRow = typeof productProperty.$inferSelect;

const PERIOD_LABELS: Record<MeterRegister['period'], string> = { total: '总', tip: '尖', peak: '峰', flat: '平', valley: '谷', deepValley: '深谷' };

/** Refuses a device of another type than the call serves (after the scope check: 404 first). */
export function assertType(dev: { code: string; type: string }, types: readonly DeviceType[]): void {
  if ((types as readonly string[]).includes(dev.type)) return;
  const is = DEVICE_TYPE_LABELS[dev.type as DeviceType] ?? dev.type;
  throw new AppError('INVALID_PARAM', `deviceId: 设备${dev.code}是${is}，此接口只适用于${types.map((t) => DEVICE_TYPE_LABELS[t]).join('、')}`);
}

function figure(p: Pick<PropRow, 'identifier' | 'name' | 'unit' | 'enumValues'>, value: TelemetryValue | null): MonitorFigure {
  const e = p.enumValues && typeof value === 'number' ? p.enumValues.find((x) => x.value === value) : undefined;
  return {
    identifier: p.identifier, name: p.name, unit: p.unit, value,
    ...(e ? { valueLabel: e.label, ...(e.colour ? { colour: e.colour } : {}) } : {}),
  };
}

const fromProperty = (p: DeviceProperty): MonitorFigure => ({
  identifier: p.identifier, name: p.name, unit: p.unit, value: p.value,
  ...(p.valueLabel ? { valueLabel: p.valueLabel } : {}), ...(p.colour ? { colour: p.colour } : {}),
});

/** The common detail: identity, status, every latest value, and the type's summary figures. */
export async function monitorDetail(ctx: AppContext, user: AuthUser, deviceId: number, types?: readonly DeviceType[]): Promise<MonitorDetail> {
  const props = await deviceProperties(ctx, user, deviceId);
  if (types) assertType(props.device, types);
  const byId = new Map(props.properties.map((p) => [p.identifier, p]));
  const wanted = MONITOR_SUMMARY[props.device.type as DeviceType] ?? [];
  const summary = wanted.map((i) => byId.get(i)).filter((p): p is DeviceProperty => p !== undefined).map(fromProperty);
  return { device: props.device, ts: props.ts, properties: props.properties, summary };
}

const valueOf = (d: MonitorDetail, identifier: string): TelemetryValue | null =>
  d.properties.find((p) => p.identifier === identifier)?.value ?? null;
const numberOf = (d: MonitorDetail, identifier: string): number | null => {
  const v = valueOf(d, identifier);
  return typeof v === 'number' ? v : null;
};

async function propsOf(ctx: AppContext, productIds: number[]): Promise<Map<number, Map<string, PropRow>>> {
  const out = new Map<number, Map<string, PropRow>>();
  if (productIds.length === 0) return out;
  const rows = await ctx.db.select().from(productProperty).where(inArray(productProperty.productId, [...new Set(productIds)])).orderBy(asc(productProperty.sort));
  for (const r of rows) {
    let m = out.get(r.productId);
    if (!m) out.set(r.productId, (m = new Map<string, PropRow>()));
    m.set(r.identifier, r);
  }
  return out;
}

function toChild(r: DeviceLatestRecord, props: Map<number, Map<string, PropRow>>): MonitorChild {
  const mine = props.get(r.productId);
  const ids = MONITOR_CHILD_FIGURES[r.type as DeviceType] ?? [];
  return {
    id: r.id, code: r.code, name: r.name, type: r.type, status: r.status, no: r.no, subNo: r.subNo, ts: r.ts,
    figures: ids.flatMap((i) => {
      const p = mine?.get(i);
      return p ? [figure(p, r.values[i] ?? null)] : [];
    }),
  };
}

/** Children of a device (in the caller's scope), of some types, with their headline figures. */
export async function childrenOf(ctx: AppContext, user: AuthUser, parentId: number, types: DeviceType[]): Promise<MonitorChild[]> {
  const rows = await latestList(ctx, user, { parentId, types });
  const props = await propsOf(ctx, rows.map((r) => r.productId));
  return rows.sort((a, b) => (a.subNo ?? 0) - (b.subNo ?? 0) || a.id - b.id).map((r) => toChild(r, props));
}

export async function bmsDetail(ctx: AppContext, user: AuthUser, deviceId: number): Promise<BmsDetail> {
  const d = await monitorDetail(ctx, user, deviceId, ['bms']);
  return { ...d, clusters: await childrenOf(ctx, user, deviceId, ['batteryCluster']) };
}

export async function clusterDetail(ctx: AppContext, user: AuthUser, deviceId: number): Promise<BatteryClusterDetail> {
  const d = await monitorDetail(ctx, user, deviceId, ['batteryCluster']);
  return { ...d, packs: await childrenOf(ctx, user, deviceId, ['batteryPack']) };
}

/** Cells 1…PACK_CELL_COUNT from a pack's latest values. */
export function cellsOf(values: Record<string, TelemetryValue>): CellValue[] {
  return Array.from({ length: PACK_CELL_COUNT }, (_, i) => {
    const v = values[`cellVoltage${i + 1}`];
    const t = values[`cellTemperature${i + 1}`];
    return { no: i + 1, voltage: typeof v === 'number' ? v : null, temperature: typeof t === 'number' ? t : null };
  });
}

export async function packDetail(ctx: AppContext, user: AuthUser, deviceId: number): Promise<BatteryPackDetail> {
  const d = await monitorDetail(ctx, user, deviceId, ['batteryPack']);
  const values = Object.fromEntries(d.properties.filter((p) => p.value !== null).map((p) => [p.identifier, p.value!]));
  return { ...d, cells: cellsOf(values) };
}

export async function pileDetail(ctx: AppContext, user: AuthUser, deviceId: number): Promise<ChargingPileDetail> {
  const d = await monitorDetail(ctx, user, deviceId, ['chargingPile']);
  return { ...d, guns: await childrenOf(ctx, user, deviceId, ['chargingGun']) };
}

export async function meterDetail(ctx: AppContext, user: AuthUser, deviceId: number): Promise<MeterDetail> {
  const d = await monitorDetail(ctx, user, deviceId, ['meter']);
  const registers: MeterRegister[] = (['total', ...PRICE_PERIODS] as const).map((period) => {
    const p = period === 'total' ? undefined : period;
    return {
      period, label: PERIOD_LABELS[period],
      forward: numberOf(d, meterRegisterIdentifier('forward', p)),
      reverse: numberOf(d, meterRegisterIdentifier('reverse', p)),
    };
  });
  return { ...d, meterPurpose: d.device.meterPurpose, registers };
}

const sum = (xs: (number | null)[]): number | null => {
  const present = xs.filter((x): x is number => x !== null);
  return present.length ? Math.round(present.reduce((a, x) => a + x, 0) * 1e6) / 1e6 : null;
};
const figureNumber = (c: MonitorChild, identifier: string): number | null => {
  const v = c.figures.find((f) => f.identifier === identifier)?.value;
  return typeof v === 'number' ? v : null;
};

/** The storage system behind an EMS: its figures, its PCS (and their BMS) and air conditioners, and totals. */
export async function essDetail(ctx: AppContext, user: AuthUser, deviceId: number): Promise<EssDetail> {
  const d = await monitorDetail(ctx, user, deviceId, ['ems']);
  const pcs = await childrenOf(ctx, user, deviceId, ['pcs']);
  const airConditioners = await childrenOf(ctx, user, deviceId, ['airConditioner']);
  const bms = (await Promise.all(pcs.map((p) => childrenOf(ctx, user, p.id, ['bms'])))).flat();
  const socs = bms.map((b) => figureNumber(b, 'soc')).filter((x): x is number => x !== null);
  return {
    ...d, pcs, bms, airConditioners,
    totals: {
      activePower: sum(pcs.map((p) => figureNumber(p, 'activePower'))),
      todayChargeEnergy: sum(pcs.map((p) => figureNumber(p, 'todayChargeEnergy'))),
      todayDischargeEnergy: sum(pcs.map((p) => figureNumber(p, 'todayDischargeEnergy'))),
      soc: socs.length ? Math.round((socs.reduce((a, x) => a + x, 0) / socs.length) * 1e4) / 1e4 : null,
    },
  };
}

/** A charging gun's warning mask as last reported, bit i masking THING_MODEL.chargingGun.events[i]. */
export async function warnMaskOf(ctx: AppContext, user: AuthUser, deviceId: number): Promise<WarnMask> {
  const d = await monitorDetail(ctx, user, deviceId, ['chargingGun']);
  const mask = numberOf(d, 'warnMask');
  return {
    deviceId, mask, ts: d.ts,
    bits: THING_MODEL.chargingGun.events.map((e, bit) => ({ bit, code: e.code, name: e.label, masked: mask !== null && (mask & (1 << bit)) !== 0 })),
  };
}

/** product-spec §5: large data queries need a range within 24 hours. */
export function assertWithinDay(start: Date, end: Date): void {
  if (end.getTime() - start.getTime() > QUERY_RANGE_LIMIT_MS) throw new AppError('RULE_VIOLATION', '查询时间范围不能超过24小时');
}

/**
 * A chart of fixed series of one device type, from the 5-minute or hour rollups (never raw
 * reports), within 24 hours.
 */
export async function monitorChart(
  ctx: AppContext,
  user: AuthUser,
  body: { deviceId: number; start: Date; end: Date; interval: MonitorChartInterval },
  types: readonly DeviceType[],
  identifiers: readonly string[],
): Promise<MonitorChart> {
  assertType(await deviceOne(ctx, user, body.deviceId), types);
  assertWithinDay(body.start, body.end);
  return deviceHistory(ctx, user, { deviceId: body.deviceId, identifiers: [...identifiers], start: body.start, end: body.end, interval: body.interval });
}

/** Children of a parent device of an expected type, for the simple lists. */
export async function simpleList(ctx: AppContext, user: AuthUser, parentId: number, parentType: DeviceType, childType: DeviceType): Promise<MonitorChild[]> {
  assertType(await deviceOne(ctx, user, parentId), [parentType]);
  return childrenOf(ctx, user, parentId, [childType]);
}
