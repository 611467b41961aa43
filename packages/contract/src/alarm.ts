import { z } from 'zod';
import { cell, cellYesNo, fromLabel, id, idQuery, instant, pageRequest, sortRequest, trimmed } from './common.ts';
import { ALARM_LEVELS } from './constants.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { DEVICE_TYPE_LABELS, DEVICE_TYPES, deviceTypeSchema, identifierSchema } from './telemetry.ts';

/**
 * Alarms (api-catalogue "Alarms": dictionary, monitor, kanban). DOMAIN.md §5: a dictionary entry
 * maps a product or a device type and either a fault code or a threshold rule on a numeric
 * property to a level 1–5 (1 most severe), a description and a type. Alarms are opened and ended
 * on ingest (docs/decisions/0013-alarm-rules-on-ingest.md); a shield keeps one source (device +
 * dictionary entry) from raising new alarms for a validity period.
 */

export const ALARM_TYPES = ['deviceFault', 'overLimit', 'communication', 'safety'] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];
export const ALARM_TYPE_LABELS: Record<AlarmType, string> = {
  deviceFault: '设备故障',
  overLimit: '越限告警',
  communication: '通信告警',
  safety: '安全告警',
};

export type AlarmLevel = (typeof ALARM_LEVELS)[number];
const alarmLevel = z.union(ALARM_LEVELS.map((l) => z.literal(l)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>, z.ZodLiteral<4>, z.ZodLiteral<5>]);
export const ALARM_LEVEL_LABELS: Record<AlarmLevel, string> = {
  1: '一级告警',
  2: '二级告警',
  3: '三级告警',
  4: '四级告警',
  5: '五级告警',
};
/** Chart and tag colours per level, most severe first. */
export const ALARM_LEVEL_COLOURS: Record<AlarmLevel, string> = {
  1: '#a8071a',
  2: '#d4380d',
  3: '#a35c00',
  4: '#1d63c9',
  5: '#5c6b77',
};

/** product-spec §4: an alarm is in progress or ended. */
export const ALARM_STATUSES = ['active', 'ended'] as const;
export type AlarmStatus = (typeof ALARM_STATUSES)[number];
export const ALARM_STATUS_LABELS: Record<AlarmStatus, string> = { active: '进行中', ended: '已结束' };

/** What a dictionary entry watches: a fault code of the device's events, or a threshold on a property. */
export const ALARM_RULE_KINDS = ['event', 'threshold'] as const;
export type AlarmRuleKind = (typeof ALARM_RULE_KINDS)[number];
export const ALARM_RULE_KIND_LABELS: Record<AlarmRuleKind, string> = { event: '故障码', threshold: '阈值' };

export const ALARM_OPERATORS = ['>', '>=', '<', '<='] as const;
export type AlarmOperator = (typeof ALARM_OPERATORS)[number];
/** An upper limit (> or >=) alarms above the threshold, a lower one below it. */
export const isUpperLimit = (op: AlarmOperator) => op === '>' || op === '>=';

/** Whether a value meets the rule's raising condition. */
export function thresholdRaised(op: AlarmOperator, threshold: number, x: number): boolean {
  switch (op) {
    case '>':
      return x > threshold;
    case '>=':
      return x >= threshold;
    case '<':
      return x < threshold;
    case '<=':
      return x <= threshold;
  }
}

/**
 * Whether a value clears an open threshold alarm: strictly back past the clear value (below it
 * for an upper limit, above it for a lower one). Between the two values the alarm keeps its state,
 * so a value hovering at the threshold does not make it flap.
 */
export function thresholdCleared(op: AlarmOperator, clearValue: number, x: number): boolean {
  return isUpperLimit(op) ? x < clearValue : x > clearValue;
}

export const CLEAR_VALUE_SIDE = '恢复值须在阈值的恢复一侧（上限告警不大于阈值，下限告警不小于阈值）';
export const DICT_TARGET_REQUIRED = '请选择产品或设备类型（二选一）';
export const DICT_EVENT_CODE_REQUIRED = '故障码不能为空';
export const DICT_THRESHOLD_REQUIRED = '阈值规则须填写属性、运算符、阈值和恢复值';

const eventCode = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, '故障码只能包含字母、数字、点、下划线和短横线');
const finite = z.number().finite();
const ref = z.number().int().positive().max(2 ** 31 - 1);

const dictFields = z.object({
  /** Either a product … */
  productId: ref.optional().nullable().transform((v) => v ?? null),
  /** … or a device type (every product of that type). */
  deviceType: deviceTypeSchema.optional().nullable().transform((v) => v ?? null),
  kind: z.enum(ALARM_RULE_KINDS),
  eventCode: eventCode.optional().nullable().transform((v) => v ?? null),
  identifier: identifierSchema.optional().nullable().transform((v) => v ?? null),
  operator: z.enum(ALARM_OPERATORS).optional().nullable().transform((v) => v ?? null),
  threshold: finite.optional().nullable().transform((v) => v ?? null),
  /** The value the measurement must get back past for the alarm to end (hysteresis). */
  clearValue: finite.optional().nullable().transform((v) => v ?? null),
  level: z.number().int().min(1, '告警等级应为1-5').max(5, '告警等级应为1-5'),
  alarmType: z.enum(ALARM_TYPES),
  description: trimmed(200),
  enabled: z.boolean().default(true),
});
type DictFields = z.output<typeof dictFields>;

/** The cross-field rules of an entry: one target, and the fields of its kind (the others are dropped). */
function refineDict<T extends DictFields>(v: T, ctx: z.RefinementCtx): void {
  if ((v.productId === null) === (v.deviceType === null)) ctx.addIssue({ code: 'custom', message: DICT_TARGET_REQUIRED, path: ['productId'] });
  if (v.kind === 'event') {
    if (!v.eventCode) ctx.addIssue({ code: 'custom', message: DICT_EVENT_CODE_REQUIRED, path: ['eventCode'] });
    return;
  }
  for (const key of ['identifier', 'operator', 'threshold', 'clearValue'] as const) {
    if (v[key] === null) ctx.addIssue({ code: 'custom', message: DICT_THRESHOLD_REQUIRED, path: [key] });
  }
  if (v.operator !== null && v.threshold !== null && v.clearValue !== null) {
    const ok = isUpperLimit(v.operator) ? v.clearValue <= v.threshold : v.clearValue >= v.threshold;
    if (!ok) ctx.addIssue({ code: 'custom', message: CLEAR_VALUE_SIDE, path: ['clearValue'] });
  }
}

/** Keeps only the fields of the entry's kind. */
function normaliseDict<T extends DictFields>(v: T): T {
  return v.kind === 'event'
    ? { ...v, identifier: null, operator: null, threshold: null, clearValue: null }
    : { ...v, eventCode: null };
}

export const alarmDictAdd = dictFields.superRefine(refineDict).transform(normaliseDict);
export const alarmDictEdit = dictFields.extend({ id }).superRefine(refineDict).transform(normaliseDict);
export type AlarmDictAdd = z.output<typeof alarmDictAdd>;
export type AlarmDictEdit = z.output<typeof alarmDictEdit>;

export const alarmDictFilter = z.object({
  productId: id.optional(),
  deviceType: deviceTypeSchema.optional(),
  kind: z.enum(ALARM_RULE_KINDS).optional(),
  level: z.coerce.number().int().min(1).max(5).optional(),
  alarmType: z.enum(ALARM_TYPES).optional(),
  enabled: z.boolean().optional(),
  /** Fault code, property identifier or description contains. */
  keyword: z.string().trim().max(64).optional(),
});
export type AlarmDictFilter = z.infer<typeof alarmDictFilter>;
/**
 * The dictionary sorts by these; enumerations by their key, the description as stored. Not by
 * target or rule: they are composed for the reader from several fields and the thing model.
 */
export const alarmDictSort = sortRequest(['kind', 'clearValue', 'level', 'alarmType', 'description', 'enabled', 'updatedAt', 'createdAt']);
export type AlarmDictSortField = NonNullable<z.infer<typeof alarmDictSort>['sortField']>;
export const alarmDictPage = pageRequest.extend(alarmDictFilter.shape).extend(alarmDictSort.shape);

export const alarmDictRecord = z.object({
  id: z.number(),
  productId: z.number().nullable(),
  productName: z.string().nullable(),
  productCode: z.string().nullable(),
  deviceType: deviceTypeSchema.nullable(),
  kind: z.enum(ALARM_RULE_KINDS),
  eventCode: z.string().nullable(),
  identifier: z.string().nullable(),
  /** Name and unit of the property (threshold rules) or the fault's label (fault codes), from the thing model. */
  targetName: z.string().nullable(),
  unit: z.string().nullable(),
  operator: z.enum(ALARM_OPERATORS).nullable(),
  threshold: z.number().nullable(),
  clearValue: z.number().nullable(),
  level: alarmLevel,
  alarmType: z.enum(ALARM_TYPES),
  description: z.string(),
  enabled: z.boolean(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type AlarmDictRecord = z.infer<typeof alarmDictRecord>;

/** Columns of the dictionary sheet (export and import), by key. */
export const ALARM_DICT_SHEET_COLUMNS = [
  { key: 'productCode', header: '产品编码' },
  { key: 'deviceType', header: '设备类型' },
  { key: 'kind', header: '规则类型' },
  { key: 'eventCode', header: '故障码' },
  { key: 'identifier', header: '属性标识符' },
  { key: 'operator', header: '运算符' },
  { key: 'threshold', header: '阈值' },
  { key: 'clearValue', header: '恢复值' },
  { key: 'level', header: '告警等级' },
  { key: 'alarmType', header: '告警类型' },
  { key: 'description', header: '告警描述' },
  { key: 'enabled', header: '启用' },
] as const;
export const ALARM_DICT_IMPORT_MAX_ROWS = 5000;

const numberCell = cell((s, bad) => {
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : bad('应为数字');
});
/**
 * A row of the dictionary sheet (its cells by column key). The import then resolves the product
 * code, applies the entry's rules (alarmDictAdd) and the thing model's, and refuses repeated keys.
 */
export const alarmDictSheetRow = z.object({
  productCode: cell((s) => s || null),
  deviceType: cell((s, bad) => (s === '' ? null : (fromLabel(s, DEVICE_TYPE_LABELS) ?? bad(`设备类型应为${DEVICE_TYPES.map((t) => DEVICE_TYPE_LABELS[t]).join('、')}之一`)))),
  kind: cell((s, bad) => fromLabel(s, ALARM_RULE_KIND_LABELS) ?? bad('规则类型应为故障码或阈值')),
  eventCode: cell((s) => s || null),
  identifier: cell((s) => s || null),
  operator: cell((s) => s || null),
  threshold: numberCell,
  clearValue: numberCell,
  level: cell((s, bad) => (/^[1-5]$/.test(s) ? Number(s) : Number(fromLabel(s, ALARM_LEVEL_LABELS) ?? NaN) || bad('告警等级应为1-5'))),
  alarmType: cell((s, bad) => fromLabel(s, ALARM_TYPE_LABELS) ?? bad(`告警类型应为${ALARM_TYPES.map((t) => ALARM_TYPE_LABELS[t]).join('、')}之一`)),
  description: cell((s) => s),
  enabled: cellYesNo(true, '启用应为是或否'),
} satisfies Record<(typeof ALARM_DICT_SHEET_COLUMNS)[number]['key'], z.ZodType>);
export type AlarmDictSheetRow = z.output<typeof alarmDictSheetRow>;

export const alarmDictImportResult = z.object({ totalRows: z.number(), created: z.number(), updated: z.number() });
export type AlarmDictImportResult = z.infer<typeof alarmDictImportResult>;

// ── Alarms (monitor) ──────────────────────────────────────────────────────────────────

export const alarmFilter = z.object({
  /** Stations of this company and the companies under it. */
  companyId: id.optional(),
  siteId: id.optional(),
  deviceId: id.optional(),
  cabinetId: id.optional(),
  level: z.coerce.number().int().min(1).max(5).optional(),
  /** Levels 1..maxLevel (at least this severe). */
  maxLevel: z.coerce.number().int().min(1).max(5).optional(),
  alarmType: z.enum(ALARM_TYPES).optional(),
  status: z.enum(ALARM_STATUSES).optional(),
  dictId: id.optional(),
  /** Number, description, device code or name contains. */
  keyword: z.string().trim().max(64).optional(),
  /** Raised at or after start, before end (epoch ms or ISO). */
  start: instant.optional(),
  end: instant.optional(),
});
export type AlarmFilter = z.infer<typeof alarmFilter>;
/** The monitor sorts by these; enumerations by their key, the duration of an open alarm up to now. */
export const alarmSort = sortRequest([
  'no', 'level', 'alarmType', 'description', 'status', 'siteName', 'cabinetName', 'deviceName', 'triggerValue', 'startedAt', 'endedAt', 'durationMs',
]);
export type AlarmSortField = NonNullable<z.infer<typeof alarmSort>['sortField']>;
export const alarmPage = pageRequest.extend(alarmFilter.shape).extend(alarmSort.shape);
/** The list answers at most this many alarms, newest first. */
export const ALARM_LIST_MAX = 1000;

/** The shield in force (or still to come) on an alarm's source. */
export const alarmShieldRef = z.object({
  id: z.number(),
  startAt: isoTime,
  endAt: isoTime,
  remark: z.string().nullable(),
  createdBy: z.string(),
});
export type AlarmShieldRef = z.infer<typeof alarmShieldRef>;

export const alarmRecord = z.object({
  id: z.number(),
  /** Readable unique number: ALM + station-local date of the start + id. */
  no: z.string(),
  level: alarmLevel,
  alarmType: z.enum(ALARM_TYPES),
  description: z.string(),
  status: z.enum(ALARM_STATUSES),
  startedAt: isoTime,
  endedAt: isoTime.nullable(),
  /** How long it lasted (ended) or has lasted so far (in progress). */
  durationMs: z.number(),
  kind: z.enum(ALARM_RULE_KINDS),
  /** The fault code, or the property identifier of a threshold rule. */
  code: z.string(),
  /** The value that raised a threshold alarm, and the one that ended it. */
  triggerValue: z.number().nullable(),
  clearValue: z.number().nullable(),
  /**
   * Why it ended when not by its own condition clearing: `escalated` — a more severe tier of the
   * same property opened and replaced it (decision 0033). Null otherwise.
   */
  endReason: z.enum(['escalated']).nullable(),
  unit: z.string().nullable(),
  message: z.string().nullable(),
  dictId: z.number().nullable(),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  deviceType: deviceTypeSchema,
  cabinetId: z.number().nullable(),
  cabinetName: z.string().nullable(),
  shield: alarmShieldRef.nullable(),
});
export type AlarmRecord = z.infer<typeof alarmRecord>;

/**
 * A shield on a source: the device and dictionary entry of an alarm (alarmId), or named directly.
 * Valid from start (default now) until end.
 */
export const alarmShieldCreate = z
  .object({
    alarmId: id.optional(),
    deviceId: id.optional(),
    dictId: id.optional(),
    start: instant.optional(),
    end: instant,
    remark: z.string().trim().max(200).optional().nullable().transform((v) => (v ? v : null)),
  })
  .refine((v) => v.alarmId !== undefined || (v.deviceId !== undefined && v.dictId !== undefined), {
    message: '请指定告警，或设备和告警字典项',
    path: ['alarmId'],
  })
  .refine((v) => v.end.getTime() > (v.start ?? new Date()).getTime(), { message: '屏蔽结束时间须晚于开始时间和当前时间', path: ['end'] });
export type AlarmShieldCreate = z.infer<typeof alarmShieldCreate>;
/** Cancels a shield: by its id, or the shield in force on an alarm's source. */
export const alarmShieldCancel = z
  .object({ id: id.optional(), alarmId: id.optional() })
  .refine((v) => v.id !== undefined || v.alarmId !== undefined, { message: '请指定屏蔽或告警', path: ['id'] });
export type AlarmShieldCancel = z.infer<typeof alarmShieldCancel>;
/** Longest shield validity. */
export const ALARM_SHIELD_MAX_DAYS = 366;

// ── Kanban ────────────────────────────────────────────────────────────────────────────

/**
 * Optional query of the three kanban calls: a station, or the stations of a company and the
 * companies under it (default every station in scope); a range of raising times (default the
 * last 24 hours, at most 366 days).
 */
export const alarmKanbanQuery = z
  .object({
    siteId: id.optional(),
    companyId: id.optional(),
    start: z.coerce.number().int().nonnegative().optional(),
    end: z.coerce.number().int().nonnegative().optional(),
  })
  .refine((v) => v.start === undefined || v.end === undefined || v.end > v.start, { message: '结束时间须晚于开始时间', path: ['end'] })
  .refine((v) => v.start === undefined || v.end === undefined || v.end - v.start <= 366 * 86_400_000, {
    message: '统计时间范围不能超过366天',
    path: ['end'],
  });
export type AlarmKanbanQuery = z.infer<typeof alarmKanbanQuery>;

/** Counts of one level: in progress now (whenever raised), raised and ended within the range. */
export const alarmLevelCount = z.object({ level: alarmLevel, active: z.number(), raised: z.number(), ended: z.number() });
export type AlarmLevelCount = z.infer<typeof alarmLevelCount>;

export const alarmKanbanSite = z.object({
  start: isoTime,
  end: isoTime,
  /** Over every station of the answer. */
  total: z.array(alarmLevelCount),
  sites: z.array(z.object({ siteId: z.number(), siteName: z.string(), siteCode: z.string(), levels: z.array(alarmLevelCount) })),
});
export type AlarmKanbanSite = z.infer<typeof alarmKanbanSite>;

export const alarmKanbanCabinet = z.object({
  start: isoTime,
  end: isoTime,
  /** Energy cabinets with their counts; alarms of devices in no cabinet under cabinetId null. */
  cabinets: z.array(
    z.object({
      cabinetId: z.number().nullable(),
      cabinetName: z.string().nullable(),
      cabinetCode: z.string().nullable(),
      siteId: z.number(),
      siteName: z.string(),
      levels: z.array(alarmLevelCount),
    }),
  ),
});
export type AlarmKanbanCabinet = z.infer<typeof alarmKanbanCabinet>;

export type AlarmChartBucket = 'hour' | 'day';

export const alarmKanbanChart = z.object({
  start: isoTime,
  end: isoTime,
  /** Hours up to 48 hours of range, else days (days begin at midnight of the caller's UTC-Zone). */
  bucket: z.enum(['hour', 'day']),
  /** Per bucket start (epoch ms), raised and ended counts by level (index 0 = level 1). */
  points: z.array(z.object({ t: z.number(), raised: z.array(z.number()), ended: z.array(z.number()) })),
  /** Alarms raised in the range, by type. */
  byType: z.array(z.object({ alarmType: z.enum(ALARM_TYPES), count: z.number() })),
  /** The devices that raised most in the range (at most 10). */
  topDevices: z.array(z.object({ deviceId: z.number(), deviceCode: z.string(), deviceName: z.string(), siteName: z.string(), count: z.number() })),
  /** Of the alarms raised in the range that have ended: how many, and the mean time to end. */
  endedCount: z.number(),
  meanTimeToEndMs: z.number().nullable(),
});
export type AlarmKanbanChart = z.infer<typeof alarmKanbanChart>;

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const alarmEndpoints = {
  dictList: endpoint({ method: 'POST', path: '/alarm/dict/query/list', body: alarmDictFilter, response: z.array(alarmDictRecord) }),
  dictPage: endpoint({ method: 'POST', path: '/alarm/dict/query/page', body: alarmDictPage, response: pageOf(alarmDictRecord) }),
  dictAdd: endpoint({ method: 'POST', path: '/alarm/dict/add', body: alarmDictAdd, response: created }),
  dictEdit: endpoint({ method: 'POST', path: '/alarm/dict/edit', body: alarmDictEdit, response: done }),
  dictExport: endpoint({ method: 'POST', path: '/alarm/dict/export', body: alarmDictFilter, response: FILE }),
  dictImport: endpoint({ method: 'POST', path: '/alarm/dict/import', multipart: true, response: alarmDictImportResult }),
  dictDelete: endpoint({ method: 'GET', path: '/alarm/dict/delete', query: idQuery, response: done }),
  list: endpoint({ method: 'POST', path: '/alarm/monitor/query/list', body: alarmFilter, response: z.array(alarmRecord) }),
  page: endpoint({ method: 'POST', path: '/alarm/monitor/query/page', body: alarmPage, response: pageOf(alarmRecord) }),
  createShield: endpoint({ method: 'POST', path: '/alarm/monitor/create/shield', body: alarmShieldCreate, response: created }),
  cancelShield: endpoint({ method: 'POST', path: '/alarm/monitor/cancel/shield', body: alarmShieldCancel, response: done }),
  export: endpoint({ method: 'POST', path: '/alarm/monitor/export', body: alarmFilter, response: FILE }),
  kanbanSite: endpoint({ method: 'GET', path: '/alarm/kanban/site', query: alarmKanbanQuery, response: alarmKanbanSite }),
  kanbanChart: endpoint({ method: 'GET', path: '/alarm/kanban/chart', query: alarmKanbanQuery, response: alarmKanbanChart }),
  kanbanCabinet: endpoint({ method: 'GET', path: '/alarm/kanban/cabinet', query: alarmKanbanQuery, response: alarmKanbanCabinet }),
};
