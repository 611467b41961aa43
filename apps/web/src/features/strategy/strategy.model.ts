import {
  defaultSocLimits, ISO_WEEKDAY_LABELS, ISO_WEEKDAYS, STRATEGY_MODE_LABELS, STRATEGY_MONTHS, strategyAdd, strategyEdit, strategyIssues,
  type StrategyContent, type StrategyIssue, type StrategyLimits, type StrategyRecord, type StrategySchedule, type StrategyWindow,
} from '@ess/contract/strategy';
import { BAND_STEP_MINUTES, DAY_MINUTES, minutesOf, timeOf } from '@ess/contract/pricing';

type T = (s: string, ...a: unknown[]) => string;

/** What the editor holds: the strategy's content (the form's values). */
export type Draft = StrategyContent;

/** The first schedule of a new strategy: every day of the year, idle all day. */
export const wholeYear = (name: string): StrategySchedule => ({
  name, priority: 1, months: [...STRATEGY_MONTHS], weekdays: [...ISO_WEEKDAYS], windows: [{ start: '00:00', end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null }],
});

/**
 * The draft a station starts from: its saved strategy, else one schedule idle all day with the
 * SOC limits of its depth of discharge, its transformer protection power and no export.
 */
export function draftOf(strategy: StrategyRecord | null, limits: StrategyLimits, firstName = '全年'): Draft {
  if (strategy) {
    const { schedules, socMin, socMax, transformerProtectionKw, antiBackflow, demandTargetKw } = strategy;
    return structuredClone({ schedules, socMin, socMax, transformerProtectionKw, antiBackflow, demandTargetKw });
  }
  return {
    schedules: [wholeYear(firstName)], ...defaultSocLimits(limits.depthOfDischarge), transformerProtectionKw: limits.transformerProtectionPower,
    antiBackflow: true, demandTargetKw: null,
  };
}

/** The rules of the contract over the draft (empty: it may be saved). */
export const draftIssues = (d: Draft, limits: StrategyLimits): StrategyIssue[] => strategyIssues(d, limits);

/** The contract's labels an issue's arguments may hold (modes, weekdays): translated; names and numbers are not. */
const LABELS = new Set<string>([...Object.values(STRATEGY_MODE_LABELS), ...Object.values(ISO_WEEKDAY_LABELS)]);

/**
 * An issue in the reader's language: its source text through the pack with its arguments, each
 * a name or a number as it is, or a label of the contract (a mode, weekdays joined by 、) translated.
 */
export function issueMessage(i: Pick<StrategyIssue, 'text' | 'args'>, t: T): string {
  const label = (a: string | number) => (typeof a === 'string' && a.split('、').every((x) => LABELS.has(x)) ? a.split('、').map((x) => t(x)).join(t('、')) : a);
  return t(i.text, ...i.args.map(label));
}


/** The request of a save: the add of a station without a strategy, else the edit; checked with the contract's schema. */
export function saveBody(siteId: number, saved: Pick<StrategyRecord, 'id'> | null, d: Draft):
  { ok: true; kind: 'add' | 'edit'; body: Record<string, unknown> } | { ok: false; issue: string } {
  const body = saved ? { id: saved.id, ...d } : { siteId, ...d };
  const r = (saved ? strategyEdit : strategyAdd).safeParse(body);
  if (!r.success) return { ok: false, issue: r.error.issues[0]!.message };
  return { ok: true, kind: saved ? 'edit' : 'add', body };
}

/** Quarter hours a window may start at (00:00–23:45) and end at (00:15–24:00). */
export const STARTS = Array.from({ length: DAY_MINUTES / BAND_STEP_MINUTES }, (_, i) => timeOf(i * BAND_STEP_MINUTES));
export const ENDS = Array.from({ length: DAY_MINUTES / BAND_STEP_MINUTES }, (_, i) => timeOf((i + 1) * BAND_STEP_MINUTES));

/** A new window after the schedule's last one: from its end (or 00:00) to 24:00, idle; the last is cut to make room when it reaches 24:00. */
export function withNewWindow(windows: readonly StrategyWindow[]): StrategyWindow[] {
  const sorted = [...windows].sort((a, b) => minutesOf(a.start) - minutesOf(b.start));
  const last = sorted.at(-1);
  if (!last) return [{ start: '00:00', end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null }];
  const ls = minutesOf(last.start);
  const le = minutesOf(last.end);
  if (le < DAY_MINUTES) return [...windows, { start: last.end, end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null }];
  // Split the last window in two halves on the quarter-hour grid.
  const mid = Math.round((ls + (le - ls) / 2) / BAND_STEP_MINUTES) * BAND_STEP_MINUTES;
  if (mid <= ls || mid >= le) return [...windows];
  return windows.flatMap((w) => (w === last ? [{ ...w, end: timeOf(mid) }, { start: timeOf(mid), end: last.end, mode: 'idle' as const, powerKw: 0, targetSoc: null }] : [w]));
}
