import { z } from 'zod';
import { cell, cellNumber, cellText, fromLabel, id, idBody, idQuery, instant, pageRequest, sortRequest, trimmed } from './common.ts';
import { ALARM_LEVELS, IMAGE_MAX_BYTES, IMAGE_MAX_FILES, NOTE_MAX_LENGTH } from './constants.ts';
import { created, done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';
import { storedUpload } from './files.ts';
import { defineStateMachine } from './state-machine.ts';
import { DEVICE_TYPE_LABELS, DEVICE_TYPES, deviceTypeSchema } from './telemetry.ts';
import { daysBetween, localTime, zoneOffsetMs } from './time.ts';

/**
 * Maintenance (api-catalogue "Inspection" and "Repair"; product-spec §4–§5; DOMAIN.md §5):
 * inspection items, plans that generate inspection work orders on a schedule, the work order log,
 * defects with photos, repair orders (with the alarm → repair loop), and the overview. One
 * domain: server module modules/maintenance, web feature features/maintenance.
 */

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

/** JSON ids are numbers (no coercion of a missing one). */
const ref = z.number().int().positive().max(2 ** 31 - 1);
const localDate = z.iso.date('日期格式不正确，应为YYYY-MM-DD');
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时间格式不正确，应为HH:mm');
const monthKey = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式不正确，应为YYYY-MM');
const optional = <T extends z.ZodType>(s: T) => s.optional().nullable().transform((v) => v ?? null);

/** product-spec §5: a note is at most 200 characters. */
export const NOTE_TOO_LONG = `备注不能超过${NOTE_MAX_LENGTH}个字符`;
export const noteText = z
  .string()
  .trim()
  .max(NOTE_MAX_LENGTH, NOTE_TOO_LONG)
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));
/** A longer text (descriptions, work done): at most `max` characters, empty → null. */
const longText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what}不能超过${max}个字符`)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

/**
 * Photos (defects, results, repairs; product-spec §5): jpg, jpeg or png, each at most 20 MB, at
 * most 20 per record. The upload (POST /basic/oss/upload) checks the content; a record refers to
 * uploads by their suffix and the server checks each is a stored image of the caller's company.
 */
export const MAINT_PHOTO_TYPES = ['jpg', 'jpeg', 'png'] as const;
export const MAINT_PHOTO_MIMES = ['image/jpeg', 'image/png'] as const;
export const MAINT_PHOTO_MAX_BYTES = IMAGE_MAX_BYTES;
export const MAINT_PHOTO_MAX_FILES = IMAGE_MAX_FILES;
export const PHOTO_TOO_MANY = `最多上传${MAINT_PHOTO_MAX_FILES}张图片`;
export const PHOTO_TYPE_REFUSED = '图片只能是 jpg、jpeg 或 png 格式';
export const PHOTO_TOO_LARGE = `每张图片不能超过${MAINT_PHOTO_MAX_BYTES / 1024 / 1024}MB`;
const photoSuffix = z.string().regex(/^[A-Za-z0-9_-]{8,64}(\.[A-Za-z0-9]{1,10})?$/, '图片标识不正确');
/** Photos sent with a record: the suffixes of uploads, at most 20, no repeats. */
export const photoInput = z
  .array(photoSuffix)
  .max(MAINT_PHOTO_MAX_FILES, PHOTO_TOO_MANY)
  .refine((a) => new Set(a).size === a.length, '图片不能重复')
  .default([]);
/** A photo as stored on a record (jsonb): the upload's suffix, original name and size. */
export interface StoredPhoto {
  suffix: string;
  name: string;
  size: number;
}
/** A photo as answered: with its download URL. */
export const photo = storedUpload;
export type Photo = z.infer<typeof photo>;

/** Levels of defects and repair orders: the alarm scale, 1 most severe (an alarm's level carries over). */
export const MAINT_LEVELS = ALARM_LEVELS;
export type MaintLevel = (typeof MAINT_LEVELS)[number];
export const MAINT_LEVEL_LABELS: Record<MaintLevel, string> = { 1: '一级', 2: '二级', 3: '三级', 4: '四级', 5: '五级' };
const level = z.number().int().min(1, '等级应为1-5').max(5, '等级应为1-5');

/** A user named on a record. */
export const maintUser = z.object({ userId: z.number(), name: z.string() });

/** One row of an entity's state journal: who, when, from, to, note (the work order log; a repair's timeline). */
export const maintLogRecord = z.object({
  id: z.number(),
  /** The work order's, repair order's or plan's id. */
  orderId: z.number(),
  action: z.string(),
  fromState: z.string(),
  toState: z.string(),
  note: z.string().nullable(),
  userId: z.number().nullable(),
  /** The user's name, or 系统 for the generator and automatic actions. */
  username: z.string(),
  createdAt: isoTime,
});
export type MaintLogRecord = z.infer<typeof maintLogRecord>;
/** Journal rows of which kind of entity (maintenance_log.entity). */
export const MAINT_LOG_ENTITIES = ['plan', 'workOrder', 'repair'] as const;
export type MaintLogEntity = (typeof MAINT_LOG_ENTITIES)[number];
/** The name journals and notifications show for the generator and automatic actions. */
export const SYSTEM_ACTOR = '系统';
/** The role the generator and automatic jobs hold toward an entity (actions only they take). */
export const SYSTEM_ROLE = 'system';
/** The role of the user an order is assigned to. */
export const ASSIGNEE_ROLE = 'assignee';

// ── Inspection items ──────────────────────────────────────────────────────────────────

/**
 * How an item is checked: a state (pass / flag / fail), a measured number with unit and allowed
 * range, a text, or a photo (at least one photo required).
 */
export const CHECK_TYPES = ['status', 'number', 'text', 'photo'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];
export const CHECK_TYPE_LABELS: Record<CheckType, string> = { status: '状态检查', number: '数值测量', text: '文字记录', photo: '拍照记录' };

/** The outcome of an item: pass (正常), flag (关注: noted, no defect), fail (异常: a defect is recorded). */
export const ITEM_RESULTS = ['pass', 'flag', 'fail'] as const;
export type ItemResult = (typeof ITEM_RESULTS)[number];
export const ITEM_RESULT_LABELS: Record<ItemResult, string> = { pass: '正常', flag: '关注', fail: '异常' };

export const ITEM_TARGET_ONE = '设备类型和产品只能选择一个';
export const ITEM_RANGE_ORDER = '下限不能大于上限';

const itemFields = z.object({
  /** Owner company; default the caller's. */
  companyId: ref.optional(),
  name: trimmed(64),
  /** What it applies to: a device type, or a product, or neither (the station as a whole). */
  deviceType: optional(deviceTypeSchema),
  productId: optional(ref),
  checkType: z.enum(CHECK_TYPES, '检查类型不正确'),
  /** Number items: unit and allowed range (either bound may be open). */
  unit: longText(16, '单位'),
  min: optional(z.number().finite()),
  max: optional(z.number().finite()),
  /** The standard the result is judged against (what "pass" means). */
  standard: longText(200, '检查标准'),
  remark: longText(200, '备注'),
});
type ItemFields = z.output<typeof itemFields>;
function refineItem(v: ItemFields, ctx: z.RefinementCtx) {
  if (v.deviceType !== null && v.productId !== null) ctx.addIssue({ code: 'custom', message: ITEM_TARGET_ONE, path: ['productId'] });
  if (v.checkType === 'number' && v.min !== null && v.max !== null && v.min > v.max) ctx.addIssue({ code: 'custom', message: ITEM_RANGE_ORDER, path: ['max'] });
}
/** Non-number items keep no unit or range. */
const normaliseItem = <T extends ItemFields>(v: T): T => (v.checkType === 'number' ? v : { ...v, unit: null, min: null, max: null });

export const itemAdd = itemFields.superRefine(refineItem).transform(normaliseItem);
export const itemEdit = itemFields.extend({ id: ref }).superRefine(refineItem).transform(normaliseItem);
export type ItemAdd = z.output<typeof itemAdd>;
export type ItemEdit = z.output<typeof itemEdit>;

export const itemFilter = z.object({
  companyId: id.optional(),
  deviceType: deviceTypeSchema.optional(),
  productId: id.optional(),
  checkType: z.enum(CHECK_TYPES).optional(),
  /** Name or standard contains. */
  keyword: z.string().trim().max(64).optional(),
});
export type ItemFilter = z.infer<typeof itemFilter>;
export const itemSort = sortRequest(['name', 'checkType', 'createdAt', 'updatedAt']);
export const itemPage = pageRequest.extend(itemFilter.shape).extend(itemSort.shape);
export const itemExport = itemFilter.extend(itemSort.shape);

export const itemRecord = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  name: z.string(),
  deviceType: deviceTypeSchema.nullable(),
  productId: z.number().nullable(),
  productName: z.string().nullable(),
  productCode: z.string().nullable(),
  checkType: z.enum(CHECK_TYPES),
  unit: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  standard: z.string().nullable(),
  remark: z.string().nullable(),
  /** How many plans use it (it cannot be deleted while any does). */
  planCount: z.number(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ItemRecord = z.infer<typeof itemRecord>;

/** The refusal of deleting an item that plans use (406), naming them. */
export const itemInUse = (plans: readonly string[]) => `巡检项已被巡检计划使用，不能删除：${plans.join('、')}`;

/** Columns of the item sheet (export and import). */
export const ITEM_SHEET_COLUMNS = [
  { key: 'name', header: '巡检项名称', required: true },
  { key: 'deviceType', header: '设备类型' },
  { key: 'productCode', header: '产品编码' },
  { key: 'checkType', header: '检查类型', required: true },
  { key: 'unit', header: '单位' },
  { key: 'min', header: '下限' },
  { key: 'max', header: '上限' },
  { key: 'standard', header: '检查标准' },
  { key: 'remark', header: '备注' },
] as const;
export const ITEM_IMPORT_MAX_ROWS = 5000;
/**
 * A row of the item sheet. The import resolves the product code, applies the item's rules
 * (itemAdd) and refuses names repeated in the file; an item of the same name in the company is
 * updated, any other is created.
 */
export const itemSheetRow = z.object({
  name: cellText(64, '巡检项名称'),
  deviceType: cell((s, bad) => (s === '' ? null : (fromLabel(s, DEVICE_TYPE_LABELS) ?? bad(`设备类型应为${DEVICE_TYPES.map((t) => DEVICE_TYPE_LABELS[t]).join('、')}之一`)))),
  productCode: cellText(64),
  checkType: cell((s, bad) => fromLabel(s, CHECK_TYPE_LABELS) ?? bad(`检查类型应为${CHECK_TYPES.map((t) => CHECK_TYPE_LABELS[t]).join('、')}之一`)),
  unit: cellText(16),
  min: cellNumber(-1e12, 1e12, false),
  max: cellNumber(-1e12, 1e12, false),
  standard: cellText(200),
  remark: cellText(200),
} satisfies Record<(typeof ITEM_SHEET_COLUMNS)[number]['key'], z.ZodType>);
export type ItemSheetRow = z.output<typeof itemSheetRow>;
export const itemImportResult = z.object({ totalRows: z.number(), created: z.number(), updated: z.number() });
export type ItemImportResult = z.infer<typeof itemImportResult>;

// ── Plan schedules ────────────────────────────────────────────────────────────────────

/**
 * When a plan's orders fall due, in each station's own time zone: every day, on chosen weekdays
 * (0 = Sunday … 6 = Saturday), on a day of the month (a day the month lacks means its last day),
 * or every N days counted from the start date (or from the last completion, countFrom). An order
 * starts at `time` of its date and is due `dueHours` later; none falls before `startDate` or after
 * `endDate` (open-ended without one).
 */
export const SCHEDULE_KINDS = ['daily', 'weekly', 'monthly', 'interval'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];
export const SCHEDULE_KIND_LABELS: Record<ScheduleKind, string> = { daily: '每天', weekly: '每周', monthly: '每月', interval: '每隔N天' };
export const WEEKDAY_LABELS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'] as const;
/** Longest due-time offset: 31 days. */
export const DUE_HOURS_MAX = 744;
export const SCHEDULE_END_BEFORE_START = '结束日期不能早于开始日期';

const scheduleCommon = {
  startDate: localDate,
  endDate: optional(localDate),
  /** Station-local time of day the order starts (and is generated). */
  time: hhmm.default('08:00'),
  /** Hours from the start until the order is due (overdue after). */
  dueHours: z.number().int().min(1, '完成时限至少1小时').max(DUE_HOURS_MAX, `完成时限不能超过${DUE_HOURS_MAX}小时`).default(24),
};
export const planSchedule = z
  .discriminatedUnion(
    'kind',
    [
      z.object({ kind: z.literal('daily'), ...scheduleCommon }),
      z.object({
        kind: z.literal('weekly'),
        weekdays: z
          .array(z.number().int().min(0).max(6))
          .min(1, '请选择星期')
          .max(7)
          .refine((a) => new Set(a).size === a.length, '星期不能重复')
          .transform((a) => [...a].sort((x, y) => x - y)),
        ...scheduleCommon,
      }),
      z.object({ kind: z.literal('monthly'), day: z.number().int().min(1, '日期应为1-31').max(31, '日期应为1-31'), ...scheduleCommon }),
      z.object({ kind: z.literal('interval'), everyDays: z.number().int().min(1, '间隔天数应为1-366').max(366, '间隔天数应为1-366'), ...scheduleCommon }),
    ],
    '周期类型不正确',
  )
  .refine((s) => s.endDate === null || s.endDate >= s.startDate, { message: SCHEDULE_END_BEFORE_START, path: ['endDate'] });
export type PlanSchedule = z.output<typeof planSchedule>;
export type PlanScheduleInput = z.input<typeof planSchedule>;

const DAY_MS = 86_400_000;
/** A YYYY-MM-DD date `n` days later (earlier when negative). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}
/** 0 = Sunday. */
export const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Whether `date` is one of the schedule's dates (ignoring start and end), intervals counted from `anchor`. */
export function isScheduleDate(s: PlanSchedule, date: string, anchor = s.startDate): boolean {
  switch (s.kind) {
    case 'daily':
      return true;
    case 'weekly':
      return s.weekdays.includes(weekdayOf(date));
    case 'monthly': {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      return d === Math.min(s.day, daysInMonth(y, m));
    }
    case 'interval': {
      const n = daysBetween(anchor, date);
      return n >= 0 && n % s.everyDays === 0;
    }
  }
}

/**
 * The schedule's dates from `fromDate` (inclusive), at most `count`, within start and end.
 * `anchor` is where intervals count from (the start date, or the last completion's date).
 */
export function scheduleDates(s: PlanSchedule, fromDate: string, count: number, anchor = s.startDate): string[] {
  const out: string[] = [];
  let d = fromDate > s.startDate ? fromDate : s.startDate;
  if (s.kind === 'interval') {
    // Jump to the first date of the interval at or after d.
    const n = daysBetween(anchor, d);
    if (n > 0 && n % s.everyDays !== 0) d = addDays(d, s.everyDays - (n % s.everyDays));
    if (n < 0) d = anchor;
  }
  // Every kind repeats within 366 days, so a scan of count × 366 days is bounded.
  for (let i = 0; out.length < count && i < count * 366 + 366; i += 1) {
    if (s.endDate !== null && d > s.endDate) break;
    if (isScheduleDate(s, d, anchor)) {
      out.push(d);
      if (s.kind === 'interval') {
        d = addDays(d, s.everyDays);
        continue;
      }
    }
    d = addDays(d, 1);
  }
  return out;
}

/** The latest schedule date at or before `toDate` (and after `afterDate` when given), or null. */
export function lastScheduleDate(s: PlanSchedule, toDate: string, afterDate: string | null = null, anchor = s.startDate): string | null {
  const lower = afterDate !== null && afterDate >= s.startDate ? addDays(afterDate, 1) : s.startDate;
  let d = s.endDate !== null && s.endDate < toDate ? s.endDate : toDate;
  for (let i = 0; d >= lower && i < 800; i += 1) {
    if (isScheduleDate(s, d, anchor)) return d;
    d = addDays(d, -1);
  }
  return null;
}

/** One due slot of a plan at a station: its station-local date, start and due instants (epoch ms). */
export interface DueSlot {
  date: string;
  startAt: number;
  dueAt: number;
}

/** The slot of a schedule date in a zone: it starts at `time` (wall clock) of that local date, due `dueHours` later. */
export function dueSlot(s: Pick<PlanSchedule, 'time' | 'dueHours'>, date: string, zone: string): DueSlot {
  const [h, m] = s.time.split(':').map(Number) as [number, number];
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, m);
  // The offset at the instant itself (across a DST change the guess's offset may differ).
  const guess = wall - zoneOffsetMs(zone, wall);
  const startAt = wall - zoneOffsetMs(zone, guess);
  return { date, startAt, dueAt: startAt + s.dueHours * 3_600_000 };
}

/**
 * The next `count` due slots of a schedule at a station in `zone`, from the instant `from` on:
 * slots of the local date of `from` and later (today's included while it has not started). Used
 * by the plan form's preview (the next 10) and by the generator.
 */
export function nextDueDates(s: PlanSchedule, from: number | Date, count: number, zone: string, anchor = s.startDate): DueSlot[] {
  const t = typeof from === 'number' ? from : from.getTime();
  const today = localDateOf(t, zone);
  return scheduleDates(s, today, count + 1, anchor)
    .map((d) => dueSlot(s, d, zone))
    .filter((slot) => slot.startAt >= t || slot.date > today)
    .slice(0, count);
}

/** The station-local date (YYYY-MM-DD) of an instant. */
export const localDateOf = (ts: number, zone: string): string => localTime(ts, zone).dateKey;

/** A schedule in words (source text): 每周 周一、周三 08:00，24小时内完成. */
export function describeSchedule(s: PlanSchedule): string {
  const when =
    s.kind === 'daily' ? '每天'
    : s.kind === 'weekly' ? `每周 ${s.weekdays.map((d) => WEEKDAY_LABELS[d]).join('、')}`
    : s.kind === 'monthly' ? `每月${s.day}日`
    : `每隔${s.everyDays}天`;
  return `${when} ${s.time}，${s.dueHours}小时内完成`;
}

// ── Plans ─────────────────────────────────────────────────────────────────────────────

/**
 * product-spec §4: a plan is executing, pending execution or stopped. Only a stopped plan can be
 * started (not one past its end date); only an executing or pending plan can be stopped
 * ("closed"); startOrStop toggles. A started plan waits (pending) until its start date arrives at
 * a station; the generator activates it, pauses it when its last 5 generated orders were never
 * opened, and stops it after its end date.
 */
export const PLAN_STATES = ['executing', 'pending', 'stopped'] as const;
export type PlanState = (typeof PLAN_STATES)[number];
export const PLAN_STATE_LABELS: Record<PlanState, string> = { executing: '执行中', pending: '待执行', stopped: '已停止' };
export const PLAN_ACTIONS = ['start', 'stop', 'activate', 'pause', 'expire'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];
export const PLAN_ACTION_LABELS: Record<PlanAction, string> = { start: '启动', stop: '停止', activate: '开始执行', pause: '自动暂停', expire: '到期停止' };
export const planMachine = defineStateMachine<PlanState, PlanAction>({
  name: 'inspection.plan',
  states: PLAN_STATES,
  stateLabels: PLAN_STATE_LABELS,
  actionLabels: PLAN_ACTION_LABELS,
  transitions: {
    start: { from: ['stopped'], to: 'pending' },
    stop: { from: ['executing', 'pending'], to: 'stopped' },
    activate: { from: ['pending'], to: 'executing', who: [SYSTEM_ROLE] },
    pause: { from: ['executing', 'pending'], to: 'stopped', who: [SYSTEM_ROLE] },
    expire: { from: ['executing', 'pending'], to: 'stopped', who: [SYSTEM_ROLE] },
  },
  refusal: (state, action) =>
    action === 'start' ? `当前状态为「${PLAN_STATE_LABELS[state]}」，只有已停止的计划可以启动`
    : action === 'stop' ? '只有执行中或待执行的计划可以停止'
    : `当前状态为「${PLAN_STATE_LABELS[state]}」，不能${PLAN_ACTION_LABELS[action]}`,
});
export const PLAN_EXPIRED = '计划已过期（结束日期已过），不能启动';
/** Generated orders in a row never opened after which a plan pauses itself. */
export const PLAN_UNOPENED_PAUSE = 5;
/** Why a plan stopped when the generator stopped it. */
export const PLAN_STOP_REASONS = ['unopened', 'expired'] as const;
export type PlanStopReason = (typeof PLAN_STOP_REASONS)[number];
export const PLAN_STOP_REASON_LABELS: Record<PlanStopReason, string> = {
  unopened: `最近${PLAN_UNOPENED_PAUSE}张工单均未被打开，已自动暂停`,
  expired: '已过结束日期',
};

/** Whether the next order counts from the scheduled date or from the last completion. */
export const COUNT_FROM = ['schedule', 'completion'] as const;
export type CountFrom = (typeof COUNT_FROM)[number];
export const COUNT_FROM_LABELS: Record<CountFrom, string> = { schedule: '按计划日期', completion: '按上次完成' };

export const PLAN_MAX_SITES = 500;
export const PLAN_MAX_ITEMS = 200;
export const PLAN_MAX_ASSIGNEES = 50;
const uniqueIds = (what: string, min: number, max: number) =>
  z
    .array(ref)
    .min(min, `请选择${what}`)
    .max(max, `${what}不能超过${max}个`)
    .refine((a) => new Set(a).size === a.length, `${what}不能重复`);

const planFields = z.object({
  /** Owner company; default the caller's. Every station must be in the caller's scope. */
  companyId: ref.optional(),
  name: trimmed(64),
  siteIds: uniqueIds('站点', 1, PLAN_MAX_SITES),
  /** In the order the work order lists them. */
  itemIds: uniqueIds('巡检项', 1, PLAN_MAX_ITEMS),
  schedule: planSchedule,
  /** The assignee group: who may be given (and is told of) the plan's orders. */
  assigneeIds: uniqueIds('执行人', 0, PLAN_MAX_ASSIGNEES).default([]),
  countFrom: z.enum(COUNT_FROM, '计数方式不正确').default('schedule'),
  remark: longText(200, '备注'),
});
export const planAdd = planFields;
export const planEdit = planFields.extend({ id: ref });
export type PlanAdd = z.output<typeof planAdd>;
export type PlanEdit = z.output<typeof planEdit>;

export const planFilter = z.object({
  companyId: id.optional(),
  siteId: id.optional(),
  itemId: id.optional(),
  status: z.enum(PLAN_STATES).optional(),
  keyword: z.string().trim().max(64).optional(),
});
export type PlanFilter = z.infer<typeof planFilter>;
export const planSort = sortRequest(['name', 'status', 'createdAt', 'updatedAt']);
export const planPage = pageRequest.extend(planFilter.shape).extend(planSort.shape);
export const planList = planFilter.extend(planSort.shape);

export const planRecord = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  name: z.string(),
  status: z.enum(PLAN_STATES),
  /** Past its end date at every station (cannot be started). */
  expired: z.boolean(),
  /** Why the generator stopped it, when it did. */
  stopReason: z.enum(PLAN_STOP_REASONS).nullable(),
  schedule: planSchedule,
  countFrom: z.enum(COUNT_FROM),
  sites: z.array(z.object({ siteId: z.number(), siteName: z.string(), siteCode: z.string(), timeZone: z.string() })),
  items: z.array(z.object({ itemId: z.number(), name: z.string(), checkType: z.enum(CHECK_TYPES) })),
  assignees: z.array(maintUser),
  /** The plan's owner (its creator), told when it pauses. */
  ownerId: z.number().nullable(),
  ownerName: z.string().nullable(),
  /** The earliest next due date over its stations (station-local), null when none is left. */
  nextDueDate: localDate.nullable(),
  lastGeneratedAt: isoTime.nullable(),
  orderCount: z.number(),
  remark: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type PlanRecord = z.infer<typeof planRecord>;
export const planStatusResult = z.object({ id: z.number(), status: z.enum(PLAN_STATES) });

/** Stations of plans (POST /inspection/plan/site/rel/query/*). */
export const planSiteFilter = z.object({ planId: id.optional(), siteId: id.optional() });
export const planSitePage = pageRequest.extend(planSiteFilter.shape);
export const planSiteRecord = z.object({
  planId: z.number(),
  planName: z.string(),
  planStatus: z.enum(PLAN_STATES),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  timeZone: z.string(),
  /** The latest scheduled date an order was generated for here. */
  lastDueDate: localDate.nullable(),
  /** The next scheduled date here (station-local), null when none is left or the plan is stopped. */
  nextDueDate: localDate.nullable(),
  openOrders: z.number(),
});
export type PlanSiteRecord = z.infer<typeof planSiteRecord>;

/** Items of plans (POST /inspection/inspection/item/rel/query/page): by plan, or the plans using an item. */
export const itemRelFilter = z.object({ planId: id.optional(), itemId: id.optional() });
export const itemRelPage = pageRequest.extend(itemRelFilter.shape);
export const itemRelRecord = z.object({
  planId: z.number(),
  planName: z.string(),
  planStatus: z.enum(PLAN_STATES),
  itemId: z.number(),
  itemName: z.string(),
  checkType: z.enum(CHECK_TYPES),
  deviceType: deviceTypeSchema.nullable(),
  productName: z.string().nullable(),
  standard: z.string().nullable(),
  /** 1-based position of the item in the plan. */
  sort: z.number(),
});
export type ItemRelRecord = z.infer<typeof itemRelRecord>;

// ── Inspection work orders ────────────────────────────────────────────────────────────

/**
 * product-spec §4: to be assigned → pending → processing → completed, or closed. Allocation only
 * from to be assigned; close only from to be assigned, pending or processing. Handling records
 * results (pending → processing, by the assignee); completing submits them all.
 */
export const WORK_ORDER_STATES = ['toBeAssigned', 'pending', 'processing', 'completed', 'closed'] as const;
export type WorkOrderState = (typeof WORK_ORDER_STATES)[number];
export const WORK_ORDER_STATE_LABELS: Record<WorkOrderState, string> = {
  toBeAssigned: '待分配',
  pending: '待处理',
  processing: '处理中',
  completed: '已完成',
  closed: '已关闭',
};
export const WORK_ORDER_ACTIONS = ['allocate', 'handle', 'complete', 'close'] as const;
export type WorkOrderAction = (typeof WORK_ORDER_ACTIONS)[number];
export const WORK_ORDER_ACTION_LABELS: Record<WorkOrderAction, string> = { allocate: '分配', handle: '处理', complete: '完成', close: '关闭' };
export const workOrderMachine = defineStateMachine<WorkOrderState, WorkOrderAction>({
  name: 'inspection.workOrder',
  states: WORK_ORDER_STATES,
  stateLabels: WORK_ORDER_STATE_LABELS,
  actionLabels: WORK_ORDER_ACTION_LABELS,
  transitions: {
    allocate: { from: ['toBeAssigned'], to: 'pending' },
    handle: { from: ['pending', 'processing'], to: 'processing', who: [ASSIGNEE_ROLE] },
    complete: { from: ['pending', 'processing'], to: 'completed', who: [ASSIGNEE_ROLE] },
    close: { from: ['toBeAssigned', 'pending', 'processing'], to: 'closed' },
  },
});
/** Open states (counted as load, can be overdue). */
export const WORK_ORDER_OPEN_STATES: readonly WorkOrderState[] = ['toBeAssigned', 'pending', 'processing'];
/** Where an order came from. */
export const WORK_ORDER_ORIGINS = ['plan', 'manual'] as const;
export type WorkOrderOrigin = (typeof WORK_ORDER_ORIGINS)[number];
export const WORK_ORDER_ORIGIN_LABELS: Record<WorkOrderOrigin, string> = { plan: '计划生成', manual: '手动创建' };
/** Work order numbers: XJ + station-local date of the scheduled start + id (XJ20261127000123). */
export const WORK_ORDER_NO_PREFIX = 'XJ';

export const workOrderFilter = z.object({
  companyId: id.optional(),
  siteId: id.optional(),
  planId: id.optional(),
  status: z.enum(WORK_ORDER_STATES).optional(),
  assigneeId: id.optional(),
  /** Only the caller's own orders (the phone's "my orders today"). */
  mine: z.boolean().optional(),
  /** Only open orders past their due time. */
  overdue: z.boolean().optional(),
  /** Scheduled start at or after start, before end. */
  start: instant.optional(),
  end: instant.optional(),
  /** Number, title or plan name contains. */
  keyword: z.string().trim().max(64).optional(),
});
export type WorkOrderFilter = z.infer<typeof workOrderFilter>;
export const workOrderSort = sortRequest(['no', 'status', 'startAt', 'dueAt', 'createdAt']);
export const workOrderPage = pageRequest.extend(workOrderFilter.shape).extend(workOrderSort.shape);
export const workOrderList = workOrderFilter.extend(workOrderSort.shape);

export const workOrderRecord = z.object({
  id: z.number(),
  no: z.string(),
  title: z.string(),
  origin: z.enum(WORK_ORDER_ORIGINS),
  planId: z.number().nullable(),
  planName: z.string().nullable(),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  timeZone: z.string(),
  status: z.enum(WORK_ORDER_STATES),
  /** Station-local date it was scheduled for. */
  scheduledDate: localDate,
  startAt: isoTime,
  dueAt: isoTime,
  /** Open and past its due time. */
  overdue: z.boolean(),
  assigneeId: z.number().nullable(),
  assigneeName: z.string().nullable(),
  /** First opened by anyone (its detail, or any action); null = never opened. */
  openedAt: isoTime.nullable(),
  startedAt: isoTime.nullable(),
  completedAt: isoTime.nullable(),
  closedAt: isoTime.nullable(),
  itemCount: z.number(),
  /** Items with a result recorded. */
  doneCount: z.number(),
  failCount: z.number(),
  defectCount: z.number(),
  note: z.string().nullable(),
  createdBy: z.number().nullable(),
  createdByName: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type WorkOrderRecord = z.infer<typeof workOrderRecord>;

/** One item of a work order: the item as it was when the order was made, and its result. */
export const workOrderItemRecord = z.object({
  /** The order item's own id (handle refers to it). */
  id: z.number(),
  itemId: z.number().nullable(),
  sort: z.number(),
  name: z.string(),
  checkType: z.enum(CHECK_TYPES),
  deviceType: deviceTypeSchema.nullable(),
  unit: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  standard: z.string().nullable(),
  deviceId: z.number().nullable(),
  deviceName: z.string().nullable(),
  result: z.enum(ITEM_RESULTS).nullable(),
  value: z.number().nullable(),
  text: z.string().nullable(),
  photos: z.array(photo),
  /** A number outside the item's range (recorded as a failure). */
  outOfRange: z.boolean(),
  defectId: z.number().nullable(),
  checkedAt: isoTime.nullable(),
});
export type WorkOrderItemRecord = z.infer<typeof workOrderItemRecord>;
export const workOrderDetail = workOrderRecord.extend({
  items: z.array(workOrderItemRecord),
  /** The caller's roles toward the order (assignee), for allowedActions(workOrderMachine, …). */
  roles: z.array(z.string()),
});
export type WorkOrderDetail = z.infer<typeof workOrderDetail>;

export const workOrderAdd = z
  .object({
    siteId: ref,
    title: trimmed(64),
    itemIds: uniqueIds('巡检项', 1, PLAN_MAX_ITEMS),
    startAt: instant,
    dueAt: instant,
    /** Assigned at once (pending) when given; else to be assigned. */
    assigneeId: optional(ref),
    note: noteText,
  })
  .refine((v) => v.dueAt.getTime() > v.startAt.getTime(), { message: '截止时间须晚于开始时间', path: ['dueAt'] });
export type WorkOrderAdd = z.output<typeof workOrderAdd>;
export const workOrderEdit = z.object({
  id: ref,
  title: trimmed(64).optional(),
  dueAt: instant.optional(),
  note: noteText.optional(),
});
export type WorkOrderEdit = z.output<typeof workOrderEdit>;
export const workOrderAllocation = z.object({ id: ref, assigneeId: ref, note: noteText });
export type WorkOrderAllocation = z.output<typeof workOrderAllocation>;

export const RESULT_REQUIRED = '请填写检查结果';
export const resultInput = z.object({
  /** The order item's id (workOrderItemRecord.id). */
  id: ref,
  /** Status items: pass / flag / fail; others may state it (a number out of range is a fail whatever is stated). */
  result: optional(z.enum(ITEM_RESULTS, '检查结果应为正常、关注或异常')),
  value: optional(z.number().finite()),
  text: longText(500, '检查记录'),
  photos: photoInput,
  deviceId: optional(ref),
});
export type ResultInput = z.output<typeof resultInput>;
export const workOrderHandle = z.object({
  id: ref,
  results: z.array(resultInput).max(PLAN_MAX_ITEMS),
  /** Submit: every item must have its result; the order completes. Else the results are saved (processing). */
  complete: z.boolean().default(false),
  note: noteText,
});
export type WorkOrderHandle = z.output<typeof workOrderHandle>;
export const workOrderClose = z.object({ id: ref, note: noteText });
export type WorkOrderClose = z.output<typeof workOrderClose>;

export const workOrderLogPage = pageRequest.extend({ orderId: id });
export type WorkOrderLogPage = z.infer<typeof workOrderLogPage>;

// ── Defects ───────────────────────────────────────────────────────────────────────────

/** A defect is open, being repaired (a repair order was raised), or resolved. */
export const DEFECT_STATES = ['open', 'repairing', 'resolved'] as const;
export type DefectState = (typeof DEFECT_STATES)[number];
export const DEFECT_STATE_LABELS: Record<DefectState, string> = { open: '待处理', repairing: '维修中', resolved: '已消除' };
/** Defect numbers: QX + station-local date + id. */
export const DEFECT_NO_PREFIX = 'QX';

export const defectFilter = z.object({
  companyId: id.optional(),
  siteId: id.optional(),
  deviceId: id.optional(),
  workOrderId: id.optional(),
  status: z.enum(DEFECT_STATES).optional(),
  level: z.coerce.number().int().min(1).max(5).optional(),
  /** Found at or after start, before end. */
  start: instant.optional(),
  end: instant.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export type DefectFilter = z.infer<typeof defectFilter>;
export const defectSort = sortRequest(['no', 'level', 'status', 'foundAt']);
export const defectPage = pageRequest.extend(defectFilter.shape).extend(defectSort.shape);
export const defectList = defectFilter.extend(defectSort.shape);

export const defectRecord = z.object({
  id: z.number(),
  no: z.string(),
  siteId: z.number(),
  siteName: z.string(),
  deviceId: z.number().nullable(),
  deviceCode: z.string().nullable(),
  deviceName: z.string().nullable(),
  deviceType: deviceTypeSchema.nullable(),
  level: z.number(),
  description: z.string(),
  photos: z.array(photo),
  status: z.enum(DEFECT_STATES),
  workOrderId: z.number().nullable(),
  workOrderNo: z.string().nullable(),
  workOrderItemId: z.number().nullable(),
  itemName: z.string().nullable(),
  repairOrderId: z.number().nullable(),
  repairOrderNo: z.string().nullable(),
  foundAt: isoTime,
  foundBy: z.number().nullable(),
  foundByName: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type DefectRecord = z.infer<typeof defectRecord>;
export const defectAdd = z.object({
  siteId: ref,
  deviceId: optional(ref),
  level,
  description: trimmed(500),
  photos: photoInput,
  workOrderId: optional(ref),
  foundAt: instant.optional(),
});
export type DefectAdd = z.output<typeof defectAdd>;
export const defectEdit = z.object({
  id: ref,
  /** Absent: unchanged; null: no device. */
  deviceId: optional(ref).optional(),
  level: level.optional(),
  description: trimmed(500).optional(),
  photos: photoInput.optional(),
  status: z.enum(DEFECT_STATES).optional(),
});
export type DefectEdit = z.output<typeof defectEdit>;
/** Devices a defect can name (POST /inspection/defect/record/device/rel/query/list): a station's, with open defects. */
export const defectDeviceFilter = z.object({ siteId: id, deviceType: deviceTypeSchema.optional(), keyword: z.string().trim().max(64).optional() });
export const defectDeviceRecord = z.object({
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  deviceType: deviceTypeSchema,
  openDefects: z.number(),
});

// ── Repair orders ─────────────────────────────────────────────────────────────────────

/**
 * product-spec §4: to be dispatched → pending → processing → to be accepted → completed, or
 * closed. Allocation dispatches; check-in (on site, time recorded, location optional) starts
 * processing; handle submits the work for acceptance; acceptance passes it (completed) or rejects
 * it back to the repairer (processing) with a reason. The catalogue has no close call for repairs
 * (spec §4 lists none): `close` is kept in the machine but no route makes it (decision 0045).
 */
export const REPAIR_STATES = ['toBeDispatched', 'pending', 'processing', 'toBeAccepted', 'completed', 'closed'] as const;
export type RepairState = (typeof REPAIR_STATES)[number];
export const REPAIR_STATE_LABELS: Record<RepairState, string> = {
  toBeDispatched: '待派单',
  pending: '待处理',
  processing: '处理中',
  toBeAccepted: '待验收',
  completed: '已完成',
  closed: '已关闭',
};
export const REPAIR_ACTIONS = ['allocate', 'checkIn', 'handle', 'accept', 'reject', 'close'] as const;
export type RepairAction = (typeof REPAIR_ACTIONS)[number];
export const REPAIR_ACTION_LABELS: Record<RepairAction, string> = {
  allocate: '派单',
  checkIn: '签到',
  handle: '处理',
  accept: '验收通过',
  reject: '验收驳回',
  close: '关闭',
};
export const repairMachine = defineStateMachine<RepairState, RepairAction>({
  name: 'repair.order',
  states: REPAIR_STATES,
  stateLabels: REPAIR_STATE_LABELS,
  actionLabels: REPAIR_ACTION_LABELS,
  transitions: {
    allocate: { from: ['toBeDispatched'], to: 'pending' },
    checkIn: { from: ['pending'], to: 'processing', who: [ASSIGNEE_ROLE] },
    handle: { from: ['processing'], to: 'toBeAccepted', who: [ASSIGNEE_ROLE] },
    accept: { from: ['toBeAccepted'], to: 'completed' },
    reject: { from: ['toBeAccepted'], to: 'processing' },
    close: { from: ['toBeDispatched', 'pending', 'processing'], to: 'closed' },
  },
});
export const REPAIR_OPEN_STATES: readonly RepairState[] = ['toBeDispatched', 'pending', 'processing', 'toBeAccepted'];
/** How a repair order came to be. */
export const REPAIR_SOURCES = ['manual', 'defect', 'alarm', 'autoAlarm'] as const;
export type RepairSource = (typeof REPAIR_SOURCES)[number];
export const REPAIR_SOURCE_LABELS: Record<RepairSource, string> = { manual: '手动创建', defect: '缺陷转维修', alarm: '告警转维修', autoAlarm: '告警自动创建' };
/** Repair order numbers: WX + station-local date + id. */
export const REPAIR_NO_PREFIX = 'WX';
/** Default time to repair by level (hours from creation to due). */
export const REPAIR_DUE_HOURS: Record<MaintLevel, number> = { 1: 4, 2: 8, 3: 24, 4: 72, 5: 168 };
/** What the accepter chose for the source alarm when completing (the console does it with the alarm calls). */
export const SOURCE_ACTIONS = ['none', 'shield', 'reset'] as const;
export type SourceAction = (typeof SOURCE_ACTIONS)[number];
export const SOURCE_ACTION_LABELS: Record<SourceAction, string> = { none: '不处理', shield: '屏蔽告警源', reset: '复位告警源' };
export const REPAIR_END_BEFORE_START = '结束时间须晚于开始时间';
export const REJECT_REASON_REQUIRED = '驳回时须填写原因';
/** The telemetry an alarm's repair order carries: the device's last hour before the order. */
export const REPAIR_SNAPSHOT_MS = 3_600_000;

export const repairFilter = z.object({
  companyId: id.optional(),
  siteId: id.optional(),
  deviceId: id.optional(),
  status: z.enum(REPAIR_STATES).optional(),
  level: z.coerce.number().int().min(1).max(5).optional(),
  source: z.enum(REPAIR_SOURCES).optional(),
  assigneeId: id.optional(),
  mine: z.boolean().optional(),
  overdue: z.boolean().optional(),
  alarmId: id.optional(),
  defectId: id.optional(),
  /** Created at or after start, before end. */
  start: instant.optional(),
  end: instant.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export type RepairFilter = z.infer<typeof repairFilter>;
export const repairSort = sortRequest(['no', 'level', 'status', 'dueAt', 'createdAt']);
export const repairPage = pageRequest.extend(repairFilter.shape).extend(repairSort.shape);
export const repairList = repairFilter.extend(repairSort.shape);

export const repairPart = z.object({
  name: trimmed(64),
  model: longText(64, '型号'),
  quantity: z.number().positive('数量须大于0').max(1_000_000),
  unit: longText(16, '单位'),
});
export type RepairPart = z.output<typeof repairPart>;
export const checkInLocation = z.object({
  longitude: z.number().min(-180).max(180).nullable(),
  latitude: z.number().min(-90).max(90).nullable(),
  address: z.string().nullable(),
});

export const repairRecord = z.object({
  id: z.number(),
  no: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  level: z.number(),
  source: z.enum(REPAIR_SOURCES),
  status: z.enum(REPAIR_STATES),
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  timeZone: z.string(),
  deviceId: z.number().nullable(),
  deviceCode: z.string().nullable(),
  deviceName: z.string().nullable(),
  deviceType: deviceTypeSchema.nullable(),
  defectId: z.number().nullable(),
  defectNo: z.string().nullable(),
  alarmId: z.number().nullable(),
  alarmNo: z.string().nullable(),
  /** The source alarm's state now (live): in progress or ended; null without an alarm. */
  alarmStatus: z.enum(['active', 'ended']).nullable(),
  alarmStartedAt: isoTime.nullable(),
  alarmEndedAt: isoTime.nullable(),
  photos: z.array(photo),
  assigneeId: z.number().nullable(),
  assigneeName: z.string().nullable(),
  dueAt: isoTime.nullable(),
  overdue: z.boolean(),
  dispatchedAt: isoTime.nullable(),
  /** The repairer took the order on site (check-in): the end of MTTA. */
  acceptedAt: isoTime.nullable(),
  checkInAt: isoTime.nullable(),
  checkInLocation: checkInLocation.nullable(),
  workStartAt: isoTime.nullable(),
  workEndAt: isoTime.nullable(),
  workDone: z.string().nullable(),
  parts: z.array(repairPart),
  handlePhotos: z.array(photo),
  /** Acceptance passed: the end of MTTR. */
  completedAt: isoTime.nullable(),
  closedAt: isoTime.nullable(),
  rejectCount: z.number(),
  lastRejectReason: z.string().nullable(),
  sourceAction: z.enum(SOURCE_ACTIONS).nullable(),
  note: z.string().nullable(),
  createdBy: z.number().nullable(),
  createdByName: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type RepairRecord = z.infer<typeof repairRecord>;

/** The device's telemetry over the hour before an alarm's repair order: per property, [epoch ms, value]. */
export const telemetrySnapshot = z.object({
  deviceId: z.number(),
  from: isoTime,
  to: isoTime,
  series: z.array(
    z.object({
      identifier: z.string(),
      name: z.string(),
      unit: z.string().nullable(),
      points: z.array(z.tuple([z.number(), z.number().nullable()])),
    }),
  ),
});
export type TelemetrySnapshot = z.infer<typeof telemetrySnapshot>;
export const repairDetail = repairRecord.extend({
  telemetrySnapshot: telemetrySnapshot.nullable(),
  /** The state journal, oldest first. */
  timeline: z.array(maintLogRecord),
  /** The caller's roles toward the order (assignee), for allowedActions(repairMachine, …). */
  roles: z.array(z.string()),
});
export type RepairDetail = z.infer<typeof repairDetail>;

export const REPAIR_TARGET_REQUIRED = '请选择站点，或从告警、缺陷创建';
/**
 * A repair order: by hand (station, description), from a defect (defectId: device and photos carried
 * over) or from an alarm (alarmId: device, level, description and the device's last hour of
 * telemetry carried over; one order per alarm).
 */
export const repairAdd = z
  .object({
    siteId: optional(ref),
    deviceId: optional(ref),
    defectId: optional(ref),
    alarmId: optional(ref),
    level: level.optional(),
    title: trimmed(64).optional(),
    description: longText(500, '故障描述'),
    photos: photoInput,
    /** Dispatched at once (pending) when given; else to be dispatched. */
    assigneeId: optional(ref),
    dueAt: instant.optional(),
    note: noteText,
  })
  .refine((v) => v.siteId !== null || v.defectId !== null || v.alarmId !== null, { message: REPAIR_TARGET_REQUIRED, path: ['siteId'] })
  .refine((v) => v.defectId !== null || v.alarmId !== null || !!v.description, { message: '故障描述不能为空', path: ['description'] });
export type RepairAdd = z.output<typeof repairAdd>;
export const repairEdit = z.object({
  id: ref,
  deviceId: optional(ref).optional(),
  level: level.optional(),
  title: trimmed(64).optional(),
  description: longText(500, '故障描述').optional(),
  photos: photoInput.optional(),
  dueAt: instant.optional(),
  note: noteText.optional(),
});
export type RepairEdit = z.output<typeof repairEdit>;
export const repairAllocation = z.object({ id: ref, assigneeId: ref, note: noteText });
export type RepairAllocation = z.output<typeof repairAllocation>;
export const repairCheckIn = z.object({
  id: ref,
  longitude: optional(z.number().min(-180).max(180)),
  latitude: optional(z.number().min(-90).max(90)),
  address: longText(256, '地址'),
  note: noteText,
});
export type RepairCheckIn = z.output<typeof repairCheckIn>;
export const repairHandle = z
  .object({
    id: ref,
    workDone: trimmed(500),
    parts: z.array(repairPart).max(50, '备件不能超过50项').default([]),
    photos: photoInput,
    startAt: instant,
    endAt: instant,
    note: noteText,
  })
  .refine((v) => v.endAt.getTime() > v.startAt.getTime(), { message: REPAIR_END_BEFORE_START, path: ['endAt'] });
export type RepairHandle = z.output<typeof repairHandle>;
export const repairAcceptance = z
  .object({
    id: ref,
    /** true passes it (completed), false returns it to the repairer (processing). */
    pass: z.boolean(),
    reason: noteText,
    /** What the accepter chose for the source alarm (recorded; the console does it). */
    sourceAction: z.enum(SOURCE_ACTIONS).optional(),
  })
  .refine((v) => v.pass || !!v.reason, { message: REJECT_REASON_REQUIRED, path: ['reason'] });
export type RepairAcceptance = z.output<typeof repairAcceptance>;

/** Devices with their repairs (POST /inspection/repair/order/device/rel/query/page). */
export const repairDeviceFilter = z.object({
  companyId: id.optional(),
  siteId: id.optional(),
  deviceType: deviceTypeSchema.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export const repairDevicePage = pageRequest.extend(repairDeviceFilter.shape);
export const repairDeviceRecord = z.object({
  deviceId: z.number(),
  deviceCode: z.string(),
  deviceName: z.string(),
  deviceType: deviceTypeSchema,
  siteId: z.number(),
  siteName: z.string(),
  repairCount: z.number(),
  openCount: z.number(),
  lastRepairAt: isoTime.nullable(),
});

/**
 * Automatic repair orders from alarms (rule 6), per company: alarms of level ≤ maxLevel that stay
 * open more than openMinutes get one order each (never two).
 */
export const REPAIR_AUTO_MAX_LEVEL = 4;
export const REPAIR_AUTO_MAX_MINUTES = 1440;
export const AUTO_LEVEL_RANGE = '等级上限应为1-4';
export const AUTO_MINUTES_RANGE = '持续分钟数应为1-1440';
export const repairAutoRule = z.object({
  enabled: z.boolean(),
  maxLevel: z.number().int(AUTO_LEVEL_RANGE).min(1, AUTO_LEVEL_RANGE).max(REPAIR_AUTO_MAX_LEVEL, AUTO_LEVEL_RANGE),
  openMinutes: z.number().int(AUTO_MINUTES_RANGE).min(1, AUTO_MINUTES_RANGE).max(REPAIR_AUTO_MAX_MINUTES, AUTO_MINUTES_RANGE),
});
export type RepairAutoRule = z.infer<typeof repairAutoRule>;
export const REPAIR_AUTO_DEFAULT: RepairAutoRule = { enabled: true, maxLevel: 2, openMinutes: 10 };

/**
 * The rule's calls (extension, decision 0034): read and set one company's rule. A company without
 * a row of its own runs on the default (`custom` false).
 */
export const repairAutoRuleQuery = z.object({ companyId: ref });
export const repairAutoRuleEdit = repairAutoRule.extend({ companyId: ref });
export type RepairAutoRuleEdit = z.infer<typeof repairAutoRuleEdit>;
export const repairAutoRuleRecord = repairAutoRule.extend({
  companyId: z.number(),
  custom: z.boolean(),
  updatedByName: z.string().nullable(),
  updatedAt: isoTime.nullable(),
});
export type RepairAutoRuleRecord = z.infer<typeof repairAutoRuleRecord>;

// ── Overview ──────────────────────────────────────────────────────────────────────────

/** Stations of a company (and those under it), one station, or every station in the caller's scope. */
export const overviewQuery = z.object({ companyId: id.optional(), siteId: id.optional() });
export type OverviewQuery = z.infer<typeof overviewQuery>;

const typeCounts = z.object({
  /** Open now. */
  open: z.number(),
  /** Open and past due. */
  overdue: z.number(),
  /** Due on the station-local today (open or done). */
  dueToday: z.number(),
  /** Completed in the station-local current month. */
  completedThisMonth: z.number(),
});
export const overviewSummary = z.object({
  inspection: typeCounts,
  repair: typeCounts,
  openDefects: z.number(),
  /** Over the alarms' repair orders of the station-local current month, in minutes (null without any). */
  mttaMinutes: z.number().nullable(),
  mttrMinutes: z.number().nullable(),
});
export type OverviewSummary = z.infer<typeof overviewSummary>;

/** Days (station-local dates) or months; at most 366 days. */
export const overviewStatisticQuery = overviewQuery
  .extend({ from: localDate, to: localDate, bucket: z.enum(['day', 'month']).default('day') })
  .refine((v) => v.to >= v.from, { message: '结束日期不能早于开始日期', path: ['to'] })
  .refine((v) => daysBetween(v.from, v.to) <= 366, { message: '统计时间范围不能超过366天', path: ['to'] });
export type OverviewStatisticQuery = z.output<typeof overviewStatisticQuery>;
/** MTTA / MTTR of one station and station-local month, over repair orders raised from alarms started that month. */
export const mttRecord = z.object({
  siteId: z.number(),
  siteName: z.string(),
  month: monthKey,
  /** Alarm repair orders whose alarm started in the month. */
  orders: z.number(),
  /** Mean alarm start → order accepted (check-in), minutes to one decimal; null when none was accepted. */
  mttaMinutes: z.number().nullable(),
  /** Mean alarm start → order completed (acceptance passed), minutes to one decimal; null when none completed. */
  mttrMinutes: z.number().nullable(),
});
export type MttRecord = z.infer<typeof mttRecord>;
export const overviewStatistic = z.object({
  bucket: z.enum(['day', 'month']),
  /** One point per day (YYYY-MM-DD) or month (YYYY-MM), station-local. */
  points: z.array(
    z.object({
      date: z.string(),
      inspectionCreated: z.number(),
      inspectionCompleted: z.number(),
      repairCreated: z.number(),
      repairCompleted: z.number(),
      defectsFound: z.number(),
    }),
  ),
  mtt: z.array(mttRecord),
});
export type OverviewStatistic = z.infer<typeof overviewStatistic>;

export const overviewCalendarQuery = overviewQuery.extend({ month: monthKey, assigneeId: id.optional() });
export type OverviewCalendarQuery = z.infer<typeof overviewCalendarQuery>;
export const calendarDay = z.object({
  date: localDate,
  /** Orders due that day (by their due time, station-local). */
  inspectionDue: z.number(),
  repairDue: z.number(),
  /** Orders completed that day. */
  inspectionDone: z.number(),
  repairDone: z.number(),
  /** Of those due that day: not completed by their due time. */
  overdue: z.number(),
});
export const overviewCalendar = z.object({ month: monthKey, days: z.array(calendarDay) });
export type OverviewCalendar = z.infer<typeof overviewCalendar>;

export const overviewServiceQuery = overviewQuery
  .extend({ from: localDate, to: localDate })
  .refine((v) => v.to >= v.from, { message: '结束日期不能早于开始日期', path: ['to'] })
  .refine((v) => daysBetween(v.from, v.to) <= 366, { message: '统计时间范围不能超过366天', path: ['to'] });
export const serviceRecord = z.object({
  userId: z.number(),
  name: z.string(),
  /** Open orders assigned now (pending, processing, to be accepted). */
  load: z.number(),
  overdueOpen: z.number(),
  /** Completed within the range (station-local dates), and of those by their due time. */
  completed: z.number(),
  onTime: z.number(),
  /** onTime / completed, 0–1; null when none completed. */
  onTimeRate: z.number().nullable(),
  inspectionCompleted: z.number(),
  repairCompleted: z.number(),
});
export type ServiceRecord = z.infer<typeof serviceRecord>;

export const overviewSiteQuery = overviewQuery.extend({ keyword: z.string().trim().max(64).optional() });
export const overviewSiteRecord = z.object({
  siteId: z.number(),
  siteName: z.string(),
  siteCode: z.string(),
  timeZone: z.string(),
  openInspection: z.number(),
  openRepair: z.number(),
  overdue: z.number(),
  dueToday: z.number(),
  openDefects: z.number(),
});
export type OverviewSiteRecord = z.infer<typeof overviewSiteRecord>;

// ── Domain events ─────────────────────────────────────────────────────────────────────

/** The domain event each action emits (besides the helper's state.changed), by machine. */
export const PLAN_EVENTS: Record<PlanAction, string> = {
  start: 'plan.started',
  stop: 'plan.stopped',
  activate: 'plan.activated',
  pause: 'plan.paused',
  expire: 'plan.expired',
};
export const WORK_ORDER_EVENTS: Record<WorkOrderAction, string> = {
  allocate: 'workorder.assigned',
  handle: 'workorder.handled',
  complete: 'workorder.completed',
  close: 'workorder.closed',
};
export const REPAIR_EVENTS: Record<RepairAction, string> = {
  allocate: 'repair.assigned',
  checkIn: 'repair.checkedIn',
  handle: 'repair.handled',
  accept: 'repair.accepted',
  reject: 'repair.rejected',
  close: 'repair.closed',
};

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const maintenanceEndpoints = {
  // Plans
  planPage: endpoint({ method: 'POST', path: '/inspection/plan/query/page', body: planPage, response: pageOf(planRecord) }),
  planList: endpoint({ method: 'POST', path: '/inspection/plan/query/list', body: planList, response: z.array(planRecord) }),
  planOne: endpoint({ method: 'POST', path: '/inspection/plan/query/one', body: idBody, response: planRecord }),
  planAdd: endpoint({ method: 'POST', path: '/inspection/plan/add', body: planAdd, response: created }),
  planEdit: endpoint({ method: 'POST', path: '/inspection/plan/edit', body: planEdit, response: done }),
  planStartOrStop: endpoint({ method: 'POST', path: '/inspection/plan/startOrStop', body: idBody, response: planStatusResult }),
  planStart: endpoint({ method: 'GET', path: '/inspection/plan/start', query: idQuery, response: planStatusResult }),
  planSitePage: endpoint({ method: 'POST', path: '/inspection/plan/site/rel/query/page', body: planSitePage, response: pageOf(planSiteRecord) }),
  planSiteList: endpoint({ method: 'POST', path: '/inspection/plan/site/rel/query/list', body: planSiteFilter, response: z.array(planSiteRecord) }),
  itemRelPage: endpoint({ method: 'POST', path: '/inspection/inspection/item/rel/query/page', body: itemRelPage, response: pageOf(itemRelRecord) }),

  // Items
  itemPage: endpoint({ method: 'POST', path: '/inspection/items/query/page', body: itemPage, response: pageOf(itemRecord) }),
  itemList: endpoint({ method: 'POST', path: '/inspection/items/query/list', body: itemExport, response: z.array(itemRecord) }),
  itemAdd: endpoint({ method: 'POST', path: '/inspection/items/add', body: itemAdd, response: created }),
  itemEdit: endpoint({ method: 'POST', path: '/inspection/items/edit', body: itemEdit, response: done }),
  itemExport: endpoint({ method: 'POST', path: '/inspection/items/export', body: itemExport, response: FILE }),
  itemDelete: endpoint({ method: 'GET', path: '/inspection/items/delete', query: idQuery, response: done }),
  itemImport: endpoint({ method: 'POST', path: '/inspection/items/import', multipart: true, response: itemImportResult }),

  // Work orders
  orderPage: endpoint({ method: 'POST', path: '/inspection/work/order/query/page', body: workOrderPage, response: pageOf(workOrderRecord) }),
  orderList: endpoint({ method: 'POST', path: '/inspection/work/order/query/list', body: workOrderList, response: z.array(workOrderRecord) }),
  orderOne: endpoint({ method: 'POST', path: '/inspection/work/order/query/one', body: idBody, response: workOrderDetail }),
  orderAdd: endpoint({ method: 'POST', path: '/inspection/work/order/add', body: workOrderAdd, response: created }),
  orderEdit: endpoint({ method: 'POST', path: '/inspection/work/order/edit', body: workOrderEdit, response: done }),
  orderExport: endpoint({ method: 'POST', path: '/inspection/work/order/export', body: workOrderList, response: FILE }),
  orderAllocation: endpoint({ method: 'POST', path: '/inspection/work/order/allocation', body: workOrderAllocation, response: done }),
  orderHandle: endpoint({ method: 'POST', path: '/inspection/work/order/handle', body: workOrderHandle, response: done }),
  orderClose: endpoint({ method: 'POST', path: '/inspection/work/order/close', body: workOrderClose, response: done }),
  orderLogPage: endpoint({ method: 'POST', path: '/inspection/work/order/log/query/page', body: workOrderLogPage, response: pageOf(maintLogRecord) }),
  orderLogOne: endpoint({ method: 'POST', path: '/inspection/work/order/log/query/one', body: idBody, response: maintLogRecord }),

  // Defects
  defectPage: endpoint({ method: 'POST', path: '/inspection/defect/record/query/page', body: defectPage, response: pageOf(defectRecord) }),
  defectList: endpoint({ method: 'POST', path: '/inspection/defect/record/query/list', body: defectList, response: z.array(defectRecord) }),
  defectOne: endpoint({ method: 'POST', path: '/inspection/defect/record/query/one', body: idBody, response: defectRecord }),
  defectAdd: endpoint({ method: 'POST', path: '/inspection/defect/record/add', body: defectAdd, response: created }),
  defectEdit: endpoint({ method: 'POST', path: '/inspection/defect/record/edit', body: defectEdit, response: done }),
  defectExport: endpoint({ method: 'POST', path: '/inspection/defect/record/export', body: defectList, response: FILE }),
  defectDeviceList: endpoint({ method: 'POST', path: '/inspection/defect/record/device/rel/query/list', body: defectDeviceFilter, response: z.array(defectDeviceRecord) }),

  // Overview
  overviewSummary: endpoint({ method: 'POST', path: '/inspection/overview/summary', body: overviewQuery, response: overviewSummary }),
  overviewStatistic: endpoint({ method: 'POST', path: '/inspection/overview/statistic', body: overviewStatisticQuery, response: overviewStatistic }),
  overviewCalendar: endpoint({ method: 'POST', path: '/inspection/overview/calendar', body: overviewCalendarQuery, response: overviewCalendar }),
  overviewService: endpoint({ method: 'POST', path: '/inspection/overview/service', body: overviewServiceQuery, response: z.array(serviceRecord) }),
  overviewSiteList: endpoint({ method: 'POST', path: '/inspection/overview/site/list', body: overviewSiteQuery, response: z.array(overviewSiteRecord) }),

  // Repair orders
  repairPage: endpoint({ method: 'POST', path: '/inspection/repair/order/query/page', body: repairPage, response: pageOf(repairRecord) }),
  repairList: endpoint({ method: 'POST', path: '/inspection/repair/order/query/list', body: repairList, response: z.array(repairRecord) }),
  repairOne: endpoint({ method: 'POST', path: '/inspection/repair/order/query/one', body: idBody, response: repairDetail }),
  repairAdd: endpoint({ method: 'POST', path: '/inspection/repair/order/add', body: repairAdd, response: created }),
  repairEdit: endpoint({ method: 'POST', path: '/inspection/repair/order/edit', body: repairEdit, response: done }),
  repairExport: endpoint({ method: 'POST', path: '/inspection/repair/order/export', body: repairList, response: FILE }),
  repairAllocation: endpoint({ method: 'POST', path: '/inspection/repair/order/allocation', body: repairAllocation, response: done }),
  repairCheckIn: endpoint({ method: 'POST', path: '/inspection/repair/order/check/in', body: repairCheckIn, response: done }),
  repairHandle: endpoint({ method: 'POST', path: '/inspection/repair/order/handle', body: repairHandle, response: done }),
  repairAcceptance: endpoint({ method: 'POST', path: '/inspection/repair/order/acceptance/inspection', body: repairAcceptance, response: done }),
  repairDevicePage: endpoint({ method: 'POST', path: '/inspection/repair/order/device/rel/query/page', body: repairDevicePage, response: pageOf(repairDeviceRecord) }),
  // Extension (decision 0034): the automatic-order rule of a company.
  repairAutoRuleOne: endpoint({ method: 'POST', path: '/inspection/repair/auto/rule/query/one', body: repairAutoRuleQuery, response: repairAutoRuleRecord }),
  repairAutoRuleEdit: endpoint({ method: 'POST', path: '/inspection/repair/auto/rule/edit', body: repairAutoRuleEdit, response: done }),
};
