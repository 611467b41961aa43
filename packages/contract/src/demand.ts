import { z } from 'zod';
import { id, pageRequest, sortRequest } from './common.ts';
import { created, done, endpoint, isoTime, pageOf } from './endpoint.ts';
import { decimalText } from './statement.ts';

/**
 * Demand management (api-catalogue "Demand"; DOMAIN.md §4; issue 19): the average import power
 * at a station's main (gateway) meter over fixed 15-minute windows aligned to the quarter hour in
 * the station's time zone (energy in the window × 4: 2 kWh in 15 min = 8 kW), the month's
 * maximum and its time, the demand charge (maximum × the demand price per kW per month of the
 * station's two-part tariff), what storage shaved off (measured vs the counterfactual without
 * storage = import + storage discharge − storage charge per window), the reconciliation of the
 * console's maximum with the meter's own max-demand register and the utility bill's figure, and
 * a target demand per station and month with a pre-alarm margin that the live guard watches.
 * One domain: server module modules/demand, web feature features/demand.
 *
 * Demand figures are kW rounded to 0.001 (numbers); money travels as decimal text ("1234.56")
 * computed with exact decimal arithmetic, as in statements. Times are UTC ISO instants; a window
 * is named by its start (`ts`), and `localTime` fields give the station-local wall time.
 * Decisions: docs/decisions/0037-demand.md (the extension call /demand/reconciliation/edit).
 */

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

/** JSON ids are numbers (no coercion of a missing one). */
const ref = z.number().int().positive().max(2 ** 31 - 1);
export const DEMAND_MONTH_FORMAT = '月份格式不正确，应为YYYY-MM';
export const DEMAND_DATE_FORMAT = '日期格式不正确，应为YYYY-MM-DD';
/** Years 1970–2999: a station's history, never the calendar's edges. */
const monthKey = z.string({ error: DEMAND_MONTH_FORMAT }).regex(/^(19[7-9]\d|2\d{3})-(0[1-9]|1[0-2])$/, DEMAND_MONTH_FORMAT);
const localDate = z.iso.date(DEMAND_DATE_FORMAT).refine((d) => d >= '1970-01-01' && d <= '2999-12-31', DEMAND_DATE_FORMAT);

/** Window length: 15 minutes, aligned to :00, :15, :30, :45 station-local time. */
export const DEMAND_WINDOW_MINUTES = 15;
export const DEMAND_WINDOW_MS = DEMAND_WINDOW_MINUTES * 60_000;
/** Decimal places of a demand (kW): 0.001. */
export const DEMAND_DECIMALS = 3;
/** Default alarm level of a pre-alarm (1 most severe … 5). */
export const DEMAND_DEFAULT_ALARM_LEVEL = 2;
/**
 * Reconciliation tolerance: a difference counts when |a − b| exceeds this share of the console's
 * figure (or DEMAND_TOLERANCE_MIN_KW, whichever is larger).
 */
export const DEMAND_TOLERANCE_PERCENT = 2;
export const DEMAND_TOLERANCE_MIN_KW = 0.5;

/** Where a demand's price came from: the two-part tariff's demand price (per kW per month) or its capacity price (per kVA per month). */
export const DEMAND_PRICE_KINDS = ['demand', 'capacity'] as const;
export type DemandPriceKind = (typeof DEMAND_PRICE_KINDS)[number];
export const DEMAND_PRICE_KIND_LABELS: Record<DemandPriceKind, string> = { demand: '需量电价', capacity: '容量电价' };

/**
 * A 15-minute window's quality: measured (both boundary readings of the cumulative import
 * register present, or the window fully covered by reports), estimated (a boundary interpolated
 * from the cumulative register between the nearest readings around it).
 */
export const DEMAND_QUALITIES = ['measured', 'estimated'] as const;
export type DemandQuality = (typeof DEMAND_QUALITIES)[number];
export const DEMAND_QUALITY_LABELS: Record<DemandQuality, string> = { measured: '实测', estimated: '估算' };

/** One point of a demand curve: the window starting at `ts`. */
export const demandPoint = z.object({
  /** Window start (UTC ISO). */
  ts: isoTime,
  /** Average import power over the window, kW (energy × 4). */
  demandKw: z.number(),
  estimated: z.boolean(),
});
export type DemandPoint = z.infer<typeof demandPoint>;

/** One point of the analysis curve: measured beside the counterfactual without storage. */
export const demandAnalysisPoint = demandPoint.extend({
  /** Import + storage discharge − storage charge over the window, × 4 (kW; not below 0). */
  counterfactualKw: z.number(),
  /** counterfactualKw − demandKw (positive: storage lowered the demand). */
  shavedKw: z.number(),
});
export type DemandAnalysisPoint = z.infer<typeof demandAnalysisPoint>;

/** The target in force for a station and month (a month's own setting, else the standing one). */
export const demandTarget = z.object({
  settingId: z.number(),
  /** The month the setting is for; null: a standing target (every month without its own). */
  month: monthKey.nullable(),
  targetKw: z.number(),
  marginKw: z.number(),
  /** targetKw − marginKw: where the pre-alarm starts. */
  preAlarmKw: z.number(),
  allowDischarge: z.boolean(),
  alarmLevel: z.number(),
});
export type DemandTarget = z.infer<typeof demandTarget>;

/** The station's demand price for a month (from the two-part tariff's price cycle in force). */
export const demandPrice = z.object({
  kind: z.enum(DEMAND_PRICE_KINDS),
  /** Per kW (or kVA) per month, decimal text. */
  price: decimalText,
  priceCycleId: z.number(),
  templateId: z.number(),
  templateName: z.string(),
});
export type DemandPrice = z.infer<typeof demandPrice>;

const stationFields = {
  siteId: z.number(),
  siteName: z.string(),
  /** The station's IANA zone: windows, days and months are counted in it. */
  timeZone: z.string(),
  currency: z.string(),
};

// ── Track (/demand/track) ─────────────────────────────────────────────────────────────

export const demandMonthBody = z.object({ siteId: ref, month: monthKey });
export const demandDayBody = z.object({ siteId: ref, date: localDate });
export type DemandMonthBody = z.input<typeof demandMonthBody>;
export type DemandDayBody = z.input<typeof demandDayBody>;

/** What a month's row and a day's row share: the maximum, its time, the target's headroom, the window counts. */
const demandPeriodFigures = z.object({
  /** null: no window computed in the period. */
  maxDemandKw: z.number().nullable(),
  maxDemandTime: isoTime.nullable(),
  /** Station-local YYYY-MM-DD HH:mm of the maximum window's start. */
  maxDemandLocalTime: z.string().nullable(),
  maxDemandEstimated: z.boolean(),
  targetKw: z.number().nullable(),
  /** targetKw − maxDemandKw (negative: the target was exceeded); null without a target or windows. */
  headroomKw: z.number().nullable(),
  exceeded: z.boolean(),
  /** Windows computed / of which estimated. */
  windows: z.number(),
  estimatedWindows: z.number(),
  /** Pre-alarms raised and guard commands sent in the period. */
  preAlarms: z.number(),
  guardRequests: z.number(),
});

/** A month row: the month's maximum, its time, the target, headroom and the demand charge. */
export const demandMonthRow = demandPeriodFigures.extend({
  month: monthKey,
  /** Per kW per month (decimal text), null when the tariff is single-part or the station has no price. */
  demandPrice: decimalText.nullable(),
  /** maxDemandKw × demandPrice to the cent (decimal text), null without price. */
  demandCharge: decimalText.nullable(),
});
export type DemandMonthRow = z.infer<typeof demandMonthRow>;

/** A day row: the day's maximum and its time against the target. */
export const demandDayRow = demandPeriodFigures.extend({ date: localDate });
export type DemandDayRow = z.infer<typeof demandDayRow>;

/** monthly/brief: the month's card. */
export const demandMonthBrief = z.object({
  ...stationFields,
  ...demandMonthRow.shape,
  target: demandTarget.nullable(),
  price: demandPrice.nullable(),
});
export type DemandMonthBrief = z.infer<typeof demandMonthBrief>;

/** monthly/info: the card, the month's day rows, the 15-minute curve, and the 12 months to it (trend). */
export const demandMonthInfo = demandMonthBrief.extend({
  days: z.array(demandDayRow),
  curve: z.array(demandPoint),
  /** The 12 months ending with the asked month, oldest first. */
  months: z.array(demandMonthRow),
});
export type DemandMonthInfo = z.infer<typeof demandMonthInfo>;

/** The state of the window in progress (today only): the live guard's projection. */
export const DEMAND_LIVE_STATES = ['normal', 'preAlarm', 'exceeding'] as const;
export type DemandLiveState = (typeof DEMAND_LIVE_STATES)[number];
export const DEMAND_LIVE_STATE_LABELS: Record<DemandLiveState, string> = { normal: '正常', preAlarm: '预警', exceeding: '超目标' };
export const demandLive = z.object({
  windowStart: isoTime,
  windowEnd: isoTime,
  /** Import energy so far in the window, kWh. */
  energyKwh: z.number(),
  /** The latest import power, kW. */
  currentKw: z.number(),
  /** (energy so far + current power × remaining time) × 4, kW. */
  projectedKw: z.number(),
  /** targetKw − marginKw, null without a target. */
  thresholdKw: z.number().nullable(),
  state: z.enum(DEMAND_LIVE_STATES),
  preAlarmed: z.boolean(),
  guardRequested: z.boolean(),
  updatedAt: isoTime,
});
export type DemandLive = z.infer<typeof demandLive>;

/** daily/brief: the day's card (with the live window when the day is today). */
export const demandDayBrief = z.object({
  ...stationFields,
  ...demandDayRow.shape,
  /** The month's maximum so far, for comparison. */
  monthMaxDemandKw: z.number().nullable(),
  monthMaxDemandTime: isoTime.nullable(),
  target: demandTarget.nullable(),
  live: demandLive.nullable(),
});
export type DemandDayBrief = z.infer<typeof demandDayBrief>;

/** What happened in one window (the guard's record). */
export const DEMAND_OUTCOMES = ['normal', 'preAlarmed', 'guarded', 'exceeded'] as const;
export type DemandOutcome = (typeof DEMAND_OUTCOMES)[number];
export const DEMAND_OUTCOME_LABELS: Record<DemandOutcome, string> = { normal: '正常', preAlarmed: '已预警', guarded: '已请求放电', exceeded: '超目标' };

/** A window of a day with its guard outcome. */
export const demandWindowRow = z.object({
  id: z.number(),
  ts: isoTime,
  /** Station-local HH:mm of the window's start. */
  localTime: z.string(),
  demandKw: z.number(),
  counterfactualKw: z.number().nullable(),
  estimated: z.boolean(),
  targetKw: z.number().nullable(),
  preAlarmed: z.boolean(),
  guardRequested: z.boolean(),
  /** The EMS's reply: kW granted (null: not asked, or no reply). */
  guardGrantedKw: z.number().nullable(),
  exceeded: z.boolean(),
  outcome: z.enum(DEMAND_OUTCOMES),
});
export type DemandWindowRow = z.infer<typeof demandWindowRow>;

/** daily/info: the card, the day's 96 (92/100 on a DST day) windows as a curve and as rows. */
export const demandDayInfo = demandDayBrief.extend({
  curve: z.array(demandPoint),
  windows: z.array(demandWindowRow),
});
export type DemandDayInfo = z.infer<typeof demandDayInfo>;

// ── Analysis (/demand/analysis) ───────────────────────────────────────────────────────

/** A month's shaving: measured maximum vs the counterfactual maximum and the saving in money. */
export const demandSavingRow = z.object({
  month: monthKey,
  measuredMaxKw: z.number().nullable(),
  measuredMaxTime: isoTime.nullable(),
  counterfactualMaxKw: z.number().nullable(),
  counterfactualMaxTime: isoTime.nullable(),
  /** counterfactualMaxKw − measuredMaxKw. */
  shavedKw: z.number().nullable(),
  demandPrice: decimalText.nullable(),
  measuredCharge: decimalText.nullable(),
  counterfactualCharge: decimalText.nullable(),
  /** counterfactualCharge − measuredCharge (decimal text, to the cent). */
  saving: decimalText.nullable(),
  /** Windows where storage lowered the demand (measures). */
  measures: z.number(),
});
export type DemandSavingRow = z.infer<typeof demandSavingRow>;

/** analysis/info: the month's saving, the day rows, the curve with the counterfactual, the 12 months. */
export const demandAnalysisInfo = z.object({
  ...stationFields,
  ...demandSavingRow.shape,
  /** Whether the station has a storage meter (no counterfactual otherwise: it equals the measured). */
  hasStorageMeter: z.boolean(),
  price: demandPrice.nullable(),
  days: z.array(
    z.object({
      date: localDate,
      measuredMaxKw: z.number().nullable(),
      counterfactualMaxKw: z.number().nullable(),
      shavedKw: z.number().nullable(),
      measures: z.number(),
    }),
  ),
  curve: z.array(demandAnalysisPoint),
  months: z.array(demandSavingRow),
});
export type DemandAnalysisInfo = z.infer<typeof demandAnalysisInfo>;

/** analysis/measure: the windows where storage acted (discharged or charged), by station and month. */
export const demandMeasureSort = sortRequest(['ts', 'shavedKw', 'demandKw', 'counterfactualKw']);
export const demandMeasurePage = pageRequest
  .extend({
    siteId: ref,
    month: monthKey,
    /** Only windows where storage lowered the demand (shavedKw > 0), else also where it raised it (charging). */
    shavedOnly: z.boolean().default(true),
    /** Only the windows the guard acted on (pre-alarm or discharge requested). */
    guardedOnly: z.boolean().default(false),
  })
  .extend(demandMeasureSort.shape);
export type DemandMeasurePage = z.input<typeof demandMeasurePage>;

export const demandMeasureRecord = z.object({
  /** The window's id. */
  id: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  ts: isoTime,
  windowEnd: isoTime,
  /** Station-local YYYY-MM-DD HH:mm. */
  localTime: z.string(),
  demandKw: z.number(),
  counterfactualKw: z.number(),
  shavedKw: z.number(),
  /** Storage energy in the window, kWh: discharged (meter reverse) and charged (forward). */
  dischargeKwh: z.number(),
  chargeKwh: z.number(),
  /** Whether this window set the month's measured maximum. */
  isMonthMax: z.boolean(),
  estimated: z.boolean(),
  targetKw: z.number().nullable(),
  preAlarmed: z.boolean(),
  guardRequested: z.boolean(),
  guardGrantedKw: z.number().nullable(),
  exceeded: z.boolean(),
  outcome: z.enum(DEMAND_OUTCOMES),
});
export type DemandMeasureRecord = z.infer<typeof demandMeasureRecord>;

/** The guard's command for the window, as sent and as answered. */
export const demandGuardRecord = z.object({
  /** The device command's id (the command log). */
  commandId: z.number().nullable(),
  deviceCode: z.string(),
  requestedAt: isoTime,
  dischargeKw: z.number(),
  until: isoTime,
  /** The EMS's reply (kW granted), null without a reply. */
  grantedKw: z.number().nullable(),
  status: z.string(),
});
export type DemandGuardRecord = z.infer<typeof demandGuardRecord>;

/** analysis/measure/query/one: the window in detail. */
export const demandMeasureDetail = demandMeasureRecord.extend({
  timeZone: z.string(),
  currency: z.string(),
  /** Main meter import energy in the window (kWh) and its boundary readings of the cumulative register. */
  importKwh: z.number(),
  startRegisterKwh: z.number().nullable(),
  endRegisterKwh: z.number().nullable(),
  /** The pre-alarm's projection when it was raised. */
  projectedKw: z.number().nullable(),
  preAlarmAt: isoTime.nullable(),
  /** The alarm raised for it (alarm module), null when none. */
  alarmId: z.number().nullable(),
  guard: demandGuardRecord.nullable(),
  target: demandTarget.nullable(),
  /** The reports inside the window: main meter import power and storage power (+ charging, − discharging), kW. */
  samples: z.array(z.object({ ts: isoTime, importKw: z.number().nullable(), storageKw: z.number().nullable() })),
  /** The windows around it (an hour before and after) for context. */
  around: z.array(demandAnalysisPoint),
});
export type DemandMeasureDetail = z.infer<typeof demandMeasureDetail>;

// ── Reconciliation (/demand/reconciliation) ───────────────────────────────────────────

/** How a month's three figures compare. */
export const DEMAND_RECONCILE_STATES = ['matched', 'mismatched', 'incomplete'] as const;
export type DemandReconcileState = (typeof DEMAND_RECONCILE_STATES)[number];
export const DEMAND_RECONCILE_STATE_LABELS: Record<DemandReconcileState, string> = { matched: '一致', mismatched: '不一致', incomplete: '待补录' };

const reconcileFilterShape = {
  siteId: id.optional(),
  monthFrom: monthKey.optional(),
  monthTo: monthKey.optional(),
  state: z.enum(DEMAND_RECONCILE_STATES).optional(),
};
export const demandReconcileFilter = z
  .object(reconcileFilterShape)
  .refine((v) => !v.monthFrom || !v.monthTo || v.monthFrom <= v.monthTo, { message: '结束月份不能早于开始月份', path: ['monthTo'] });
export const demandReconcileSort = sortRequest(['month', 'siteName', 'consoleMaxKw', 'billMaxKw']);
export const demandReconcilePage = pageRequest
  .extend(reconcileFilterShape)
  .extend(demandReconcileSort.shape)
  .refine((v) => !v.monthFrom || !v.monthTo || v.monthFrom <= v.monthTo, { message: '结束月份不能早于开始月份', path: ['monthTo'] });
export type DemandReconcileFilter = z.input<typeof demandReconcileFilter>;
export type DemandReconcilePage = z.input<typeof demandReconcilePage>;

/** query/header: counts over the filter (the table's header) and the tolerance in force. */
export const demandReconcileHeader = z.object({
  total: z.number(),
  matched: z.number(),
  mismatched: z.number(),
  incomplete: z.number(),
  tolerancePercent: z.number(),
  toleranceMinKw: z.number(),
  /**
   * Σ of the months' demand charges by the console's figures and by the bills' (where entered),
   * decimal text — only when every row of the filter is in one currency (`currency`); null when
   * they span several (money is never added across currencies: see `charges`).
   */
  consoleCharge: decimalText.nullable(),
  billCharge: decimalText.nullable(),
  /** The one currency of the rows (null: none, or several). */
  currency: z.string().nullable(),
  /** The same sums per currency (the stations' currencies), in order of currency code; one entry per currency among the rows. */
  charges: z.array(z.object({ currency: z.string(), consoleCharge: decimalText.nullable(), billCharge: decimalText.nullable() })),
});
export type DemandReconcileHeader = z.infer<typeof demandReconcileHeader>;

/** One station-month: the console's maximum, the meter's register, the bill's figure. */
export const demandReconcileRecord = z.object({
  siteId: z.number(),
  siteName: z.string(),
  timeZone: z.string(),
  /** The station's currency: its charges are in it. */
  currency: z.string(),
  month: monthKey,
  consoleMaxKw: z.number().nullable(),
  consoleMaxTime: isoTime.nullable(),
  /** The main meter's max-demand register (telemetry maxDemand / maxDemandTime), the largest reported in the month. */
  meterMaxKw: z.number().nullable(),
  meterMaxTime: isoTime.nullable(),
  /** The utility bill's figure, entered by a user (extension call /demand/reconciliation/edit). */
  billMaxKw: z.number().nullable(),
  billNote: z.string().nullable(),
  billEnteredBy: z.string().nullable(),
  billEnteredAt: isoTime.nullable(),
  /** meter − console, bill − console (kW), null when either is missing. */
  meterDiffKw: z.number().nullable(),
  billDiffKw: z.number().nullable(),
  meterFlagged: z.boolean(),
  billFlagged: z.boolean(),
  state: z.enum(DEMAND_RECONCILE_STATES),
  demandPrice: decimalText.nullable(),
  /** Charges by the console's figure and by the bill's (decimal text), null without price / figure. */
  consoleCharge: decimalText.nullable(),
  billCharge: decimalText.nullable(),
});
export type DemandReconcileRecord = z.infer<typeof demandReconcileRecord>;

/**
 * Extension (decision 0037): enter or correct the utility bill's maximum demand for a station and
 * month; null clears it. Not in the catalogue; granted with '/demand/reconciliation/**'.
 */
export const demandReconcileEdit = z.object({
  siteId: ref,
  month: monthKey,
  billMaxKw: z
    .number({ error: '账单需量须为数字' })
    .min(0, '账单需量不能为负数')
    .max(10_000_000, '账单需量过大')
    .nullable(),
  note: z
    .string()
    .trim()
    .max(200, '备注不能超过200个字符')
    .optional()
    .nullable()
    .transform((v) => (v ? v : null)),
});
export type DemandReconcileEdit = z.input<typeof demandReconcileEdit>;

// ── Setting (/demand/setting) ─────────────────────────────────────────────────────────

export const DEMAND_TARGET_POSITIVE = '目标需量须大于0';
export const DEMAND_MARGIN_RANGE = '预警裕量应在0到目标需量之间';
export const DEMAND_ALARM_LEVEL_RANGE = '告警等级应为1-5';

export const demandSettingPage = pageRequest.extend({
  siteId: id.optional(),
  /** The settings for this month (and the standing ones). */
  month: monthKey.optional(),
  /** Include replaced versions (history); default: only the current ones. */
  history: z.boolean().default(false),
});
export type DemandSettingPage = z.input<typeof demandSettingPage>;

/**
 * Add a target for a station and month (month absent or null: the standing target). Adding one
 * for a station and month that already has a target replaces it: the old row stays as history
 * (replacedAt set) and the new one has the next version.
 */
export const demandSettingAdd = z
  .object({
    siteId: ref,
    month: monthKey.nullable().optional().transform((v) => v ?? null),
    targetKw: z.number({ error: DEMAND_TARGET_POSITIVE }).positive(DEMAND_TARGET_POSITIVE).max(10_000_000, '目标需量过大'),
    marginKw: z.number({ error: DEMAND_MARGIN_RANGE }).min(0, DEMAND_MARGIN_RANGE),
    /** Whether the guard may ask the storage to discharge (demandGuard) besides the pre-alarm. */
    allowDischarge: z.boolean().default(false),
    alarmLevel: z
      .number({ error: DEMAND_ALARM_LEVEL_RANGE })
      .int(DEMAND_ALARM_LEVEL_RANGE)
      .min(1, DEMAND_ALARM_LEVEL_RANGE)
      .max(5, DEMAND_ALARM_LEVEL_RANGE)
      .default(DEMAND_DEFAULT_ALARM_LEVEL),
  })
  // Below the target: a margin equal to it would put the pre-alarm line at 0 kW (every window pre-alarmed).
  .refine((v) => v.marginKw < v.targetKw, { message: DEMAND_MARGIN_RANGE, path: ['marginKw'] });
export type DemandSettingAdd = z.input<typeof demandSettingAdd>;

export const demandSettingRecord = z.object({
  id: z.number(),
  siteId: z.number(),
  siteName: z.string(),
  companyId: z.number(),
  /** null: the standing target. */
  month: monthKey.nullable(),
  targetKw: z.number(),
  marginKw: z.number(),
  preAlarmKw: z.number(),
  allowDischarge: z.boolean(),
  alarmLevel: z.number(),
  /** 1 for the first setting of a station and month, +1 for each replacement. */
  version: z.number(),
  /** Whether this is the setting in force (not replaced). */
  current: z.boolean(),
  replacedAt: isoTime.nullable(),
  createdBy: z.string().nullable(),
  createdAt: isoTime,
});
export type DemandSettingRecord = z.infer<typeof demandSettingRecord>;

// ── MQTT command (docs/mqtt.md) ───────────────────────────────────────────────────────

/** The command the guard sends to the station's EMS ({siteCode}-EMS-01). */
export const DEMAND_GUARD_COMMAND = 'demandGuard';
export const demandGuardParams = z.object({ dischargeKw: z.number().positive(), until: z.number().int() });
export type DemandGuardParams = z.infer<typeof demandGuardParams>;
export const demandGuardResult = z.object({ dischargeKw: z.number() });
export type DemandGuardResult = z.infer<typeof demandGuardResult>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const demandEndpoints = {
  monthlyBrief: endpoint({ method: 'POST', path: '/demand/track/monthly/brief', body: demandMonthBody, response: demandMonthBrief }),
  monthlyInfo: endpoint({ method: 'POST', path: '/demand/track/monthly/info', body: demandMonthBody, response: demandMonthInfo }),
  dailyBrief: endpoint({ method: 'POST', path: '/demand/track/daily/brief', body: demandDayBody, response: demandDayBrief }),
  dailyInfo: endpoint({ method: 'POST', path: '/demand/track/daily/info', body: demandDayBody, response: demandDayInfo }),
  analysisInfo: endpoint({ method: 'POST', path: '/demand/analysis/info', body: demandMonthBody, response: demandAnalysisInfo }),
  measure: endpoint({ method: 'POST', path: '/demand/analysis/measure', body: demandMeasurePage, response: pageOf(demandMeasureRecord) }),
  measureOne: endpoint({ method: 'POST', path: '/demand/analysis/measure/query/one', body: z.object({ id: ref }), response: demandMeasureDetail }),
  reconcileHeader: endpoint({ method: 'POST', path: '/demand/reconciliation/query/header', body: demandReconcileFilter, response: demandReconcileHeader }),
  reconcilePage: endpoint({ method: 'POST', path: '/demand/reconciliation/query/page', body: demandReconcilePage, response: pageOf(demandReconcileRecord) }),
  /** Extension (decision 0037): the bill's figure. */
  reconcileEdit: endpoint({ method: 'POST', path: '/demand/reconciliation/edit', body: demandReconcileEdit, response: done }),
  settingPage: endpoint({ method: 'POST', path: '/demand/setting/query/page', body: demandSettingPage, response: pageOf(demandSettingRecord) }),
  settingAdd: endpoint({ method: 'POST', path: '/demand/setting/add', body: demandSettingAdd, response: created }),
};
