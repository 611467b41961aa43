import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { addDays, localDayStart, localTime, nextMonth, prevMonth, todayIn, type Page } from '@ess/contract';
import {
  DEMAND_DEFAULT_ALARM_LEVEL, DEMAND_TOLERANCE_MIN_KW, DEMAND_TOLERANCE_PERCENT, DEMAND_WINDOW_MS,
  type DemandAnalysisInfo, type DemandAnalysisPoint, type DemandDayBrief, type DemandDayInfo, type DemandDayRow, type DemandMeasureDetail,
  type DemandMeasureRecord, type DemandMonthBrief, type DemandMonthInfo, type DemandMonthRow, type DemandOutcome, type DemandPoint, type DemandPrice,
  type DemandReconcileHeader, type DemandReconcileRecord, type DemandReconcileState, type DemandSavingRow, type DemandSettingRecord, type DemandTarget,
  type DemandWindowRow,
} from '@ess/contract/demand';
import type { demandMeasurePage, demandReconcileEdit, demandReconcileFilter, demandReconcilePage, demandSettingAdd, demandSettingPage } from '@ess/contract/demand';
import { alarm } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { demandBill, demandSetting, demandWindow } from '../../db/schema/demand.ts';
import { site } from '../../db/schema/site.ts';
import { appUser } from '../../db/schema/system.ts';
import { telemetry } from '../../db/schema/telemetry.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { emit } from '../../platform/events/outbox.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { tariffsForSite } from '../pricing/index.ts';
import { add, dec, fixed, mul, round, sub } from '../statement/index.ts';
import { productSlotsOf } from '../telemetry/index.ts';
import { roundKw } from './demand.compute.ts';
import { demandSinkOf } from './demand.runtime.ts';
import './demand.events.ts';

const Q = DEMAND_WINDOW_MS;
const iso = (ms: number | Date | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

// ── Stations, months, prices, targets ─────────────────────────────────────────────────

export interface Station {
  id: number;
  name: string;
  code: string;
  companyId: number;
  currency: string;
  timeZone: string;
}

/** The station, refused (403) when outside the caller's stations, 404 when unknown. */
export async function stationOf(db: DbOrTx, user: AuthUser, siteId: number): Promise<Station> {
  const [s] = await db
    .select({ id: site.id, name: site.name, code: site.code, companyId: site.companyId, currency: site.currency, timeZone: site.timeZone })
    .from(site)
    .where(eq(site.id, siteId));
  const st = found(s, '站点不存在');
  await assertSites(db, user, [siteId]);
  return st;
}

const monthsBack = (month: string, n: number) => {
  let m = month;
  for (let i = 0; i < n; i++) m = prevMonth(m);
  return m;
};
/** A station-local month as instants [start, end). */
export const monthSpan = (tz: string, month: string) => ({ start: localDayStart(tz, `${month}-01`), end: localDayStart(tz, `${nextMonth(month)}-01`) });
const daySpan = (tz: string, date: string) => ({ start: localDayStart(tz, date), end: localDayStart(tz, addDays(date, 1)) });
const lastDayOf = (month: string) => addDays(`${nextMonth(month)}-01`, -1);
const localHm = (tz: string, ms: number) => {
  const t = localTime(ms, tz);
  return `${t.dateKey} ${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
};

/** The demand (or capacity) price of each month from the station's tariffs: the price in force on the month's last priced day. */
async function pricesOf(ctx: AppContext, siteId: number, fromMonth: string, toMonth: string): Promise<Map<string, DemandPrice>> {
  const days = await tariffsForSite(ctx, siteId, `${fromMonth}-01`, lastDayOf(toMonth));
  const out = new Map<string, DemandPrice>();
  for (const d of days) {
    if (!d.template || !d.cycle) continue;
    const kind = d.demandPrice !== null ? 'demand' : d.capacityPrice !== null ? 'capacity' : null;
    if (!kind) continue;
    const price = kind === 'demand' ? d.demandPrice! : d.capacityPrice!;
    out.set(d.date.slice(0, 7), { kind, price: String(price), priceCycleId: d.cycle.id, templateId: d.template.id, templateName: d.template.name });
  }
  return out;
}

/** The demand charge of a maximum at a price (per kW per month), to the cent, exact decimals; capacity prices do not depend on demand. */
export function demandCharge(maxKw: number | null, price: DemandPrice | null | undefined): string | null {
  if (maxKw === null || !price || price.kind !== 'demand') return null;
  return fixed(round(mul(dec(maxKw, 3), dec(price.price)), 2), 2);
}
const demandPriceText = (p: DemandPrice | null | undefined) => (p && p.kind === 'demand' ? p.price : null);

type SettingRow = typeof demandSetting.$inferSelect;
const targetOf = (r: SettingRow): DemandTarget => ({
  settingId: r.id, month: r.month, targetKw: r.targetKw, marginKw: r.marginKw, preAlarmKw: roundKw(r.targetKw - r.marginKw),
  allowDischarge: r.allowDischarge, alarmLevel: r.alarmLevel,
});

/** The current targets of a station by month ('' = standing). */
async function targetsOf(db: DbOrTx, siteId: number): Promise<Map<string, DemandTarget>> {
  const rows = await db.select().from(demandSetting).where(and(eq(demandSetting.siteId, siteId), isNull(demandSetting.replacedAt)));
  return new Map(rows.map((r) => [r.month ?? '', targetOf(r)]));
}
const targetFor = (targets: Map<string, DemandTarget>, month: string) => targets.get(month) ?? targets.get('') ?? null;

// ── Aggregates of windows ─────────────────────────────────────────────────────────────

/** The counterfactual demand of a stored window (SQL): (import + discharge − charge) × 4, not below 0. */
const CF = sql`greatest(0, round(((${demandWindow.importKwh} + coalesce(${demandWindow.dischargeKwh}, 0) - coalesce(${demandWindow.chargeKwh}, 0)) * 4)::numeric, 3))::float8`;

interface Agg {
  key: string;
  windows: number;
  estimated: number;
  preAlarms: number;
  guards: number;
  maxKw: number | null;
  maxTs: Date | null;
  maxEstimated: boolean;
  cfMaxKw: number | null;
  cfMaxTs: Date | null;
  measures: number;
}

/** Windows grouped by station-local month or day: counts, the maximum (earliest on ties) and its time, the counterfactual maximum. */
async function aggregate(db: DbOrTx, st: Station, start: number, end: number, unit: 'month' | 'day'): Promise<Map<string, Agg>> {
  const fmt = unit === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
  const key = sql<string>`to_char(${demandWindow.ts} at time zone ${st.timeZone}, ${sql.raw(`'${fmt}'`)})`;
  const rows = await db
    .select({
      key,
      windows: sql<number>`count(*)::int`,
      estimated: sql<number>`(count(*) filter (where ${demandWindow.importEstimated}))::int`,
      preAlarms: sql<number>`(count(*) filter (where ${demandWindow.preAlarmed}))::int`,
      guards: sql<number>`(count(*) filter (where ${demandWindow.guardRequested}))::int`,
      maxKw: sql<number | null>`max(${demandWindow.demandKw})`,
      maxTs: sql<string | null>`(array_agg(${demandWindow.ts} order by ${demandWindow.demandKw} desc, ${demandWindow.ts} asc))[1]`,
      maxEstimated: sql<boolean | null>`(array_agg(${demandWindow.importEstimated} order by ${demandWindow.demandKw} desc, ${demandWindow.ts} asc))[1]`,
      cfMaxKw: sql<number | null>`max(${CF})`,
      cfMaxTs: sql<string | null>`(array_agg(${demandWindow.ts} order by ${CF} desc, ${demandWindow.ts} asc))[1]`,
      measures: sql<number>`(count(*) filter (where ${CF} > ${demandWindow.demandKw}))::int`,
    })
    .from(demandWindow)
    .where(and(eq(demandWindow.siteId, st.id), gte(demandWindow.ts, new Date(start)), lt(demandWindow.ts, new Date(end)), sql`${demandWindow.demandKw} is not null`))
    .groupBy(sql`1`);
  return new Map(
    rows.map((r) => [
      r.key,
      {
        ...r, maxKw: r.maxKw === null ? null : Number(r.maxKw), cfMaxKw: r.cfMaxKw === null ? null : Number(r.cfMaxKw),
        maxTs: r.maxTs ? new Date(r.maxTs) : null, cfMaxTs: r.cfMaxTs ? new Date(r.cfMaxTs) : null, maxEstimated: r.maxEstimated === true,
      },
    ]),
  );
}

/** What a month's row and a day's row share: the maximum, the target's headroom, the window counts. */
function periodFigures(st: Station, a: Agg | undefined, target: DemandTarget | null) {
  const maxKw = a?.maxKw ?? null;
  return {
    maxDemandKw: maxKw,
    maxDemandTime: iso(a?.maxTs),
    maxDemandLocalTime: a?.maxTs ? localHm(st.timeZone, a.maxTs.getTime()) : null,
    maxDemandEstimated: a?.maxEstimated ?? false,
    targetKw: target?.targetKw ?? null,
    headroomKw: target && maxKw !== null ? roundKw(target.targetKw - maxKw) : null,
    exceeded: target !== null && maxKw !== null && maxKw > target.targetKw,
    windows: a?.windows ?? 0,
    estimatedWindows: a?.estimated ?? 0,
    preAlarms: a?.preAlarms ?? 0,
    guardRequests: a?.guards ?? 0,
  };
}

function monthRow(st: Station, month: string, a: Agg | undefined, target: DemandTarget | null, price: DemandPrice | null | undefined): DemandMonthRow {
  return { month, ...periodFigures(st, a, target), demandPrice: demandPriceText(price), demandCharge: demandCharge(a?.maxKw ?? null, price) };
}

const dayRow = (st: Station, date: string, a: Agg | undefined, target: DemandTarget | null): DemandDayRow => ({ date, ...periodFigures(st, a, target) });

const stationFields = (st: Station) => ({ siteId: st.id, siteName: st.name, timeZone: st.timeZone, currency: st.currency });

type WindowRow = typeof demandWindow.$inferSelect;
async function windowsIn(db: DbOrTx, siteId: number, start: number, end: number): Promise<WindowRow[]> {
  return db
    .select()
    .from(demandWindow)
    .where(and(eq(demandWindow.siteId, siteId), gte(demandWindow.ts, new Date(start)), lt(demandWindow.ts, new Date(end))))
    .orderBy(asc(demandWindow.ts));
}
const cfOf = (w: WindowRow) =>
  w.importKwh === null ? null : Math.max(0, Math.round((w.importKwh + (w.dischargeKwh ?? 0) - (w.chargeKwh ?? 0)) * 4 * 1000) / 1000);
const point = (w: WindowRow): DemandPoint => ({ ts: w.ts.toISOString(), demandKw: w.demandKw!, estimated: w.importEstimated });
const analysisPoint = (w: WindowRow): DemandAnalysisPoint => {
  const cf = cfOf(w) ?? w.demandKw!;
  return { ...point(w), counterfactualKw: cf, shavedKw: roundKw(cf - w.demandKw!) };
};
const outcomeOf = (w: { exceeded: boolean; guardRequested: boolean; preAlarmed: boolean }): DemandOutcome =>
  w.exceeded ? 'exceeded' : w.guardRequested ? 'guarded' : w.preAlarmed ? 'preAlarmed' : 'normal';

// ── Track ─────────────────────────────────────────────────────────────────────────────

export async function monthlyBrief(ctx: AppContext, user: AuthUser, siteId: number, month: string): Promise<DemandMonthBrief> {
  const st = await stationOf(ctx.db, user, siteId);
  const { start, end } = monthSpan(st.timeZone, month);
  const [aggs, targets, prices] = await Promise.all([aggregate(ctx.db, st, start, end, 'month'), targetsOf(ctx.db, siteId), pricesOf(ctx, siteId, month, month)]);
  const target = targetFor(targets, month);
  const price = prices.get(month) ?? null;
  return { ...stationFields(st), ...monthRow(st, month, aggs.get(month), target, price), target, price };
}

export async function monthlyInfo(ctx: AppContext, user: AuthUser, siteId: number, month: string): Promise<DemandMonthInfo> {
  const brief = await monthlyBrief(ctx, user, siteId, month);
  const st = await stationOf(ctx.db, user, siteId);
  const { start, end } = monthSpan(st.timeZone, month);
  const first = monthsBack(month, 11);
  const [days, windows, months, targets, prices] = await Promise.all([
    aggregate(ctx.db, st, start, end, 'day'),
    windowsIn(ctx.db, siteId, start, end),
    aggregate(ctx.db, st, monthSpan(st.timeZone, first).start, end, 'month'),
    targetsOf(ctx.db, siteId),
    pricesOf(ctx, siteId, first, month),
  ]);
  const dayRows: DemandDayRow[] = [];
  for (let d = `${month}-01`; d.startsWith(month); d = addDays(d, 1)) dayRows.push(dayRow(st, d, days.get(d), targetFor(targets, month)));
  const monthRows: DemandMonthRow[] = [];
  for (let m = first; m <= month; m = nextMonth(m)) monthRows.push(monthRow(st, m, months.get(m), targetFor(targets, m), prices.get(m)));
  return { ...brief, days: dayRows, curve: windows.filter((w) => w.demandKw !== null).map(point), months: monthRows };
}

export async function dailyBrief(ctx: AppContext, user: AuthUser, siteId: number, date: string): Promise<DemandDayBrief> {
  const st = await stationOf(ctx.db, user, siteId);
  const month = date.slice(0, 7);
  const { start, end } = daySpan(st.timeZone, date);
  const ms = monthSpan(st.timeZone, month);
  const [days, monthAgg, targets] = await Promise.all([
    aggregate(ctx.db, st, start, end, 'day'),
    aggregate(ctx.db, st, ms.start, Math.min(ms.end, end), 'month'),
    targetsOf(ctx.db, siteId),
  ]);
  const target = targetFor(targets, month);
  const m = monthAgg.get(month);
  const live = date === todayIn(st.timeZone) ? (demandSinkOf(ctx)?.liveOf(siteId) ?? null) : null;
  return {
    ...stationFields(st), ...dayRow(st, date, days.get(date), target),
    monthMaxDemandKw: m?.maxKw ?? null, monthMaxDemandTime: iso(m?.maxTs), target, live,
  };
}

export async function dailyInfo(ctx: AppContext, user: AuthUser, siteId: number, date: string): Promise<DemandDayInfo> {
  const brief = await dailyBrief(ctx, user, siteId, date);
  const { start, end } = daySpan(brief.timeZone, date);
  const windows = (await windowsIn(ctx.db, siteId, start, end)).filter((w) => w.demandKw !== null);
  const rows: DemandWindowRow[] = windows.map((w) => {
    const t = localTime(w.ts.getTime(), brief.timeZone);
    return {
      id: w.id, ts: w.ts.toISOString(), localTime: `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`,
      demandKw: w.demandKw!, counterfactualKw: cfOf(w), estimated: w.importEstimated, targetKw: w.targetKw, preAlarmed: w.preAlarmed,
      guardRequested: w.guardRequested, guardGrantedKw: w.guardGrantedKw, exceeded: w.exceeded, outcome: outcomeOf(w),
    };
  });
  return { ...brief, curve: windows.map(point), windows: rows };
}

// ── Analysis ──────────────────────────────────────────────────────────────────────────

function savingRow(month: string, a: Agg | undefined, price: DemandPrice | null | undefined): DemandSavingRow {
  const measured = a?.maxKw ?? null;
  const cf = a?.cfMaxKw ?? null;
  const mc = demandCharge(measured, price);
  const cc = demandCharge(cf, price);
  return {
    month,
    measuredMaxKw: measured,
    measuredMaxTime: iso(a?.maxTs),
    counterfactualMaxKw: cf,
    counterfactualMaxTime: iso(a?.cfMaxTs),
    shavedKw: measured !== null && cf !== null ? roundKw(cf - measured) : null,
    demandPrice: demandPriceText(price),
    measuredCharge: mc,
    counterfactualCharge: cc,
    saving: mc !== null && cc !== null ? fixed(sub(dec(cc), dec(mc)), 2) : null,
    measures: a?.measures ?? 0,
  };
}

export async function analysisInfo(ctx: AppContext, user: AuthUser, siteId: number, month: string): Promise<DemandAnalysisInfo> {
  const st = await stationOf(ctx.db, user, siteId);
  const { start, end } = monthSpan(st.timeZone, month);
  const first = monthsBack(month, 11);
  const [days, windows, months, prices, storageMeters] = await Promise.all([
    aggregate(ctx.db, st, start, end, 'day'),
    windowsIn(ctx.db, siteId, start, end),
    aggregate(ctx.db, st, monthSpan(st.timeZone, first).start, end, 'month'),
    pricesOf(ctx, siteId, first, month),
    ctx.db.select({ id: device.id }).from(device).where(and(eq(device.siteId, siteId), eq(device.type, 'meter'), eq(device.meterPurpose, 'storage'))),
  ]);
  const price = prices.get(month) ?? null;
  const dayRows: DemandAnalysisInfo['days'] = [];
  for (let d = `${month}-01`; d.startsWith(month); d = addDays(d, 1)) {
    const a = days.get(d);
    dayRows.push({
      date: d, measuredMaxKw: a?.maxKw ?? null, counterfactualMaxKw: a?.cfMaxKw ?? null,
      shavedKw: a?.maxKw != null && a.cfMaxKw != null ? roundKw(a.cfMaxKw - a.maxKw) : null, measures: a?.measures ?? 0,
    });
  }
  const monthRows: DemandSavingRow[] = [];
  for (let m = first; m <= month; m = nextMonth(m)) monthRows.push(savingRow(m, months.get(m), prices.get(m)));
  return {
    ...stationFields(st), ...savingRow(month, months.get(month), price), hasStorageMeter: storageMeters.length > 0, price,
    days: dayRows, curve: windows.filter((w) => w.demandKw !== null).map(analysisPoint), months: monthRows,
  };
}

const measureSortable = { ts: demandWindow.ts, demandKw: demandWindow.demandKw, counterfactualKw: CF, shavedKw: sql`(${CF} - ${demandWindow.demandKw})` } as const;

export async function measurePage(ctx: AppContext, user: AuthUser, q: z.output<typeof demandMeasurePage>): Promise<Page<DemandMeasureRecord>> {
  const st = await stationOf(ctx.db, user, q.siteId);
  const { start, end } = monthSpan(st.timeZone, q.month);
  const where = and(
    eq(demandWindow.siteId, st.id), gte(demandWindow.ts, new Date(start)), lt(demandWindow.ts, new Date(end)), sql`${demandWindow.demandKw} is not null`,
    q.shavedOnly ? sql`${CF} > ${demandWindow.demandKw}` : sql`(coalesce(${demandWindow.chargeKwh}, 0) > 0 or coalesce(${demandWindow.dischargeKwh}, 0) > 0)`,
    q.guardedOnly ? or(eq(demandWindow.preAlarmed, true), eq(demandWindow.guardRequested, true)) : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(demandWindow).where(where);
  const col = q.sortField ? measureSortable[q.sortField] : null;
  const order: SQL[] = col ? [sql`${col} ${sql.raw(q.sortOrder === 'asc' ? 'asc' : 'desc')} nulls last`] : [sql`(${CF} - ${demandWindow.demandKw}) desc`];
  const rows = await ctx.db
    .select()
    .from(demandWindow)
    .where(where)
    .orderBy(...order, asc(demandWindow.ts))
    .limit(q.pageSize)
    .offset((q.current - 1) * q.pageSize);
  const max = (await aggregate(ctx.db, st, start, end, 'month')).get(q.month)?.maxTs?.getTime() ?? null;
  return { records: rows.map((w) => measureRecord(st, w, max)), total: Number(n), current: q.current, pageSize: q.pageSize };
}

function measureRecord(st: Station, w: WindowRow, monthMaxTs: number | null): DemandMeasureRecord {
  const cf = cfOf(w) ?? w.demandKw ?? 0;
  const demandKw = w.demandKw ?? 0;
  return {
    id: w.id, siteId: st.id, siteName: st.name, ts: w.ts.toISOString(), windowEnd: new Date(w.ts.getTime() + Q).toISOString(),
    localTime: localHm(st.timeZone, w.ts.getTime()), demandKw, counterfactualKw: cf, shavedKw: roundKw(cf - demandKw),
    dischargeKwh: roundKw(w.dischargeKwh ?? 0), chargeKwh: roundKw(w.chargeKwh ?? 0), isMonthMax: monthMaxTs === w.ts.getTime(),
    estimated: w.importEstimated || w.storageEstimated, targetKw: w.targetKw, preAlarmed: w.preAlarmed, guardRequested: w.guardRequested,
    guardGrantedKw: w.guardGrantedKw, exceeded: w.exceeded, outcome: outcomeOf(w),
  };
}

export async function measureOne(ctx: AppContext, user: AuthUser, id: number): Promise<DemandMeasureDetail> {
  const [w] = await ctx.db.select().from(demandWindow).where(and(eq(demandWindow.id, id), inSiteScope(demandWindow.siteId, ctx.db, user)));
  const win = found(w, '需量窗口不存在');
  const st = await stationOf(ctx.db, user, win.siteId);
  const month = localTime(win.ts.getTime(), st.timeZone).monthKey;
  const ms = monthSpan(st.timeZone, month);
  const t = win.ts.getTime();
  const [aggs, around, targets, meters] = await Promise.all([
    aggregate(ctx.db, st, ms.start, ms.end, 'month'),
    windowsIn(ctx.db, st.id, t - 4 * Q, t + 5 * Q),
    targetsOf(ctx.db, st.id),
    ctx.db
      .select({ id: device.id, purpose: device.meterPurpose, productId: device.productId })
      .from(device)
      .where(and(eq(device.siteId, st.id), eq(device.type, 'meter'), inArray(device.meterPurpose, ['main', 'storage']))),
  ]);
  const main = meters.find((m) => m.purpose === 'main');
  // The reports inside the window (raw telemetry, while kept): main meter import power, storage power.
  const slots = await productSlotsOf(ctx);
  const reports = meters.length
    ? await ctx.db
        .select({ deviceId: telemetry.deviceId, ts: telemetry.ts, v: telemetry.v })
        .from(telemetry)
        .where(and(inArray(telemetry.deviceId, meters.map((m) => m.id)), gte(telemetry.ts, win.ts), lt(telemetry.ts, new Date(t + Q))))
        .orderBy(asc(telemetry.ts))
        .limit(2000)
    : [];
  const byTs = new Map<number, { ts: string; importKw: number | null; storageKw: number | null }>();
  for (const r of reports) {
    const m = meters.find((x) => x.id === r.deviceId)!;
    const i = slots.get(m.productId)?.indexOf.get('activePower');
    const p = i === undefined ? null : (r.v[i] ?? null);
    const k = r.ts.getTime();
    const s = byTs.get(k) ?? { ts: r.ts.toISOString(), importKw: null, storageKw: null };
    if (m.purpose === 'main') s.importKw = p;
    else s.storageKw = p === null ? s.storageKw : roundKw((s.storageKw ?? 0) + p);
    byTs.set(k, s);
  }
  const [al] = main && win.preAlarmAt
    ? await ctx.db
        .select({ id: alarm.id })
        .from(alarm)
        .where(and(eq(alarm.deviceId, main.id), sql`${alarm.code} like 'DEMAND_PRE_ALARM_%'`, eq(alarm.startedAt, win.preAlarmAt)))
        .limit(1)
    : [];
  return {
    ...measureRecord(st, win, aggs.get(month)?.maxTs?.getTime() ?? null),
    timeZone: st.timeZone,
    currency: st.currency,
    importKwh: roundKw(win.importKwh ?? 0),
    startRegisterKwh: win.startRegister,
    endRegisterKwh: win.endRegister,
    projectedKw: win.projectedKw,
    preAlarmAt: iso(win.preAlarmAt),
    alarmId: al?.id ?? null,
    guard: win.guardRequested && win.guardAt && win.guardUntil
      ? {
          commandId: null, deviceCode: `${st.code}-EMS-01`, requestedAt: win.guardAt.toISOString(), dischargeKw: win.guardKw ?? 0,
          until: win.guardUntil.toISOString(), grantedKw: win.guardGrantedKw, status: win.guardStatus ?? 'sent',
        }
      : null,
    target: targetFor(targets, month),
    samples: [...byTs.values()],
    around: around.filter((x) => x.demandKw !== null).map(analysisPoint),
  };
}

// ── Reconciliation ────────────────────────────────────────────────────────────────────

const tolerance = (consoleKw: number) => Math.max(DEMAND_TOLERANCE_MIN_KW, (consoleKw * DEMAND_TOLERANCE_PERCENT) / 100);
export const differs = (consoleKw: number, otherKw: number) => Math.abs(otherKw - consoleKw) > tolerance(consoleKw) + 1e-9;

/** Every station-month of the filter with its three figures (the caller's stations only). */
async function reconcileRows(ctx: AppContext, user: AuthUser, f: z.output<typeof demandReconcileFilter>): Promise<DemandReconcileRecord[]> {
  if (f.siteId) await assertSites(ctx.db, user, [f.siteId]);
  const stations = await ctx.db
    .select({ id: site.id, name: site.name, code: site.code, companyId: site.companyId, currency: site.currency, timeZone: site.timeZone })
    .from(site)
    .where(and(inSiteScope(site.id, ctx.db, user), f.siteId ? eq(site.id, f.siteId) : undefined))
    .orderBy(asc(site.name));
  const thisMonth = new Date().toISOString().slice(0, 7);
  const monthTo = f.monthTo ?? thisMonth;
  const monthFrom = f.monthFrom ?? monthsBack(monthTo, 11);
  const out: DemandReconcileRecord[] = [];
  for (const st of stations) {
    const span = { start: monthSpan(st.timeZone, monthFrom).start, end: monthSpan(st.timeZone, monthTo).end };
    const aggs = await aggregate(ctx.db, st, span.start, span.end, 'month');
    const key = sql<string>`to_char(${demandWindow.meterMaxTime} at time zone ${st.timeZone}, 'YYYY-MM')`;
    const meter = await ctx.db
      .select({
        key, maxKw: sql<number>`max(${demandWindow.meterMaxKw})`,
        maxTime: sql<string>`(array_agg(${demandWindow.meterMaxTime} order by ${demandWindow.meterMaxKw} desc, ${demandWindow.meterMaxTime} asc))[1]`,
      })
      .from(demandWindow)
      .where(and(eq(demandWindow.siteId, st.id), gte(demandWindow.ts, new Date(span.start)), lt(demandWindow.ts, new Date(span.end + 2 * Q)), sql`${demandWindow.meterMaxKw} is not null and ${demandWindow.meterMaxTime} is not null`))
      .groupBy(sql`1`);
    const meterOf = new Map(meter.map((m) => [m.key, m]));
    const bills = await ctx.db
      .select({ b: demandBill, name: appUser.name, username: appUser.username })
      .from(demandBill)
      .leftJoin(appUser, eq(appUser.id, demandBill.userId))
      .where(and(eq(demandBill.siteId, st.id), gte(demandBill.month, monthFrom), sql`${demandBill.month} <= ${monthTo}`));
    const billOf = new Map(bills.map((b) => [b.b.month, b]));
    const months = new Set([...aggs.keys(), ...billOf.keys()].filter((m) => m >= monthFrom && m <= monthTo));
    if (!months.size) continue;
    const prices = await pricesOf(ctx, st.id, monthFrom, monthTo);
    for (const month of [...months].sort().reverse()) {
      const a = aggs.get(month);
      const m = meterOf.get(month);
      const b = billOf.get(month);
      const consoleKw = a?.maxKw ?? null;
      const meterKw = m ? Number(m.maxKw) : null;
      const billKw = b?.b.billMaxKw ?? null;
      const meterFlagged = consoleKw !== null && meterKw !== null && differs(consoleKw, meterKw);
      const billFlagged = consoleKw !== null && billKw !== null && differs(consoleKw, billKw);
      const state: DemandReconcileState = meterFlagged || billFlagged ? 'mismatched' : consoleKw === null || billKw === null ? 'incomplete' : 'matched';
      const price = prices.get(month);
      out.push({
        siteId: st.id, siteName: st.name, timeZone: st.timeZone, currency: st.currency, month,
        consoleMaxKw: consoleKw, consoleMaxTime: iso(a?.maxTs),
        meterMaxKw: meterKw, meterMaxTime: m ? new Date(m.maxTime).toISOString() : null,
        billMaxKw: billKw, billNote: b?.b.note ?? null, billEnteredBy: b ? (b.name || b.username || null) : null, billEnteredAt: iso(b?.b.updatedAt),
        meterDiffKw: consoleKw !== null && meterKw !== null ? roundKw(meterKw - consoleKw) : null,
        billDiffKw: consoleKw !== null && billKw !== null ? roundKw(billKw - consoleKw) : null,
        meterFlagged, billFlagged, state,
        demandPrice: demandPriceText(price), consoleCharge: demandCharge(consoleKw, price), billCharge: demandCharge(billKw, price),
      });
    }
  }
  return f.state ? out.filter((r) => r.state === f.state) : out;
}

export async function reconcileHeader(ctx: AppContext, user: AuthUser, f: z.output<typeof demandReconcileFilter>): Promise<DemandReconcileHeader> {
  const rows = await reconcileRows(ctx, user, f);
  const total = (of: readonly DemandReconcileRecord[], pick: (r: DemandReconcileRecord) => string | null) => {
    const xs = of.map(pick).filter((x): x is string => x !== null);
    return xs.length ? fixed(xs.map((x) => dec(x)).reduce(add), 2) : null;
  };
  // Money is summed per currency, never across (stations bill in their own).
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  const charges = currencies.map((currency) => {
    const of = rows.filter((r) => r.currency === currency);
    return { currency, consoleCharge: total(of, (r) => r.consoleCharge), billCharge: total(of, (r) => r.billCharge) };
  });
  const one = charges.length === 1 ? charges[0]! : null;
  return {
    total: rows.length,
    matched: rows.filter((r) => r.state === 'matched').length,
    mismatched: rows.filter((r) => r.state === 'mismatched').length,
    incomplete: rows.filter((r) => r.state === 'incomplete').length,
    tolerancePercent: DEMAND_TOLERANCE_PERCENT,
    toleranceMinKw: DEMAND_TOLERANCE_MIN_KW,
    consoleCharge: one?.consoleCharge ?? null,
    billCharge: one?.billCharge ?? null,
    currency: one?.currency ?? null,
    charges,
  };
}

export async function reconcilePage(ctx: AppContext, user: AuthUser, q: z.output<typeof demandReconcilePage>): Promise<Page<DemandReconcileRecord>> {
  const rows = await reconcileRows(ctx, user, q);
  if (q.sortField) {
    const k = q.sortField;
    const dir = q.sortOrder === 'desc' ? -1 : 1;
    const val = (r: DemandReconcileRecord) => r[k];
    rows.sort((a, b) => {
      const x = val(a);
      const y = val(b);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * dir;
    });
  }
  const from = (q.current - 1) * q.pageSize;
  return { records: rows.slice(from, from + q.pageSize), total: rows.length, current: q.current, pageSize: q.pageSize };
}

export const BILL_FUTURE_MONTH = '不能录入尚未开始的月份的账单需量';

/** Extension (decision 0037): the bill's figure of a station and month; null clears it. */
export async function reconcileEdit(ctx: AppContext, user: AuthUser, body: z.output<typeof demandReconcileEdit>): Promise<void> {
  const st = await stationOf(ctx.db, user, body.siteId);
  if (body.month > localTime(Date.now(), st.timeZone).monthKey) throw new AppError('RULE_VIOLATION', BILL_FUTURE_MONTH);
  if (body.billMaxKw === null) {
    await ctx.db.delete(demandBill).where(and(eq(demandBill.siteId, st.id), eq(demandBill.month, body.month)));
    return;
  }
  await ctx.db
    .insert(demandBill)
    .values({ siteId: st.id, month: body.month, billMaxKw: body.billMaxKw, note: body.note, userId: user.id })
    .onConflictDoUpdate({ target: [demandBill.siteId, demandBill.month], set: { billMaxKw: body.billMaxKw, note: body.note, userId: user.id, updatedAt: new Date() } });
}

// ── Settings ──────────────────────────────────────────────────────────────────────────

export async function settingPage(ctx: AppContext, user: AuthUser, q: z.output<typeof demandSettingPage>): Promise<Page<DemandSettingRecord>> {
  if (q.siteId) await assertSites(ctx.db, user, [q.siteId]);
  const where = and(
    inSiteScope(demandSetting.siteId, ctx.db, user),
    q.siteId ? eq(demandSetting.siteId, q.siteId) : undefined,
    q.month ? or(eq(demandSetting.month, q.month), isNull(demandSetting.month)) : undefined,
    q.history ? undefined : isNull(demandSetting.replacedAt),
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(demandSetting).where(where);
  const rows = await ctx.db
    .select({ s: demandSetting, siteName: site.name, companyId: site.companyId, userName: appUser.name, username: appUser.username })
    .from(demandSetting)
    .innerJoin(site, eq(site.id, demandSetting.siteId))
    .leftJoin(appUser, eq(appUser.id, demandSetting.createdBy))
    .where(where)
    .orderBy(asc(site.name), sql`${demandSetting.month} desc nulls last`, desc(demandSetting.version))
    .limit(q.pageSize)
    .offset((q.current - 1) * q.pageSize);
  return {
    records: rows.map(({ s, siteName, companyId, userName, username }) => ({
      id: s.id, siteId: s.siteId, siteName, companyId, month: s.month, targetKw: s.targetKw, marginKw: s.marginKw, preAlarmKw: roundKw(s.targetKw - s.marginKw),
      allowDischarge: s.allowDischarge, alarmLevel: s.alarmLevel, version: s.version, current: s.replacedAt === null, replacedAt: iso(s.replacedAt),
      createdBy: userName || username || null, createdAt: s.createdAt.toISOString(),
    })),
    total: Number(n),
    current: q.current,
    pageSize: q.pageSize,
  };
}

/**
 * A target for a station and month (or standing): replaces the current one of the same station and
 * month, which stays as history under the previous version. One transaction.
 */
export async function settingAdd(ctx: AppContext, user: AuthUser, body: z.output<typeof demandSettingAdd>): Promise<{ id: number }> {
  await stationOf(ctx.db, user, body.siteId);
  const sameMonth = body.month === null ? isNull(demandSetting.month) : eq(demandSetting.month, body.month);
  const id = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('demand_setting'), ${body.siteId})`);
    const [last] = await tx
      .select({ version: sql<number>`max(${demandSetting.version})` })
      .from(demandSetting)
      .where(and(eq(demandSetting.siteId, body.siteId), sameMonth));
    await tx
      .update(demandSetting)
      .set({ replacedAt: new Date() })
      .where(and(eq(demandSetting.siteId, body.siteId), sameMonth, isNull(demandSetting.replacedAt)));
    const version = Number(last?.version ?? 0) + 1;
    const [r] = await tx
      .insert(demandSetting)
      .values({
        siteId: body.siteId, month: body.month, targetKw: body.targetKw, marginKw: body.marginKw, allowDischarge: body.allowDischarge,
        alarmLevel: body.alarmLevel ?? DEMAND_DEFAULT_ALARM_LEVEL, version, createdBy: user.id,
      })
      .returning({ id: demandSetting.id });
    await emit(tx, 'demand.targetSet', [{
      settingId: r!.id, siteId: body.siteId, month: body.month, targetKw: body.targetKw, marginKw: body.marginKw, allowDischarge: body.allowDischarge, version, userId: user.id,
    }]);
    return r!.id;
  });
  await demandSinkOf(ctx)?.reload();
  return { id };
}

/** The target in force for a station and month (its own month's, else the standing one), for other modules (no user scope). */
export async function targetInForce(db: DbOrTx, siteId: number, month: string): Promise<DemandTarget | null> {
  return targetFor(await targetsOf(db, siteId), month);
}
