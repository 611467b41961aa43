import { existsSync } from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { addDays, localDayStart, todayIn } from '@ess/contract';
import {
  DEFAULT_FAULT_RATE, applyStrategy, commissionedState, faultLabel, localTime, reportedFaults, saveState, stationDeviceValues, step,
  type DeviceDef, type Fleet, type SimState,
} from '@ess/simulator';
import { device } from '../db/schema/device.ts';
import { site } from '../db/schema/site.ts';
import { deviceEvent } from '../db/schema/telemetry.ts';
import type { AppContext } from '../platform/context.ts';
import { alarmEngineOf } from '../modules/alarm/index.ts';
import { demandSinkOf } from '../modules/demand/index.ts';
import { syncedStrategies } from '../modules/strategy/index.ts';
import { copyDriver, deviceRegistryOf } from '../modules/telemetry/index.ts';
import { loadProductSlots } from '../modules/telemetry/index.ts';
import { ROLLUP_TABLES, RollupAccumulator, writeAggregates, type Granularity } from '../modules/telemetry/index.ts';

/**
 * The demo's past, so that a first start shows history (earnings, energy per day, alarms) and not
 * only what happened since the server started. The demo stations are commissioned `days` ago
 * (their registers start at zero there, and the site's commissioning date says so); the station
 * simulator's own physics, with its operating life (faults, devices offline, a cabinet losing
 * communication), is run from then to now in 5-minute steps:
 * - each step's readings of the devices the energy figures read are folded into the 5-minute, hour
 *   and day rollups exactly as the ingest folds reports (RollupAccumulator); a device out of touch
 *   reports nothing (a gap, as live);
 * - the readings go through the alarm engine's threshold rules and the fault events (published
 *   live over MQTT) are stored as device events and go through its fault rules: the past alarms are
 *   raised and ended by the same engine, into the same table, as live ones — but as history: their
 *   domain events are marked so, and hooks and messages do not send them (the past is not news;
 *   decision 0042, amendment);
 * - the simulator's state at the end is saved where the live simulator resumes from it, so
 *   registers continue without a jump and faults still open stay open;
 * - each station's EMS runs its synchronised strategy (when one exists) from the start, with the
 *   demand target it carries: the history's storage keeps the import under the target exactly as
 *   the live EMS does (the simulator's own `step`, decision 0040).
 * Days older than the last FINE_DAYS are played in 30-minute steps (the physics still integrates
 * in the simulator's 1-minute sub-steps, so the energy and the registers are the same; only fewer
 * readings are taken): the devices the energy figures read are sampled every 30 minutes and 5
 * minutes before every station-local midnight (so each zero reading is "measured"), those only
 * the alarm rules watch every hour. Their 5-minute rollups hold one bucket in six.
 * No raw reports are written (they would be purged anyway) and nothing is computed here: revenue
 * comes from the engine over these rollups.
 */

const STEP_MS = 300_000;
const DAY = 86_400_000;
/** The step of the older days (a multiple of STEP_MS). */
const COARSE_STEP_MS = 1_800_000;
const HOUR = 3_600_000;
/** The last days played in 5-minute steps. */
export const FINE_DAYS = 7;
/** The devices whose registers and power the dashboards and the revenue engine read. */
const TYPES = new Set<DeviceDef['type']>(['meter', 'pcs', 'bms', 'ems', 'pvInverter', 'dcdc', 'chargingPile']);
/** Devices the default alarm dictionary watches by threshold (besides those above). */
const WATCHED = new Set<DeviceDef['type']>([...TYPES, 'batteryCluster', 'batteryPack', 'airConditioner', 'transformer']);

/** The simulator's fault rate for the demo (SIM_FAULT_RATE, as the live simulator reads it). */
export function demoFaultRate(): number {
  const raw = process.env.SIM_FAULT_RATE;
  const v = raw === undefined || raw === '' ? DEFAULT_FAULT_RATE : Number(raw);
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_FAULT_RATE;
}

/**
 * The default length of the demo's history: from the first day of the calendar month before the
 * previous one in every demo station's time zone (the earliest of those midnights) to now, in days
 * (fractional: the history then starts at that midnight). Two whole past months to settle (the
 * statements demo shows each of the four states on a month with energy), and this one so far.
 */
export function demoHistoryDefaultDays(fleet: Fleet, now = Date.now()): number {
  let from = now;
  for (const st of fleet.stations) {
    const today = todayIn(st.timeZone, new Date(now));
    const first = `${today.slice(0, 7)}-01`;
    const prevFirst = `${addDays(first, -1).slice(0, 7)}-01`;
    const prevPrevFirst = `${addDays(prevFirst, -1).slice(0, 7)}-01`;
    from = Math.min(from, localDayStart(st.timeZone, prevPrevFirst));
  }
  return (now - from) / DAY;
}

/** True when none of the fleet's devices has a day rollup yet and there is no saved simulator state. */
export async function demoHistoryWanted(ctx: AppContext, fleet: Fleet, stateFile: string): Promise<boolean> {
  if (stateFile && existsSync(stateFile)) return false;
  const codes = fleet.stations.map((s) => s.code);
  const { rows } = await ctx.database.sql.query<{ n: number }>(
    `select count(*)::int as n from (select 1 from telemetry_1d t join device d on d.id = t.device_id join site s on s.id = d.site_id
      where s.code = any($1::text[]) limit 1) x`,
    [`{${codes.join(',')}}`],
  );
  return (rows[0]?.n ?? 0) === 0;
}

export interface DemoHistory {
  steps: number;
  rows: number;
  /** Fault events stored (raised and cleared). */
  events: number;
  /** The simulator's state at the end (saved to the state file when one is given). */
  state: SimState;
}

export async function seedDemoHistory(
  ctx: AppContext, fleet: Fleet, days: number, stateFile: string, now = Date.now(), faultRate = demoFaultRate(), fineDays = FINE_DAYS,
): Promise<DemoHistory> {
  const codes = fleet.stations.map((s) => s.code);
  const start = Math.floor((now - days * DAY) / STEP_MS) * STEP_MS;
  // Before `fineFrom` (whole coarse steps from the start), 30-minute steps.
  const fineFrom = Math.max(start, start + Math.floor((now - fineDays * DAY - start) / COARSE_STEP_MS) * COARSE_STEP_MS);
  // The local midnights of the coarse stretch (all demo zones are whole hours off UTC): a reading 5 minutes before each.
  const midnights = new Set<number>();
  for (const st of fleet.stations) {
    for (let d = localTime(start, st.timeZone).dateKey; ; d = addDays(d, 1)) {
      const m = localDayStart(st.timeZone, d);
      if (m > fineFrom) break;
      if (m > start) midnights.add(m);
    }
  }
  // Commissioned where the history starts: the registers read zero there.
  for (const st of fleet.stations) {
    await ctx.db.update(site).set({ commissioningDate: localTime(start, st.timeZone).dateKey }).where(eq(site.code, st.code));
  }
  const sites = await ctx.db.select({ id: site.id, code: site.code, timeZone: site.timeZone }).from(site).where(inArray(site.code, codes));
  const siteOf = new Map(sites.map((s) => [s.code, s]));
  const rows = await ctx.db
    .select({ id: device.id, code: device.code, productId: device.productId })
    .from(device)
    .where(inArray(device.siteId, sites.map((s) => s.id)));
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const slots = await loadProductSlots(ctx.db);
  const engine = alarmEngineOf(ctx);
  // The meters' readings also make the demand windows (issue 19), as live reports do.
  const demand = demandSinkOf(ctx);
  const registry = deviceRegistryOf(ctx);
  await registry.refresh();
  await demand?.reload();
  const acc = new RollupAccumulator(Number.POSITIVE_INFINITY);
  const { session } = copyDriver(ctx.database);
  let written = 0;
  let events: (typeof deviceEvent.$inferInsert)[] = [];
  let eventCount = 0;
  const flush = async (force: boolean) => {
    const due = acc.take(now, force);
    // One transaction per table: the staging table empties at each commit.
    for (const g of Object.keys(due) as Granularity[]) {
      if (!due[g].length) continue;
      await session((s) => writeAggregates(s, ROLLUP_TABLES[g], due[g]));
      written += due[g].length;
    }
    // The events first (as the ingest stores them before the rules write), then the alarms.
    for (let i = 0; i < events.length; i += 500) await ctx.db.insert(deviceEvent).values(events.slice(i, i + 500));
    eventCount += events.length;
    events = [];
    await demand?.flush();
    if (engine) {
      await engine.flush();
      for (let i = 0; engine.pendingTransitions > 0 && i < 1000; i++) await engine.flush();
    }
  };

  /** Every device's readings at the state's time: into the rollups, and through the alarm rules. */
  const published = new Map<string, Set<string>>();
  const record = (state: SimState, t: number) => {
    const sampleAll = t < fineFrom ? (t - start) % HOUR === 0 : (t - start) % (3 * STEP_MS) === 0;
    for (const station of state.stations) {
      const st = siteOf.get(station.def.code);
      if (!st) continue;
      for (const d of station.def.devices) {
        const reg = byCode.get(d.code);
        const layout = reg ? slots.get(reg.productId) : undefined;
        const registered = registry.byCode.get(d.code);
        // Fault events, as the agent publishes them: what changed since the last step.
        const now = new Set(reportedFaults(station, d));
        const before = published.get(d.code) ?? new Set<string>();
        for (const code of now) {
          if (before.has(code) || !reg) continue;
          const message = faultLabel(d.type, code);
          events.push({ deviceId: reg.id, code, active: true, message, ts: new Date(t), receivedAt: new Date(t) });
          if (registered) engine?.event(registered, code, true, message, t, true);
        }
        for (const code of before) {
          if (now.has(code) || !reg) continue;
          const message = `${faultLabel(d.type, code)}恢复`;
          events.push({ deviceId: reg.id, code, active: false, message, ts: new Date(t), receivedAt: new Date(t) });
          if (registered) engine?.event(registered, code, false, message, t, true);
        }
        published.set(d.code, now);
        // A device out of touch reports nothing. Those only the alarm rules watch (a station's many
        // battery packs, …) are judged every 15 minutes (every hour in the coarse stretch): playing
        // the history costs their readings.
        if (!WATCHED.has(d.type) || station.dyn.offline[d.code] || !reg || !layout) continue;
        if (!TYPES.has(d.type) && !sampleAll) continue;
        const values = stationDeviceValues(state, station, d);
        const arr = new Float64Array(layout.identifiers.length).fill(Number.NaN);
        for (const [k, v] of Object.entries(values)) {
          const i = layout.indexOf.get(k);
          if (i === undefined) continue;
          if (typeof v === 'number' && Number.isFinite(v)) arr[i] = v;
          else if (typeof v === 'boolean') arr[i] = v ? 1 : 0;
        }
        if (TYPES.has(d.type)) acc.add(reg.id, st.timeZone, t, arr);
        if (registered) engine?.report(registered, t, arr, true);
        if (registered) demand?.replay(registered, t, arr);
      }
    }
  };

  let state = commissionedState(fleet, start, { randomFaultsPerDevicePerDay: faultRate });
  // The stations run the strategy they are synchronised with (its demand target held by the EMS's
  // own rule, decision 0040), from the start: the live simulator resumes with it from the state file.
  const strategies = await syncedStrategies(ctx, codes);
  for (const station of state.stations) {
    const synced = strategies.get(station.def.code);
    if (!synced) continue;
    const applied = applyStrategy(station.dyn.controls, synced);
    if (!applied.ok) ctx.log.warn({ site: station.def.code, error: applied.error }, 'demo history: strategy not applied');
  }
  // The commissioning reading: every register at zero, so the first day's energy is complete.
  record(state, start);
  let steps = 0;
  let lastFlush = start;
  let prev = start;
  for (let t = start + STEP_MS; t <= now; t += STEP_MS) {
    // The coarse stretch: every 30 minutes, and 5 minutes before a local midnight.
    if (t <= fineFrom && (t - start) % COARSE_STEP_MS !== 0 && !midnights.has(t + STEP_MS)) continue;
    state = step(state, t - prev, t);
    prev = t;
    steps++;
    record(state, t);
    // The server answers meanwhile (the first start's console): let go of the event loop now and then.
    if (steps % 6 === 0) await new Promise((r) => setImmediate(r));
    if (t - lastFlush >= DAY) {
      await flush(false);
      lastFlush = t;
    }
  }
  await flush(true);
  if (stateFile) await saveState(stateFile, state);
  await ctx.database.sql.exec('analyze telemetry_5m; analyze telemetry_1h; analyze telemetry_1d').catch(() => undefined);
  ctx.log.info({ days: Math.round(days * 10) / 10, fineDays, steps, rows: written, events: eventCount }, 'demo history written');
  return { steps, rows: written, events: eventCount, state };
}
