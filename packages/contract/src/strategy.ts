import { z } from 'zod';
import { idQuery } from './common.ts';
import { created, done, endpoint, isoTime } from './endpoint.ts';
import { BAND_STEP_MINUTES, DAY_MINUTES, hhmm, minutesOf, timeOf } from './pricing.ts';

/**
 * Operation strategy (api-catalogue "Strategy"; product-spec §… /operatecfg/strategy; DOMAIN.md
 * §6a; issue 19 items 7, 9, 10): a station's daily schedules of charge / discharge / idle windows
 * with power set-points, bounded by SOC limits (depth of discharge), the transformer protection
 * power, anti-backflow and the demand target; synchronised to the station's EMS over MQTT
 * (command `applyStrategy`, docs/mqtt.md), which answers with the hash of what it applied and
 * reports the hash it runs (EMS property `strategyHash`). One domain: server module
 * modules/strategy, web feature features/strategy (/operatecfg/strategy).
 *
 * One strategy per station. Its rules (`strategyIssues`) are pure and run on both sides: the
 * console checks as the user edits, the server refuses the same issues (400, tipMsg naming the
 * schedule and window) and changes nothing.
 */

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

/** JSON ids are numbers (no coercion of a missing one). */
const ref = z.number().int().positive().max(2 ** 31 - 1);

export const STRATEGY_MODES = ['charge', 'discharge', 'idle'] as const;
export type StrategyMode = (typeof STRATEGY_MODES)[number];
export const STRATEGY_MODE_LABELS: Record<StrategyMode, string> = { charge: '充电', discharge: '放电', idle: '待机' };

/** ISO weekdays: 1 = Monday … 7 = Sunday (station-local). */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const ISO_WEEKDAY_LABELS: Record<number, string> = { 1: '周一', 2: '周二', 3: '周三', 4: '周四', 5: '周五', 6: '周六', 7: '周日' };
export const STRATEGY_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/** At most this many schedules per strategy and windows per schedule (a quarter-hour grid has 96). */
export const MAX_SCHEDULES = 12;
export const MAX_WINDOWS = 96;
/** Largest power figure the contract accepts at all (kW); the real bound is the PCS rating. */
export const MAX_STRATEGY_POWER = 1_000_000;

/**
 * One window of the station-local day: [start, end), "HH:MM" on a quarter hour, 24:00 allowed as
 * an end. `powerKw` is the magnitude of the set-point (charge and discharge alike; 0 for idle).
 * `targetSoc` (%): the SOC to reach by the window's end — a charge window stops charging at it, a
 * discharge window stops discharging at it; null = run the set-point until the SOC limit.
 * The schema accepts any number so that the rules (`strategyIssues`) can name the window.
 */
export const strategyWindow = z.object({
  start: hhmm,
  end: hhmm,
  mode: z.enum(STRATEGY_MODES, { error: '时段类型应为充电、放电或待机' }),
  powerKw: z.number({ error: '功率须为数字' }).min(0, '功率不能为负数').max(MAX_STRATEGY_POWER, '功率超出范围'),
  targetSoc: z
    .number({ error: '目标SOC须为数字' })
    .optional()
    .nullable()
    .transform((v) => v ?? null),
});
export type StrategyWindow = z.output<typeof strategyWindow>;
export type StrategyWindowInput = z.input<typeof strategyWindow>;

/**
 * A schedule: the day's windows, applying to the listed months and weekdays. When several
 * schedules apply to a day, the one with the smallest `priority` number wins (1 first); two
 * schedules of equal priority may not share a day. Together they must cover every day of the year.
 */
export const strategySchedule = z.object({
  name: z.string().trim().min(1, '方案名称不能为空').max(32, '方案名称不能超过32个字符'),
  priority: z.number({ error: '优先级须为1-99的整数' }).int('优先级须为1-99的整数').min(1, '优先级须为1-99的整数').max(99, '优先级须为1-99的整数'),
  months: z.array(z.number().int().min(1, '月份应为1-12').max(12, '月份应为1-12')).min(1, '请选择适用月份').max(12),
  weekdays: z.array(z.number().int().min(1, '星期应为1-7').max(7, '星期应为1-7')).min(1, '请选择适用星期').max(7),
  windows: z.array(strategyWindow).min(1, '请设置时段').max(MAX_WINDOWS, `时段不能超过${MAX_WINDOWS}个`),
});
export type StrategySchedule = z.output<typeof strategySchedule>;
export type StrategyScheduleInput = z.input<typeof strategySchedule>;

/** The strategy's settings besides its schedules. */
const strategyFields = {
  schedules: z.array(strategySchedule).min(1, '请至少设置一个方案').max(MAX_SCHEDULES, `方案不能超过${MAX_SCHEDULES}个`),
  /**
   * SOC limits (%): the EMS never discharges below `socMin` nor charges above `socMax`. Their
   * difference may not exceed the station's depth of discharge (key values); the console's
   * defaults are `defaultSocLimits(depthOfDischarge)`.
   */
  socMin: z.number({ error: 'SOC下限须为数字' }).min(0, 'SOC下限应在0-100之间').max(100, 'SOC下限应在0-100之间'),
  socMax: z.number({ error: 'SOC上限须为数字' }).min(0, 'SOC上限应在0-100之间').max(100, 'SOC上限应在0-100之间'),
  /** kW: the grid import is never above it (charging is cut, discharging added); null = no limit. Default: the key values'. */
  transformerProtectionKw: z.number().gt(0, '变压器保护功率应大于0').max(MAX_STRATEGY_POWER).optional().nullable().transform((v) => v ?? null),
  /** True: never export to the grid (discharge is cut to the load). */
  antiBackflow: z.boolean(),
  /**
   * kW: the station's demand target. The demand setting is its only source (decision 0040): a
   * strategy read answers the target in force this month (null without one); on add and edit the
   * field is accepted for the shape's sake and not stored — set targets under 需量设置.
   */
  demandTargetKw: z.number().gt(0, '需量目标应大于0').max(MAX_STRATEGY_POWER).optional().nullable().transform((v) => v ?? null),
};
export const strategyAdd = z.object({ siteId: ref, ...strategyFields });
export const strategyEdit = z.object({ id: ref, ...strategyFields });
export const strategyUnique = z.object({ siteId: ref });
export type StrategyAdd = z.input<typeof strategyAdd>;
export type StrategyEdit = z.input<typeof strategyEdit>;
/** The strategy's content: what the rules check, what is hashed and sent to the EMS. */
export type StrategyContent = Pick<z.output<typeof strategyAdd>, 'schedules' | 'socMin' | 'socMax' | 'transformerProtectionKw' | 'antiBackflow' | 'demandTargetKw'>;

// ── The station's limits (what the rules check against) ───────────────────────────────

export const strategyLimits = z.object({
  /** Sum of the rated power of the station's PCS devices (kW); null when none has one. */
  pcsRatedKw: z.number().nullable(),
  pcsCount: z.number(),
  /** Key values: depth of discharge (%), transformer protection power (kW), installed energy (kWh). */
  depthOfDischarge: z.number().nullable(),
  transformerProtectionPower: z.number().nullable(),
  installedCapacity: z.number().nullable(),
});
export type StrategyLimits = z.infer<typeof strategyLimits>;

/** SOC limits a new strategy starts from: [100 − DoD, 100] (DoD 90 % when the key values have none). */
export function defaultSocLimits(depthOfDischarge: number | null): { socMin: number; socMax: number } {
  const dod = depthOfDischarge ?? 90;
  return { socMin: Math.round((100 - dod) * 100) / 100, socMax: 100 };
}

// ── The rules ─────────────────────────────────────────────────────────────────────────

/** An issue: source text with $n placeholders (translated by the packs), its arguments, and the field. */
export interface StrategyIssue {
  text: string;
  args: (string | number)[];
  path: (string | number)[];
}

/**
 * Texts of the rules. $1 is the schedule's name, $2 the window's number (1-based, in the order
 * sent), $3–$4 its times: the tipMsg names the window.
 */
export const STRATEGY_TEXTS = {
  step: '方案「$1」时段$2（$3–$4）的时间应为15分钟的整数倍',
  order: '方案「$1」时段$2（$3–$4）结束时间应晚于开始时间',
  overlap: '方案「$1」时段$2（$3–$4）与时段$5（$6–$7）重叠',
  gap: '方案「$1」$2–$3 未设置时段',
  idlePower: '方案「$1」时段$2（$3–$4）为待机，功率应为0',
  noPower: '方案「$1」时段$2（$3–$4）为$5，功率应大于0',
  pcsRating: '方案「$1」时段$2（$3–$4）功率 $5 kW 超过PCS额定功率 $6 kW',
  transformer: '方案「$1」时段$2（$3–$4）充电功率 $5 kW 超过变压器保护功率 $6 kW',
  targetSoc: '方案「$1」时段$2（$3–$4）目标SOC $5% 超出SOC上下限 $6%–$7%',
  idleTarget: '方案「$1」时段$2（$3–$4）为待机，不设目标SOC',
  socOrder: 'SOC下限应低于SOC上限',
  socDepth: 'SOC上下限之差 $1% 超过放电深度 $2%',
  duplicateName: '方案名称「$1」重复',
  duplicateMonth: '方案「$1」的适用月份重复',
  duplicateWeekday: '方案「$1」的适用星期重复',
  samePriority: '方案「$1」与「$2」优先级相同且适用日期重叠（$3月$4）',
  uncovered: '$1月的$2没有适用的方案',
} as const;

/** Source text with its placeholders filled (the server's tipMsg in the source language). */
export const strategyIssueMessage = (i: Pick<StrategyIssue, 'text' | 'args'>): string =>
  i.text.replace(/\$(\d+)/g, (whole, n: string) => {
    const v = i.args[Number(n) - 1];
    return v === undefined ? whole : String(v);
  });

const fmt = (n: number) => String(Math.round(n * 100) / 100);

/** The 24 h partition of one schedule, each issue naming its window. */
function windowIssues(s: StrategySchedule, si: number, content: Pick<StrategyContent, 'socMin' | 'socMax' | 'transformerProtectionKw'>, limits: StrategyLimits): StrategyIssue[] {
  const issues: StrategyIssue[] = [];
  const at = (wi: number, field: string) => ['schedules', si, 'windows', wi, field];
  const named = (wi: number) => [s.name, wi + 1, s.windows[wi]!.start, s.windows[wi]!.end];
  s.windows.forEach((w, wi) => {
    if (minutesOf(w.start) % BAND_STEP_MINUTES !== 0 || minutesOf(w.end) % BAND_STEP_MINUTES !== 0) issues.push({ text: STRATEGY_TEXTS.step, args: named(wi), path: at(wi, 'start') });
    if (minutesOf(w.end) <= minutesOf(w.start)) issues.push({ text: STRATEGY_TEXTS.order, args: named(wi), path: at(wi, 'end') });
    if (w.mode === 'idle' && w.powerKw !== 0) issues.push({ text: STRATEGY_TEXTS.idlePower, args: named(wi), path: at(wi, 'powerKw') });
    if (w.mode !== 'idle' && w.powerKw <= 0) issues.push({ text: STRATEGY_TEXTS.noPower, args: [...named(wi), STRATEGY_MODE_LABELS[w.mode]], path: at(wi, 'powerKw') });
    if (limits.pcsRatedKw !== null && w.powerKw > limits.pcsRatedKw) issues.push({ text: STRATEGY_TEXTS.pcsRating, args: [...named(wi), fmt(w.powerKw), fmt(limits.pcsRatedKw)], path: at(wi, 'powerKw') });
    const tpp = content.transformerProtectionKw;
    if (w.mode === 'charge' && tpp !== null && w.powerKw > tpp) issues.push({ text: STRATEGY_TEXTS.transformer, args: [...named(wi), fmt(w.powerKw), fmt(tpp)], path: at(wi, 'powerKw') });
    if (w.targetSoc !== null) {
      if (w.mode === 'idle') issues.push({ text: STRATEGY_TEXTS.idleTarget, args: named(wi), path: at(wi, 'targetSoc') });
      else if (w.targetSoc < content.socMin || w.targetSoc > content.socMax) {
        issues.push({ text: STRATEGY_TEXTS.targetSoc, args: [...named(wi), fmt(w.targetSoc), fmt(content.socMin), fmt(content.socMax)], path: at(wi, 'targetSoc') });
      }
    }
  });
  // Coverage: walk the windows in time order; a window starting before the cursor overlaps the one that set it.
  const order = s.windows
    .map((w, wi) => ({ wi, s: minutesOf(w.start), e: minutesOf(w.end) }))
    .filter((w) => w.e > w.s)
    .sort((a, b) => a.s - b.s || a.e - b.e);
  let cursor = 0;
  let last = -1;
  for (const w of order) {
    if (w.s > cursor) issues.push({ text: STRATEGY_TEXTS.gap, args: [s.name, timeOf(cursor), timeOf(w.s)], path: ['schedules', si, 'windows'] });
    else if (w.s < cursor && last >= 0) issues.push({ text: STRATEGY_TEXTS.overlap, args: [...named(w.wi), last + 1, s.windows[last]!.start, s.windows[last]!.end], path: at(w.wi, 'start') });
    if (w.e > cursor) {
      cursor = w.e;
      last = w.wi;
    }
  }
  if (cursor < DAY_MINUTES) issues.push({ text: STRATEGY_TEXTS.gap, args: [s.name, timeOf(cursor), '24:00'], path: ['schedules', si, 'windows'] });
  return issues;
}

/**
 * Every rule of a strategy against the station's limits: each schedule a full, non-overlapping
 * partition of 00:00–24:00 on quarter hours; set-points within the PCS rating (and a charge
 * set-point within the transformer protection power); idle windows at 0 kW; target SOCs within
 * the SOC limits; SOC limits ordered and no wider than the depth of discharge; every month ×
 * weekday covered by a schedule, and no two schedules of one priority sharing a day.
 * Empty = valid.
 */
export function strategyIssues(content: StrategyContent, limits: StrategyLimits): StrategyIssue[] {
  const issues: StrategyIssue[] = [];
  if (content.socMin >= content.socMax) issues.push({ text: STRATEGY_TEXTS.socOrder, args: [], path: ['socMin'] });
  else if (limits.depthOfDischarge !== null && content.socMax - content.socMin > limits.depthOfDischarge + 1e-9) {
    issues.push({ text: STRATEGY_TEXTS.socDepth, args: [fmt(content.socMax - content.socMin), fmt(limits.depthOfDischarge)], path: ['socMin'] });
  }
  const names = new Set<string>();
  content.schedules.forEach((s, si) => {
    if (names.has(s.name)) issues.push({ text: STRATEGY_TEXTS.duplicateName, args: [s.name], path: ['schedules', si, 'name'] });
    names.add(s.name);
    if (new Set(s.months).size !== s.months.length) issues.push({ text: STRATEGY_TEXTS.duplicateMonth, args: [s.name], path: ['schedules', si, 'months'] });
    if (new Set(s.weekdays).size !== s.weekdays.length) issues.push({ text: STRATEGY_TEXTS.duplicateWeekday, args: [s.name], path: ['schedules', si, 'weekdays'] });
    issues.push(...windowIssues(s, si, content, limits));
  });
  // Equal priorities sharing a day (named once per pair, at the first shared day).
  content.schedules.forEach((a, ai) => {
    content.schedules.forEach((b, bi) => {
      if (bi <= ai || a.priority !== b.priority) return;
      const month = STRATEGY_MONTHS.find((m) => a.months.includes(m) && b.months.includes(m));
      const day = ISO_WEEKDAYS.find((d) => a.weekdays.includes(d) && b.weekdays.includes(d));
      if (month !== undefined && day !== undefined) issues.push({ text: STRATEGY_TEXTS.samePriority, args: [a.name, b.name, month, ISO_WEEKDAY_LABELS[day]!], path: ['schedules', bi, 'priority'] });
    });
  });
  for (const m of STRATEGY_MONTHS) {
    const missing = ISO_WEEKDAYS.filter((d) => !content.schedules.some((s) => s.months.includes(m) && s.weekdays.includes(d)));
    if (missing.length > 0) issues.push({ text: STRATEGY_TEXTS.uncovered, args: [m, missing.map((d) => ISO_WEEKDAY_LABELS[d]).join('、')], path: ['schedules'] });
  }
  return issues;
}

// ── Running a strategy (the EMS, the simulator and the console's preview share this) ─

/**
 * The EMS's import line (kW): the grid import it keeps the storage under — the transformer
 * protection power, and the demand target less its margin, whichever is lower; Infinity without
 * either. One rule for the EMS (simulator) and the strategy simulation.
 */
export function emsImportLine(transformerKw: number | null, demandTargetKw: number | null, demandMarginKw = 0): number {
  const demand = demandTargetKw !== null && demandTargetKw > 0 ? Math.max(0, demandTargetKw - demandMarginKw) : Infinity;
  return Math.min(transformerKw ?? Infinity, demand);
}

/**
 * A storage set-point (AC kW, + discharge) held to the import line: import = net load − set-point
 * may not exceed the line, so charging is reduced (down to none) and, when the net load alone is
 * above the line, discharge is added. The PCS, SOC and anti-backflow limits apply after it.
 * E.g. net load 180 kW, line 240 kW, the schedule charging 200 kW (−200) → −60: import 240.
 */
export function capToImportLine(setpointKw: number, netLoadKw: number, lineKw: number): number {
  return Number.isFinite(lineKw) ? Math.max(setpointKw, netLoadKw - lineKw) : setpointKw;
}

/** The schedule that applies to a station-local day: the smallest priority number among those listing its month and weekday. */
export function scheduleFor<S extends Pick<StrategySchedule, 'priority' | 'months' | 'weekdays'>>(schedules: readonly S[], month: number, weekday: number): S | null {
  let best: S | null = null;
  for (const s of schedules) if (s.months.includes(month) && s.weekdays.includes(weekday) && (best === null || s.priority < best.priority)) best = s;
  return best;
}

/** The window in force at a station-local minute of the day (0–1439), or null. */
export function windowAt<W extends Pick<StrategyWindow, 'start' | 'end'>>(windows: readonly W[], minute: number): W | null {
  return windows.find((w) => minutesOf(w.start) <= minute && minute < minutesOf(w.end)) ?? null;
}

/**
 * The strategy as the EMS receives it (MQTT command `applyStrategy` `{ strategy, hash }`, QoS 1;
 * docs/mqtt.md): its content, the station's zone (the windows are local times) and the PCS
 * rating the set-points are bounded by.
 */
export const emsStrategy = z.object({
  timeZone: z.string(),
  schedules: z.array(strategySchedule),
  socMin: z.number(),
  socMax: z.number(),
  transformerProtectionKw: z.number().nullable(),
  antiBackflow: z.boolean(),
  /**
   * The station's demand target in force (the demand setting of the current station-local month,
   * else its standing one; docs/decisions/0040-demand-target.md), null without one. Not the
   * strategy's own field: the demand setting is the only source of a station's target.
   */
  demandTargetKw: z.number().nullable(),
  /** The target's margin (kW): the EMS keeps the import at or under target − margin. Absent without a target. */
  demandMarginKw: z.number().min(0).optional(),
  pcsRatedKw: z.number().nullable(),
});
export type EmsStrategy = z.output<typeof emsStrategy>;
export const applyStrategyParams = z.object({ strategy: emsStrategy, hash: z.string().regex(/^[0-9a-f]{16}$/) });
export type ApplyStrategyParams = z.output<typeof applyStrategyParams>;
/** The EMS's reply result: the hash of what it applied (computed by itself with `strategyHash`). */
export const applyStrategyResult = z.object({ hash: z.string() });
export const APPLY_STRATEGY_COMMAND = 'applyStrategy';

/**
 * Demand guard (issue 19, the demand part): MQTT command `demandGuard` `{ dischargeKw, until }`
 * (until: epoch ms); the EMS discharges at least that much until then, within its SOC and PCS
 * limits, and replies `{ dischargeKw }` — what it actually grants.
 */
// Declared here too (same shapes as demand.ts's): telemetry.ts's command schema needs them, and
// importing demand.ts from here would close an import cycle (demand → statement → meter-reading → telemetry).
export const DEMAND_GUARD_COMMAND = 'demandGuard';
export const demandGuardParams = z.object({ dischargeKw: z.number().min(0).max(MAX_STRATEGY_POWER), until: z.number().int().positive() });
export const demandGuardResult = z.object({ dischargeKw: z.number() });

/** EMS telemetry property: the hash of the strategy it runs ("" = its built-in time-of-use behaviour). */
export const STRATEGY_HASH_PROPERTY = 'strategyHash';

/** Canonical JSON: object keys sorted, so that equal content hashes equally on every side. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** FNV-1a, 32 bits, from a seed. */
function fnv(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The strategy's hash (16 hex digits): two FNV-1a passes over its canonical JSON. Not a security
 * measure — an identity of content, computed alike by the server, the EMS and the console.
 */
export function strategyHash(strategy: EmsStrategy): string {
  const text = canonical(emsStrategy.parse(strategy));
  return fnv(text, 0x811c9dc5).toString(16).padStart(8, '0') + fnv(text, 0x9747b28c).toString(16).padStart(8, '0');
}

// ── Synchronisation ───────────────────────────────────────────────────────────────────

/**
 * unsynced: saved but never sent, or edited since the last synchronisation;
 * pending: sent, the EMS has not confirmed it yet (offline, no reply) — re-sent when it comes online;
 * applied: the EMS confirmed the hash and (once it reports) runs it;
 * drifted: the EMS reports running something else than the last synchronised strategy (an alarm is raised).
 */
export const STRATEGY_SYNC_STATES = ['unsynced', 'pending', 'applied', 'drifted'] as const;
export type StrategySyncState = (typeof STRATEGY_SYNC_STATES)[number];
export const STRATEGY_SYNC_LABELS: Record<StrategySyncState, string> = { unsynced: '未同步', pending: '同步中', applied: '已生效', drifted: '已偏离' };

export const strategySync = z.object({
  strategyId: z.number(),
  state: z.enum(STRATEGY_SYNC_STATES),
  /** Hash of the strategy as saved now. */
  hash: z.string(),
  /** Hash last sent to the EMS (null: never). */
  syncedHash: z.string().nullable(),
  /** Hash the EMS answered it applied (null: no answer yet). */
  appliedHash: z.string().nullable(),
  /** Hash the EMS last reported running ("" = its built-in behaviour; null: no report yet). */
  reportedHash: z.string().nullable(),
  /** The EMS device (`{siteCode}-EMS-01`) and whether it is online; null when the station has none. */
  deviceCode: z.string().nullable(),
  deviceOnline: z.boolean(),
  /** Last send, last confirmation, last report. */
  sentAt: isoTime.nullable(),
  appliedAt: isoTime.nullable(),
  reportedAt: isoTime.nullable(),
  /** How many times the current hash was sent. */
  attempts: z.number(),
  /** The last send's failure (offline, timeout, refused), null after a success. */
  lastError: z.string().nullable(),
});
export type StrategySync = z.infer<typeof strategySync>;

export const strategyRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  schedules: z.array(strategySchedule),
  socMin: z.number(),
  socMax: z.number(),
  transformerProtectionKw: z.number().nullable(),
  antiBackflow: z.boolean(),
  demandTargetKw: z.number().nullable(),
  /** Who saved it last. */
  updatedByName: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
  sync: strategySync,
});
export type StrategyRecord = z.infer<typeof strategyRecord>;

/** query/unique: the station, its limits (for the rules and the defaults) and its strategy (null before the first add). */
export const strategyView = z.object({
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  timeZone: z.string(),
  limits: strategyLimits,
  strategy: strategyRecord.nullable(),
});
export type StrategyView = z.infer<typeof strategyView>;

export const STRATEGY_EXISTS = '该站点已有运行策略';
export const NO_EMS = '该站点没有EMS设备，不能同步策略';

// ── Events ────────────────────────────────────────────────────────────────────────────

export const STRATEGY_EVENTS = { synchronised: 'strategy.synchronised', drifted: 'strategy.drifted' } as const;
/** Alarm code raised when the EMS runs something else than the last synchronised strategy. */
export const STRATEGY_DRIFT_ALARM = 'EMS_STRATEGY_DRIFT';

// ── Simulation (extension: docs/decisions/0039-strategy-sync.md, issue 19 item 8) ────────

/**
 * POST /configure/operation/strategy/simulate: the strategy (the saved one, or `strategy` as the
 * editor holds it, unsaved) run against a past station-local day's measured load, PV and prices,
 * beside what the storage actually did that day. Nothing is written.
 */
export const strategySimulate = z.object({
  siteId: ref,
  date: z.iso.date('日期格式不正确，应为YYYY-MM-DD'),
  strategy: z.object(strategyFields).optional(),
});
export type StrategySimulate = z.input<typeof strategySimulate>;

export const simulationSummary = z.object({
  /** Storage revenue at the day's buy prices: discharge × price − charge × price, to the cent (decimal text). */
  revenue: z.string(),
  chargeKwh: z.number(),
  dischargeKwh: z.number(),
  /** Equivalent full cycles: discharged energy / usable capacity. */
  cycles: z.number(),
  /** Highest grid import (kW, step average). */
  peakDemandKw: z.number(),
  /** Steps importing above the transformer protection power, in minutes, and the worst import. */
  transformerMinutes: z.number(),
  transformerWorstKw: z.number().nullable(),
  /** Steps exporting to the grid while anti-backflow is on, in minutes, and the energy exported. */
  backflowMinutes: z.number(),
  backflowKwh: z.number(),
});
export type SimulationSummary = z.infer<typeof simulationSummary>;

export const simulationStep = z.object({
  /** Station-local HH:MM of the step's start. */
  time: z.string(),
  /** Site load incl. charging piles, and PV, kW (measured). */
  loadKw: z.number(),
  pvKw: z.number(),
  /** Buy price per kWh in force, null without a price. */
  price: z.number().nullable(),
  /** Expected storage power (+ discharge), grid import (+) and SOC at the step's end. */
  batteryKw: z.number(),
  gridKw: z.number(),
  soc: z.number(),
  /** What was measured (null where the day has no value). */
  actualBatteryKw: z.number().nullable(),
  actualGridKw: z.number().nullable(),
  actualSoc: z.number().nullable(),
});
export type SimulationStep = z.infer<typeof simulationStep>;

export const strategySimulation = z.object({
  siteId: z.number(),
  date: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  stepMinutes: z.number(),
  /** Usable capacity the simulation used (installed capacity × (socMax − socMin)). */
  capacityKwh: z.number(),
  steps: z.array(simulationStep),
  expected: simulationSummary,
  actual: simulationSummary,
});
export type StrategySimulation = z.infer<typeof strategySimulation>;

export const NO_CAPACITY = '站点未设置装机容量，不能模拟';
export const NO_DAY_DATA = '该日没有EMS的负荷数据，不能模拟';
export const NO_STRATEGY = '该站点没有运行策略';

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const strategyEndpoints = {
  unique: endpoint({ method: 'POST', path: '/configure/operation/strategy/query/unique', body: strategyUnique, response: strategyView }),
  add: endpoint({ method: 'POST', path: '/configure/operation/strategy/add', body: strategyAdd, response: created }),
  edit: endpoint({ method: 'POST', path: '/configure/operation/strategy/edit', body: strategyEdit, response: done }),
  /** Sends the saved strategy to the EMS and waits a few seconds for its answer; the state after it. Idempotent. */
  synchronization: endpoint({ method: 'GET', path: '/configure/operation/strategy/synchronization', query: idQuery, response: strategySync }),
  /** Extension (not in the catalogue): simulate a day before synchronising (decision 0039). */
  simulate: endpoint({ method: 'POST', path: '/configure/operation/strategy/simulate', body: strategySimulate, response: strategySimulation }),
};

/**
 * What a strategy asks of the storage at a local time (AC kW, + discharge): the applying
 * schedule's window; a charge window stops at its target SOC, a discharge window at its target.
 * 0 when no schedule or window applies. `weekday` is JavaScript's (0 = Sunday).
 */
export function strategySetpoint(
  schedules: readonly Pick<StrategySchedule, 'priority' | 'months' | 'weekdays' | 'windows'>[],
  local: { month: number; weekday: number; minuteOfDay: number },
  soc: number,
): { kw: number; mode: StrategyMode } {
  const schedule = scheduleFor(schedules, local.month, local.weekday === 0 ? 7 : local.weekday);
  const w = schedule ? windowAt(schedule.windows, Math.floor(local.minuteOfDay)) : null;
  if (!w || w.mode === 'idle') return { kw: 0, mode: 'idle' };
  if (w.mode === 'charge') return { kw: w.targetSoc !== null && soc >= w.targetSoc ? 0 : -w.powerKw, mode: 'charge' };
  return { kw: w.targetSoc !== null && soc <= w.targetSoc ? 0 : w.powerKw, mode: 'discharge' };
}
