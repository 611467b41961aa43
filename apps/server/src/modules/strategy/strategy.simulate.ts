import { localTime, minutesOf } from '@ess/contract';
import {
  NO_CAPACITY, NO_DAY_DATA, NO_STRATEGY, capToImportLine, emsImportLine, strategyIssueMessage, strategyIssues, strategySetpoint,
  type SimulationStep, type SimulationSummary, type StrategyContent, type StrategySimulation, type strategySimulate,
} from '@ess/contract/strategy';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { strategy } from '../../db/schema/strategy.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { targetInForce } from '../demand/index.ts';
import { tariffsForSite } from '../pricing/index.ts';
import { deviceHistory } from '../telemetry/index.ts';
import { limitsOf, stationOf } from './strategy.service.ts';

/** One measured step of the day: load (incl. piles), PV, and what the storage and the grid did. */
export interface DayStep {
  /** Step start, epoch ms. */
  t: number;
  loadKw: number;
  pvKw: number;
  price: number | null;
  actualBatteryKw: number | null;
  actualGridKw: number | null;
  actualSoc: number | null;
}

export interface SimulationInput {
  content: StrategyContent;
  /** The demand target in force on the day with its margin (the demand setting; decision 0040), null without one. */
  demand: { targetKw: number; marginKw: number } | null;
  timeZone: string;
  stepMinutes: number;
  /** Installed capacity, kWh; the SOC moves by kWh / capacity (no conversion losses: a planning figure). */
  capacityKwh: number;
  pcsRatedKw: number | null;
  startSoc: number;
  steps: readonly DayStep[];
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
/** Whole cents, half away from zero: amounts are summed in integer cents (exact). */
const cents = (x: number) => Math.sign(x) * Math.round(Math.abs(x) * 100);
const money = (c: number) => `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;

/** The day's figures of a storage power and grid series (+ discharge, + import). */
export function summarise(rows: { batteryKw: number | null; gridKw: number | null; price: number | null }[], stepMinutes: number, usableKwh: number, limits: { transformerKw: number | null; antiBackflow: boolean }): SimulationSummary {
  const h = stepMinutes / 60;
  let revenue = 0;
  let charge = 0;
  let discharge = 0;
  let peak = 0;
  let overMinutes = 0;
  let worst: number | null = null;
  let backMinutes = 0;
  let backKwh = 0;
  for (const r of rows) {
    if (r.batteryKw !== null) {
      const e = r.batteryKw * h;
      if (e > 0) discharge += e;
      else charge -= e;
      if (r.price !== null) revenue += cents(e * r.price);
    }
    if (r.gridKw !== null) {
      peak = Math.max(peak, r.gridKw);
      if (limits.transformerKw !== null && r.gridKw > limits.transformerKw + 1e-6) {
        overMinutes += stepMinutes;
        worst = Math.max(worst ?? 0, r.gridKw);
      }
      if (limits.antiBackflow && r.gridKw < -1e-6) {
        backMinutes += stepMinutes;
        backKwh -= r.gridKw * h;
      }
    }
  }
  return {
    revenue: money(revenue), chargeKwh: round(charge, 3), dischargeKwh: round(discharge, 3), cycles: usableKwh > 0 ? round(discharge / usableKwh, 3) : 0,
    peakDemandKw: round(peak, 2), transformerMinutes: overMinutes, transformerWorstKw: worst === null ? null : round(worst, 2), backflowMinutes: backMinutes, backflowKwh: round(backKwh, 3),
  };
}

/**
 * Runs a strategy over a day's measured load and PV as the EMS would: the window's set-point
 * (target SOC respected), then the limits — import never above the transformer protection power
 * nor the demand target less its margin (discharge added, charging cut; `capToImportLine`, as the EMS), no export with anti-backflow (discharge
 * cut to the load, PV surplus charged), the PCS rating, and the SOC limits.
 */
export function simulateDay(input: SimulationInput): { steps: SimulationStep[]; expected: SimulationSummary; actual: SimulationSummary; usableKwh: number } {
  const c = input.content;
  const h = input.stepMinutes / 60;
  const cap = input.capacityKwh;
  let soc = Math.min(c.socMax, Math.max(c.socMin, input.startSoc));
  const line = emsImportLine(c.transformerProtectionKw, input.demand?.targetKw ?? null, input.demand?.marginKw ?? 0);
  const steps: SimulationStep[] = [];
  for (const s of input.steps) {
    const local = localTime(s.t, input.timeZone);
    const net = s.loadKw - s.pvKw;
    let p = strategySetpoint(c.schedules, local, soc).kw;
    // The EMS's rule (contract): import at most min(transformer, target − margin) — charging cut, discharge added.
    p = capToImportLine(p, net, line);
    if (c.antiBackflow) p = Math.min(p, net);
    const rated = input.pcsRatedKw ?? Infinity;
    p = Math.max(-rated, Math.min(rated, p));
    const maxDis = Math.max(0, ((soc - c.socMin) / 100) * cap) / h;
    const maxChg = Math.max(0, ((c.socMax - soc) / 100) * cap) / h;
    p = Math.max(-maxChg, Math.min(maxDis, p));
    soc -= ((p * h) / cap) * 100;
    steps.push({
      time: `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`,
      loadKw: round(s.loadKw, 2), pvKw: round(s.pvKw, 2), price: s.price, batteryKw: round(p, 2), gridKw: round(net - p, 2), soc: round(soc, 2),
      actualBatteryKw: s.actualBatteryKw, actualGridKw: s.actualGridKw, actualSoc: s.actualSoc,
    });
  }
  const usableKwh = (cap * (c.socMax - c.socMin)) / 100;
  const limits = { transformerKw: c.transformerProtectionKw, antiBackflow: c.antiBackflow };
  return {
    steps,
    expected: summarise(steps.map((s) => ({ batteryKw: s.batteryKw, gridKw: s.gridKw, price: s.price })), input.stepMinutes, usableKwh, limits),
    actual: summarise(steps.map((s) => ({ batteryKw: s.actualBatteryKw, gridKw: s.actualGridKw, price: s.price })), input.stepMinutes, usableKwh, limits),
    usableKwh,
  };
}

const STEP_MINUTES = 5;

/** POST simulate: the strategy (saved, or as sent) against the day's measured EMS series and prices. */
export async function simulate(ctx: AppContext, user: AuthUser, body: z.output<typeof strategySimulate>): Promise<StrategySimulation> {
  const st = await stationOf(ctx.db, user, body.siteId);
  const limits = await limitsOf(ctx.db, st.id);
  let content: StrategyContent;
  if (body.strategy) {
    content = body.strategy;
    const issues = strategyIssues(content, limits);
    if (issues.length) throw new AppError('INVALID_PARAM', issues.slice(0, 5).map(strategyIssueMessage).join('；'));
  } else {
    const [row] = await ctx.db.select().from(strategy).where(eq(strategy.siteId, st.id));
    if (!row) throw new AppError('RULE_VIOLATION', NO_STRATEGY);
    content = row;
  }
  if (!limits.installedCapacity) throw new AppError('RULE_VIOLATION', NO_CAPACITY);
  const [day] = await tariffsForSite(ctx, st.id, body.date, body.date);
  const [ems] = await ctx.db.select({ id: device.id }).from(device).innerJoin(site, eq(site.id, device.siteId)).where(and(eq(device.siteId, st.id), eq(device.type, 'ems'))).orderBy(device.id).limit(1);
  if (!day || !ems) throw new AppError('RULE_VIOLATION', NO_DAY_DATA);
  const ids = ['loadPower', 'chargingPilePower', 'pvPower', 'activePower', 'gridPower', 'soc'];
  const read = (interval: '5m' | '1h') => deviceHistory(ctx, user, { deviceId: ems.id, identifiers: ids, start: new Date(day.startMs), end: new Date(day.endMs), interval });
  let history = await read('5m');
  // Older days may only have hourly rollups.
  if (!history.series.some((x) => x.identifier === 'loadPower' && x.points.some(([, v]) => v !== null))) history = await read('1h');
  const series = (id: string) => new Map((history.series.find((s) => s.identifier === id)?.points ?? []).map(([t, v]) => [t, v]));
  const [load, pile, pv, battery, grid, soc] = ids.map(series) as [Map<number, number | null>, Map<number, number | null>, Map<number, number | null>, Map<number, number | null>, Map<number, number | null>, Map<number, number | null>];
  const priceAt = (t: number) => {
    const minute = Math.floor(localTime(t, st.timeZone).minuteOfDay);
    return day.bands?.find((b) => minutesOf(b.start) <= minute && minute < minutesOf(b.end))?.price ?? null;
  };
  const steps: DayStep[] = [...load.entries()]
    .filter(([, v]) => v !== null)
    .sort(([a], [b]) => a - b)
    .map(([t, l]) => ({
      t, loadKw: (l ?? 0) + (pile.get(t) ?? 0), pvKw: pv.get(t) ?? 0, price: priceAt(t),
      actualBatteryKw: battery.get(t) ?? null, actualGridKw: grid.get(t) ?? null, actualSoc: soc.get(t) ?? null,
    }));
  if (steps.length === 0) throw new AppError('RULE_VIOLATION', NO_DAY_DATA);
  const stepMinutes = history.interval === '1h' ? 60 : STEP_MINUTES;
  const firstSoc = steps.find((s) => s.actualSoc !== null)?.actualSoc ?? (content.socMin + content.socMax) / 2;
  const target = await targetInForce(ctx.db, st.id, body.date.slice(0, 7));
  const demand = target ? { targetKw: target.targetKw, marginKw: target.marginKw } : null;
  const r = simulateDay({ content, demand, timeZone: st.timeZone, stepMinutes, capacityKwh: limits.installedCapacity, pcsRatedKw: limits.pcsRatedKw, startSoc: firstSoc, steps });
  return {
    siteId: st.id, date: body.date, timeZone: st.timeZone, currency: day.template?.currency ?? '', stepMinutes, capacityKwh: round(r.usableKwh, 2),
    steps: r.steps, expected: r.expected, actual: r.actual,
  };
}
