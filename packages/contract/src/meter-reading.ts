import { z } from 'zod';
import { id, idBody, pageRequest, sortRequest } from './common.ts';
import { PRICE_PERIODS } from './constants.ts';
import { endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { meterPurposeSchema, meterRegisterIdentifier } from './telemetry.ts';

/**
 * Meter readings (api-catalogue "Meters" except /meter/electric/data; issue 18 "Readings";
 * DOMAIN.md §3): the daily zero readings (every meter's cumulative registers at 00:00
 * station-local time), timing readings (registers at configured times, month end 24:00 at
 * least), and the period readings of the three subsystems (storage /operation/energy/meter, PV
 * /operation/pv/meter, charging piles /operation/charging/pile/meter) with re-meter as a
 * background job. Server module modules/meter (beside the electric data), web screens
 * /meter/time, /meter/reading, /operation/meter, /operation/solar, /operation/pile.
 *
 * Registers: forward and reverse active energy, in total and per time-of-use register (tip, peak,
 * flat, valley, deep valley), keyed by their thing-model identifiers (forwardActiveEnergy,
 * forwardActiveEnergyTip, …, reverseActiveEnergyDeepValley). Values are kWh rounded to 0.001
 * (Wh): every value is exactly its decimal text `x.toFixed(3)`, which is what settlement
 * multiplies with decimal arithmetic.
 *
 * Register rules (issue 18 item 4; the normalisation): the energy of a period is the sum of its
 * days' normalised increments, so periods are additive (a month = Σ its days = first half + second
 * half). A day's increment counts only when the cumulative value rises (a drop bills 0, never
 * negative); an increment beyond the meter's physical limit (rated power × interval × margin) is
 * clamped to the limit and flagged spike_clamped; a meter replacement (the device-change flow,
 * /configure/device/change) splits the day: old end − old start + new end − new start, flagged
 * meter_replaced. A reading read at the instant itself is measured; from the nearest report
 * within the tolerance, estimated; none, missing (its values null, and a difference that needs it
 * is 0 with the flag missing).
 */

// ── Registers and quality ─────────────────────────────────────────────────────────────

export const READING_DIRECTIONS = ['forward', 'reverse'] as const;
export type ReadingDirection = (typeof READING_DIRECTIONS)[number];

/** The twelve registers, in this order everywhere (stored arrays, sheets, tables). */
export const READING_REGISTERS = READING_DIRECTIONS.flatMap((dir) => [
  meterRegisterIdentifier(dir),
  ...PRICE_PERIODS.map((p) => meterRegisterIdentifier(dir, p)),
]) as readonly string[] as readonly [string, ...string[]];
export type ReadingRegister = string;

/** A register's direction and price period (null: the total). */
export function registerParts(register: string): { direction: ReadingDirection; period: (typeof PRICE_PERIODS)[number] | null } {
  const m = /^(forward|reverse)ActiveEnergy(.*)$/.exec(register);
  const direction = (m?.[1] ?? 'forward') as ReadingDirection;
  const rest = m?.[2] ?? '';
  const period = rest ? (PRICE_PERIODS.find((p) => p.toLowerCase() === rest.toLowerCase()) ?? null) : null;
  return { direction, period };
}

export const READING_DIRECTION_LABELS: Record<ReadingDirection, string> = { forward: '正向有功电能', reverse: '反向有功电能' };
export const READING_PERIOD_LABELS: Record<(typeof PRICE_PERIODS)[number] | 'total', string> = {
  total: '总', tip: '尖', peak: '峰', flat: '平', valley: '谷', deepValley: '深谷',
};
/** 正向有功电能（峰） and the like. */
export function registerLabel(register: string): string {
  const { direction, period } = registerParts(register);
  return `${READING_DIRECTION_LABELS[direction]}（${READING_PERIOD_LABELS[period ?? 'total']}）`;
}

/**
 * Quality of a reading or a difference, from best to worst: measured (read at the instant),
 * estimated (the nearest report within the tolerance), spike_clamped (an increment beyond the
 * meter's physical limit, clamped), meter_replaced (the period spans a meter replacement, split
 * old + new), missing (no report within the tolerance).
 */
export const QUALITY_FLAGS = ['measured', 'estimated', 'spike_clamped', 'meter_replaced', 'missing'] as const;
export type QualityFlag = (typeof QUALITY_FLAGS)[number];
export const qualityFlagSchema = z.enum(QUALITY_FLAGS, '质量标识不正确');
export const QUALITY_FLAG_LABELS: Record<QualityFlag, string> = {
  measured: '实测',
  estimated: '估算',
  spike_clamped: '跳变已削峰',
  meter_replaced: '换表',
  missing: '缺失',
};
/** The worst of several flags (the order of QUALITY_FLAGS); measured when none. */
export function worstQuality(flags: Iterable<QualityFlag>): QualityFlag {
  let worst = 0;
  for (const f of flags) worst = Math.max(worst, QUALITY_FLAGS.indexOf(f));
  return QUALITY_FLAGS[worst]!;
}

/** How far from the instant a report may be to stand for it (estimated), each side: 30 minutes. */
export const READING_TOLERANCE_MS = 30 * 60_000;
/** Margin over rated power × interval before an increment is a spike: 1.2. */
export const SPIKE_MARGIN = 1.2;

/** Register values by identifier (kWh, 0.001), null where not read. */
export const registerValues = z.record(z.string(), z.number().nullable());
export type RegisterValues = z.infer<typeof registerValues>;

/** The subsystems that read periods, and the meter purpose of their meters. */
export const READING_SUBSYSTEMS = ['storage', 'pv', 'pile'] as const;
export type ReadingSubsystem = (typeof READING_SUBSYSTEMS)[number];
export const READING_SUBSYSTEM_LABELS: Record<ReadingSubsystem, string> = { storage: '储能', pv: '光伏', pile: '充电桩' };

// ── Shared request pieces ─────────────────────────────────────────────────────────────

const localDate = z.iso.date('日期格式不正确，应为YYYY-MM-DD');
export const PERIOD_ORDER = '结束日期不能早于开始日期';
/** Longest range of a page or export: 366 days. */
export const READING_MAX_DAYS = 366;
export const READING_RANGE_TOO_LONG = `日期范围过长：最多${READING_MAX_DAYS}天`;
const dayCount = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;

/** Filters of every reading list: station, meter, station-local dates (inclusive), quality. */
const readingFilterShape = {
  siteId: id.optional(),
  /** The meter (a device of type meter). */
  deviceId: id.optional(),
  meterPurpose: meterPurposeSchema.optional(),
  /** Station-local dates, inclusive: readings dated within (zero, timing) or periods overlapping (subsystems). */
  startDate: localDate.optional(),
  endDate: localDate.optional(),
  quality: qualityFlagSchema.optional(),
};
type RangeFields = { startDate?: string | undefined; endDate?: string | undefined };
const rangeOrder = <T extends RangeFields>(v: T) => !v.startDate || !v.endDate || v.startDate <= v.endDate;
const rangeLength = <T extends RangeFields>(v: T) => !v.startDate || !v.endDate || dayCount(v.startDate, v.endDate) < READING_MAX_DAYS;
const withRange = <S extends z.ZodObject>(s: S) =>
  s
    .refine(rangeOrder, { message: PERIOD_ORDER, path: ['endDate'] })
    .refine(rangeLength, { message: READING_RANGE_TOO_LONG, path: ['endDate'] });

// ── Zero readings ─────────────────────────────────────────────────────────────────────

export const zeroReadingFilter = z.object(readingFilterShape);
export const zeroReadingSort = sortRequest(['readingDate', 'siteName', 'deviceName', 'deviceCode', 'quality']);
export const zeroReadingPage = withRange(pageRequest.extend(readingFilterShape).extend(zeroReadingSort.shape));
export const zeroReadingExport = withRange(zeroReadingFilter.extend(zeroReadingSort.shape));
export type ZeroReadingPage = z.infer<typeof zeroReadingPage>;
export type ZeroReadingExport = z.infer<typeof zeroReadingExport>;

/** One meter's registers at 00:00 station-local time of one day. */
export const zeroReadingRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  timeZone: z.string(),
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  meterPurpose: meterPurposeSchema.nullable(),
  /** The station-local date whose 00:00 was read. */
  readingDate: z.string(),
  /** That instant (UTC ISO). */
  readAt: isoTime,
  /** Measurement time of the report the values come from, null when missing. */
  sourceTime: isoTime.nullable(),
  quality: qualityFlagSchema,
  registers: registerValues,
  /** When the job (or a re-read) wrote it. */
  createdAt: isoTime,
});
export type ZeroReadingRecord = z.infer<typeof zeroReadingRecord>;

// ── Timing readings ───────────────────────────────────────────────────────────────────

/**
 * When a timing configuration reads: monthEnd (the last day of each month at `time`, 24:00 = the
 * next month's 00:00), monthDay (day `day` of each month at `time`), daily (every day at `time`).
 */
export const TIMING_KINDS = ['monthEnd', 'monthDay', 'daily'] as const;
export type TimingKind = (typeof TIMING_KINDS)[number];
export const TIMING_KIND_LABELS: Record<TimingKind, string> = { monthEnd: '每月月末', monthDay: '每月指定日', daily: '每天' };

export const timingReadingFilter = z.object({ ...readingFilterShape, configId: id.optional() });
export const timingReadingSort = sortRequest(['readAt', 'siteName', 'deviceName', 'deviceCode', 'configName', 'quality']);
export const timingReadingPage = withRange(pageRequest.extend(timingReadingFilter.shape).extend(timingReadingSort.shape));
export const timingReadingExport = withRange(timingReadingFilter.extend(timingReadingSort.shape));
export type TimingReadingPage = z.infer<typeof timingReadingPage>;
export type TimingReadingExport = z.infer<typeof timingReadingExport>;

export const timingReadingRecord = z.object({
  id: z.number(),
  configId: z.number(),
  configName: z.string(),
  kind: z.enum(TIMING_KINDS),
  siteId: z.number(),
  siteName: z.string(),
  timeZone: z.string(),
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  meterPurpose: meterPurposeSchema.nullable(),
  /** The instant read (UTC ISO). */
  readAt: isoTime,
  /** The same instant in the station's time: YYYY-MM-DD HH:mm, 24:00 written as such (month end). */
  localTime: z.string(),
  sourceTime: isoTime.nullable(),
  quality: qualityFlagSchema,
  registers: registerValues,
  createdAt: isoTime,
});
export type TimingReadingRecord = z.infer<typeof timingReadingRecord>;

// ── Subsystem period readings ─────────────────────────────────────────────────────────

export const periodReadingFilter = z.object({
  siteId: id.optional(),
  deviceId: id.optional(),
  startDate: localDate.optional(),
  endDate: localDate.optional(),
  quality: qualityFlagSchema.optional(),
});
export const periodReadingSort = sortRequest(['periodStart', 'siteName', 'deviceName', 'deviceCode', 'quality', 'readAt']);
export const periodReadingPage = withRange(pageRequest.extend(periodReadingFilter.shape).extend(periodReadingSort.shape));
export const periodReadingExport = withRange(periodReadingFilter.extend(periodReadingSort.shape));
export type PeriodReadingPage = z.infer<typeof periodReadingPage>;
export type PeriodReadingExport = z.infer<typeof periodReadingExport>;

/** Re-meter: read one meter's period again from the stored telemetry (station-local dates, inclusive). */
export const reMeterBody = z
  .object({ deviceId: id, periodStart: localDate, periodEnd: localDate })
  .refine((v) => v.periodStart <= v.periodEnd, { message: PERIOD_ORDER, path: ['periodEnd'] })
  .refine((v) => dayCount(v.periodStart, v.periodEnd) < READING_MAX_DAYS, { message: READING_RANGE_TOO_LONG, path: ['periodEnd'] });
export type ReMeterBody = z.infer<typeof reMeterBody>;

/** The answer a re-meter request gets at once (product-spec §8). */
export const REMETER_ACCEPTED = '任务正在处理中，请稍后查看';
/** A second request for the same meter and period while one runs (product-spec §8; TASK_BUSY). */
export const REMETER_OCCUPIED = '任务被占用，请稍后重试';
/** The console's hint beside the button (product-spec §8). */
export const REMETER_HINT = '抄表较慢，请5-10分钟后查看结果，请勿重复点击';

export const REMETER_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ReMeterState = (typeof REMETER_STATES)[number];
export const REMETER_STATE_LABELS: Record<ReMeterState, string> = { queued: '排队中', running: '抄表中', done: '已完成', failed: '失败' };

/** A re-meter task: state and progress (0–100), and when done whether the figures changed. */
export const reMeterTask = z.object({
  id: z.number(),
  deviceId: z.number(),
  subsystem: z.enum(READING_SUBSYSTEMS),
  periodStart: z.string(),
  periodEnd: z.string(),
  state: z.enum(REMETER_STATES),
  progress: z.number(),
  /** The message to show: REMETER_ACCEPTED while queued or running. */
  message: z.string(),
  startedAt: isoTime.nullable(),
  endedAt: isoTime.nullable(),
  /** Done: whether any register difference or flag differs from the reading before. */
  changed: z.boolean().nullable(),
  error: z.string().nullable(),
  createdAt: isoTime,
});
export type ReMeterTask = z.infer<typeof reMeterTask>;

/** The old or new meter's part of a period that spans a replacement. */
export const meterSegment = z.object({
  /** The device-change record (null: the period's own single segment). */
  changeId: z.number().nullable(),
  /** The hardware's code in this segment. */
  code: z.string(),
  startAt: isoTime,
  endAt: isoTime,
  start: registerValues,
  end: registerValues,
  difference: registerValues,
});
export type MeterSegment = z.infer<typeof meterSegment>;

/** A period reading in a list: one meter, one period (by default a station-local month). */
export const periodReadingRecord = z.object({
  id: z.number(),
  subsystem: z.enum(READING_SUBSYSTEMS),
  siteId: z.number(),
  siteName: z.string(),
  timeZone: z.string(),
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  /** Station-local dates, inclusive. */
  periodStart: z.string(),
  periodEnd: z.string(),
  /** The instants read: periodStart 00:00 and the day after periodEnd 00:00. */
  startAt: isoTime,
  endAt: isoTime,
  start: registerValues,
  end: registerValues,
  /** Normalised energy of the period per register (kWh): Σ of its days' normalised increments. */
  difference: registerValues,
  /** The worst flag of the period. */
  quality: qualityFlagSchema,
  /** Every flag met, per register. */
  flags: z.record(z.string(), z.array(qualityFlagSchema)),
  /** When it was read (the job, or the last re-meter). */
  readAt: isoTime,
  /** The latest re-meter task of this meter and period, if any. */
  task: reMeterTask.nullable(),
});
export type PeriodReadingRecord = z.infer<typeof periodReadingRecord>;

/** One register in the period detail: readings, difference, its flags, and the price and amount. */
export const periodRegisterLine = z.object({
  register: z.string(),
  direction: z.enum(READING_DIRECTIONS),
  /** null: the total register. */
  period: z.enum(PRICE_PERIODS).nullable(),
  start: z.number().nullable(),
  end: z.number().nullable(),
  difference: z.number(),
  flags: z.array(qualityFlagSchema),
  /**
   * The price per kWh in force for this register (decimal text), null for the total register or
   * when the station has no price; when it changed within the period, the energy-weighted
   * average and `priceChanged` true (the statement shows the split).
   */
  price: z.string().nullable(),
  priceChanged: z.boolean(),
  /** difference × price, to the cent (decimal text), null without a price. */
  amount: z.string().nullable(),
});
export type PeriodRegisterLine = z.infer<typeof periodRegisterLine>;

/** The period detail: the record, every register side by side, the replacement segments, the daily rows. */
export const periodReadingDetail = periodReadingRecord.extend({
  currency: z.string().nullable(),
  lines: z.array(periodRegisterLine),
  /** Total amount, to the cent (decimal text), null without prices. */
  amount: z.string().nullable(),
  /** One per meter hardware: one segment, or two and more when the meter was replaced. */
  segments: z.array(meterSegment),
  /** The zero readings the period is built from, with their quality. */
  days: z.array(z.object({ date: z.string(), quality: qualityFlagSchema, difference: registerValues })),
});
export type PeriodReadingDetail = z.infer<typeof periodReadingDetail>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

const subsystemEndpoints = <const P extends string>(base: P) => ({
  page: endpoint({ method: 'POST', path: `${base}/query/page`, body: periodReadingPage, response: pageOf(periodReadingRecord) }),
  one: endpoint({ method: 'POST', path: `${base}/query/one`, body: idBody, response: periodReadingDetail }),
  export: endpoint({ method: 'POST', path: `${base}/export`, body: periodReadingExport, response: FILE }),
  reMeter: endpoint({ method: 'POST', path: `${base}/reMeter`, body: reMeterBody, response: reMeterTask }),
});
const storage = subsystemEndpoints('/operation/energy/meter');
const pv = subsystemEndpoints('/operation/pv/meter');
const pile = subsystemEndpoints('/operation/charging/pile/meter');

/** The paths of the subsystems' calls. */
export const SUBSYSTEM_BASE: Record<ReadingSubsystem, string> = {
  storage: '/operation/energy/meter',
  pv: '/operation/pv/meter',
  pile: '/operation/charging/pile/meter',
};

export const meterReadingEndpoints = {
  zeroPage: endpoint({ method: 'POST', path: '/meter/zero/data/query/page', body: zeroReadingPage, response: pageOf(zeroReadingRecord) }),
  zeroExport: endpoint({ method: 'POST', path: '/meter/zero/data/export', body: zeroReadingExport, response: FILE }),
  timingPage: endpoint({ method: 'POST', path: '/meter/timing/reading/query/page', body: timingReadingPage, response: pageOf(timingReadingRecord) }),
  timingExport: endpoint({ method: 'POST', path: '/meter/timing/reading/export', body: timingReadingExport, response: FILE }),
  storagePage: storage.page,
  storageOne: storage.one,
  storageExport: storage.export,
  storageReMeter: storage.reMeter,
  pvPage: pv.page,
  pvOne: pv.one,
  pvExport: pv.export,
  pvReMeter: pv.reMeter,
  pilePage: pile.page,
  pileOne: pile.one,
  pileExport: pile.export,
  pileReMeter: pile.reMeter,
};

/** The subsystem endpoints by subsystem (the console's three screens share one page). */
export const SUBSYSTEM_ENDPOINTS = { storage, pv, pile } as const;
