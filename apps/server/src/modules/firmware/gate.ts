import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { localTime } from '@ess/contract';
import type { FirmwareWaitReason, MaintenanceWindow } from '@ess/contract/firmware';
import { scheduleFor, windowAt, type EmsStrategy } from '@ess/contract/strategy';
import { alarm } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { strategy } from '../../db/schema/strategy.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { statusExpr } from '../device/index.ts';
import { productSlotsOf, valuesOf } from '../telemetry/index.ts';

/**
 * The safe gate (issue 22 item 3; decision 0047): a PCS, BMS or EMS — the devices whose flash
 * takes the station's storage offline — is flashed only when its station is in a safe state:
 * storage idle or in standby, SOC within the settings' band, no alarm of level 1–2 open at the
 * station, not inside a discharge window of the synchronised strategy, and the device online.
 * Judged from what the server stores (the latest values, open alarms, the strategy the EMS was
 * given, the presence); the engine asks again every tick, so a closed gate opens by itself.
 */
export const GATED_TYPES: ReadonlySet<string> = new Set(['pcs', 'bms', 'ems']);
/** Storage counts as idle when its AC power is within this (kW). */
export const IDLE_POWER_KW = 1;
/** EMS runMode of standby (EMS_RUN_MODES: 0 auto, 1 manual, 2 standby). */
const STANDBY_RUN_MODE = 2;

export interface GateInput {
  deviceId: number;
  siteId: number;
  type: string;
}

export interface StationState {
  /** AC power of the storage (+ discharge), from the EMS, else the sum of the PCS; null: unknown. */
  powerKw: number | null;
  runMode: number | null;
  soc: number | null;
  openSevereAlarms: number;
  discharging: boolean;
  timeZone: string;
}

/** Whether a station-local instant lies in one of the windows (empty: any time). */
export function insideWindows(windows: readonly MaintenanceWindow[], nowMs: number, timeZone: string): boolean {
  if (windows.length === 0) return true;
  const local = localTime(nowMs, timeZone);
  const minute = Math.floor(local.minuteOfDay);
  const weekday = local.weekday === 0 ? 7 : local.weekday;
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  return windows.some((w) => {
    const s = toMin(w.start);
    const e = toMin(w.end);
    const day = (d: number) => w.days.length === 0 || w.days.includes(d);
    if (s < e) return day(weekday) && minute >= s && minute < e;
    // Wraps midnight: the evening part belongs to today, the morning part to the day it began.
    return (day(weekday) && minute >= s) || (day(yesterday) && minute < e);
  });
}

/** The stored state of the stations that matters to the gate. */
export async function stationStates(ctx: AppContext, siteIds: readonly number[], nowMs = Date.now()): Promise<Map<number, StationState>> {
  const out = new Map<number, StationState>();
  if (siteIds.length === 0) return out;
  const ids = [...new Set(siteIds)];
  const sites = await ctx.db.select({ id: site.id, timeZone: site.timeZone }).from(site).where(inArray(site.id, ids));
  for (const s of sites) out.set(s.id, { powerKw: null, runMode: null, soc: null, openSevereAlarms: 0, discharging: false, timeZone: s.timeZone });

  const slots = await productSlotsOf(ctx);
  const rows = await ctx.db
    .select({ siteId: device.siteId, type: device.type, productId: device.productId, v: deviceLatest.v, text: deviceLatest.text })
    .from(device)
    .innerJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(and(inArray(device.siteId, ids), inArray(device.type, ['ems', 'pcs', 'bms']), eq(device.disabled, false)));
  const pcsSum = new Map<number, number>();
  const bmsSoc = new Map<number, number[]>();
  for (const r of rows) {
    const st = out.get(r.siteId);
    if (!st) continue;
    const v = valuesOf(slots.get(r.productId), r.v, r.text);
    const num = (k: string) => (typeof v[k] === 'number' ? (v[k]) : null);
    if (r.type === 'ems') {
      st.runMode = num('runMode') ?? st.runMode;
      st.powerKw = num('activePower') ?? st.powerKw;
      st.soc = num('soc') ?? st.soc;
    } else if (r.type === 'pcs') {
      const p = num('activePower');
      if (p !== null) pcsSum.set(r.siteId, (pcsSum.get(r.siteId) ?? 0) + p);
    } else {
      const s = num('soc');
      if (s !== null) bmsSoc.set(r.siteId, [...(bmsSoc.get(r.siteId) ?? []), s]);
    }
  }
  for (const [id, st] of out) {
    if (st.powerKw === null && pcsSum.has(id)) st.powerKw = pcsSum.get(id)!;
    const socs = bmsSoc.get(id);
    if (st.soc === null && socs?.length) st.soc = socs.reduce((a, b) => a + b, 0) / socs.length;
  }

  const alarms = await ctx.db
    .select({ siteId: alarm.siteId, n: sql<number>`count(*)::int` })
    .from(alarm)
    .where(and(inArray(alarm.siteId, ids), eq(alarm.status, 'active'), lte(alarm.level, 2)))
    .groupBy(alarm.siteId);
  for (const a of alarms) out.get(a.siteId)!.openSevereAlarms = Number(a.n);

  const strategies = await ctx.db.select({ siteId: strategy.siteId, payload: strategy.syncedPayload }).from(strategy).where(inArray(strategy.siteId, ids));
  for (const s of strategies) {
    const st = out.get(s.siteId);
    const payload = s.payload as unknown as EmsStrategy | null;
    if (!st || !payload?.schedules) continue;
    const local = localTime(nowMs, payload.timeZone || st.timeZone);
    const schedule = scheduleFor(payload.schedules, local.month, local.weekday === 0 ? 7 : local.weekday);
    const w = schedule ? windowAt(schedule.windows, Math.floor(local.minuteOfDay)) : null;
    st.discharging = w?.mode === 'discharge';
  }
  return out;
}

/** Devices online now (the presence the screens show). */
export async function onlineDevices(ctx: AppContext, deviceIds: readonly number[], db: DbOrTx = ctx.db): Promise<Set<number>> {
  if (deviceIds.length === 0) return new Set();
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  const rows = await db
    .select({ id: device.id, status })
    .from(device)
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(inArray(device.id, [...new Set(deviceIds)]));
  return new Set(rows.filter((r) => r.status === 'online').map((r) => r.id));
}

/**
 * Why the gate holds a device, or null when it may be flashed now. Devices of other types pass
 * with only the presence check (a device offline cannot take a command).
 */
export function gateReason(d: GateInput, st: StationState | undefined, online: boolean, soc: { socMin: number; socMax: number }): FirmwareWaitReason | null {
  if (!online) return 'deviceOffline';
  if (!GATED_TYPES.has(d.type)) return null;
  if (!st) return 'storageActive';
  if (st.openSevereAlarms > 0) return 'alarmOpen';
  if (st.discharging) return 'dischargeWindow';
  const standby = st.runMode === STANDBY_RUN_MODE;
  if (!standby && (st.powerKw === null || Math.abs(st.powerKw) > IDLE_POWER_KW)) return 'storageActive';
  if (st.soc === null || st.soc < soc.socMin || st.soc > soc.socMax) return 'socOutOfBand';
  return null;
}
