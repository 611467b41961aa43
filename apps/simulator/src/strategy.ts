import {
  applyStrategyParams, demandGuardParams, strategyHash, strategySetpoint, type EmsStrategy, type LocalTime, type TelemetryValue,
} from '@ess/contract';
import type { StationControls } from './state.ts';

/**
 * The EMS's operation strategy (issue 19 item 10): the schedule the console synchronised
 * (command `applyStrategy`), which replaces the built-in time-of-use behaviour while it is set,
 * and demand-guard requests (command `demandGuard`). Kept apart from the rest of the EMS so that
 * manual control (run mode) and the strategy stay separate concerns: in manual mode (runMode 1)
 * the manual set-point still wins, as before.
 */
export interface StrategyControls {
  /** What the EMS runs, as it received it and as setProperty has since changed it; null = built-in TOU. */
  strategy: EmsStrategy | null;
  /** `strategyHash` of `strategy` ("" without one): reported as the EMS property `strategyHash`. */
  hash: string;
  /** Discharge at least `dischargeKw` until `until` (epoch ms). */
  guard: { dischargeKw: number; until: number } | null;
}

/** A station's strategy controls (created on first use: state files of earlier versions have none). */
export function strategyControls(c: StationControls): StrategyControls {
  c.ems ??= { strategy: null, hash: '', guard: null };
  return c.ems;
}

interface Outcome {
  ok: boolean;
  result?: Record<string, unknown>;
  error?: string;
}

/**
 * `applyStrategy` { strategy, hash }: runs it from now on. Its limits become the EMS's (SOC limits,
 * transformer protection power, anti-backflow, demand limit); the reply carries the hash the EMS
 * computes itself of what it applied (equal to the sent one when nothing was lost on the way).
 */
export function applyStrategy(c: StationControls, params: unknown): Outcome {
  const p = applyStrategyParams.safeParse(params);
  if (!p.success) return { ok: false, error: `invalid strategy: ${p.error.issues[0]?.message ?? ''}` };
  const s = p.data.strategy;
  if (s.socMin >= s.socMax) return { ok: false, error: 'socMin must be below socMax' };
  const sc = strategyControls(c);
  sc.strategy = s;
  sc.hash = strategyHash(s);
  c.socLowerLimit = s.socMin;
  c.socUpperLimit = s.socMax;
  if (s.transformerProtectionKw !== null) c.transformerProtectionPower = s.transformerProtectionKw;
  c.antiBackflow = s.antiBackflow;
  c.demandLimit = s.demandTargetKw ?? 0;
  c.demandMargin = s.demandTargetKw !== null ? (s.demandMarginKw ?? 0) : 0;
  return { ok: true, result: { hash: sc.hash } };
}

/**
 * `demandGuard` { dischargeKw, until }: discharge at least that much until then. Granted: the
 * request within the PCS's limit and what the battery allows now (0 at the SOC lower limit);
 * a request whose `until` has passed ends the guard.
 */
export function demandGuard(c: StationControls, params: unknown, nowMs: number, pcsLimitKw: number, dischargeAllowedKw: number): Outcome {
  const p = demandGuardParams.safeParse(params);
  if (!p.success) return { ok: false, error: `invalid demand guard: ${p.error.issues[0]?.message ?? ''}` };
  const sc = strategyControls(c);
  if (p.data.until <= nowMs || p.data.dischargeKw === 0) {
    sc.guard = null;
    return { ok: true, result: { dischargeKw: 0 } };
  }
  const granted = Math.max(0, Math.min(p.data.dischargeKw, pcsLimitKw, dischargeAllowedKw));
  sc.guard = { dischargeKw: p.data.dischargeKw, until: p.data.until };
  return { ok: true, result: { dischargeKw: Math.round(granted * 100) / 100 } };
}

/** setProperty of the EMS's limits while a strategy runs: the strategy it runs changes with them (so its hash does). */
export function strategyPropertyWritten(c: StationControls, identifier: string, value: TelemetryValue): void {
  const sc = strategyControls(c);
  if (!sc.strategy) return;
  const num = typeof value === 'number' ? value : 0;
  const s = { ...sc.strategy };
  if (identifier === 'socLowerLimit') s.socMin = num;
  else if (identifier === 'socUpperLimit') s.socMax = num;
  else if (identifier === 'transformerProtectionPower') s.transformerProtectionKw = num;
  else if (identifier === 'antiBackflow') s.antiBackflow = value === true;
  else if (identifier === 'demandLimit') s.demandTargetKw = num > 0 ? num : null;
  else return;
  sc.strategy = s;
  sc.hash = strategyHash(s);
}

/** The strategy's set-point now (AC kW, + discharge), or null when none is applied (built-in TOU then). */
export function strategyTarget(c: StationControls, local: LocalTime, socEstimated: number): number | null {
  const s = c.ems?.strategy;
  if (!s) return null;
  return strategySetpoint(s.schedules, local, socEstimated).kw;
}

/** The demand guard's floor on discharge now (kW), 0 without one; an expired guard is dropped. */
export function guardFloor(c: StationControls, nowMs: number): number {
  const g = c.ems?.guard;
  if (!g) return 0;
  if (nowMs >= g.until) {
    c.ems!.guard = null;
    return 0;
  }
  return g.dischargeKw;
}
