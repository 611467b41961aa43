import { z } from 'zod';
import { emptyBody, id, idBody, idQuery, pageRequest, sortRequest } from './common.ts';
import { ALARM_LEVELS } from './constants.ts';
import { created, done, endpoint, isoTime, pageOf } from './endpoint.ts';
import { FIRMWARE_EVENT_LABELS, FIRMWARE_EVENT_PAYLOADS } from './firmware.ts';

/**
 * Hooks (issue 21; api-catalogue "Hooks"; decision 0041): integrators connect the console to their
 * own systems. A **trigger** is a domain event of the outbox (alarm.opened, device.offline, …) in
 * the catalogue the modules' manifests declare; a **hook** ("relate trigger") attaches to one
 * trigger with an optional filter (stations, alarm levels, statuses), a script that turns the
 * event into the request body (QuickJS sandbox; null skips), a target (method, URL, headers), a
 * timeout and a retry policy; **parameters** are the values a script can use (the trigger's
 * payload fields, and user constants and secrets of the company); the dispatcher delivers each
 * (hook, event) once, signed the Standard Webhooks way, and writes one **execution record** per
 * attempt.
 *
 * Catalogue calls (17): /hook/param/query/list; /hook/trigger/query/{list,page,one}, GET
 * /hook/trigger/scan; /hook/relate/param/{query/list,query/one,add,edit}, GET …/delete;
 * /hook/relate/trigger/{query/page,query/one,add,edit}, GET …/delete, GET …/active;
 * /hook/exec/record/query/page.
 * Extensions (decision 0041, marked below): /hook/exec/record/query/one, /hook/exec/record/replay,
 * /hook/relate/trigger/test, /hook/relate/trigger/secret/rotate, /hook/setting/query/one,
 * /hook/setting/edit.
 *
 * Scope: hooks, parameters and records belong to a company; a user sees those of their companies.
 * The trigger catalogue is global. Secrets (a secret parameter's value, a hook's signing secret)
 * are write-only: the signing secret is answered once, when made (add, rotate), and a secret
 * parameter's value never.
 *
 * The script: top-level code defines `function main(event, params)`; `event` is
 * `{ id, type, timestamp, data }` (data: the trigger's payload), `params` the company's parameters
 * by name (secrets in clear inside the sandbox, masked in records). It answers the request body:
 * an object or array is sent as JSON, a string as it is, null/undefined skips the delivery (record
 * state "skipped"). A hook without a script sends the Standard Webhooks envelope
 * `{ type, timestamp, data }` as JSON.
 */

// ── Shared pieces ─────────────────────────────────────────────────────────────────────

const ref = z.number({ error: '须为数字编号' }).int().positive().max(2 ** 31 - 1);
const name64 = (label: string) => z.string({ error: `${label}不能为空` }).trim().min(1, `${label}不能为空`).max(64, `${label}不能超过64个字符`);
const remark = z.string().trim().max(200, '备注不能超过200个字符').optional().nullable().transform((v) => (v ? v : null));
const rowCompany = { id: z.number(), companyId: z.number(), companyName: z.string() };
const rowAudit = { createdAt: isoTime, updatedAt: isoTime, createdByName: z.string().nullable() };
const timeFilter = z.iso.datetime({ offset: true, error: '时间格式不正确' });

/** The spec's answer to a script that does not compile or run ("Script error, please check and modify"), followed by "line:col message". */
export const HOOK_SCRIPT_ERROR = '脚本错误，请检查修改';
export const HOOK_SCRIPT_MAX = 100_000;
/** Total size of a hook's custom headers (names + values). */
export const HOOK_HEADERS_MAX_BYTES = 8 * 1024;
export const HOOK_HEADERS_MAX_COUNT = 50;
export const HOOK_TIMEOUT_MIN_MS = 1_000;
export const HOOK_TIMEOUT_MAX_MS = 30_000;
export const HOOK_RETRIES_MAX = 10;
export const HOOK_BACKOFF_MIN_MS = 1_000;
export const HOOK_BACKOFF_MAX_MS = 3_600_000;
/** Request and response bodies kept in a record: the first 64 KB. */
export const HOOK_RECORD_BODY_MAX_BYTES = 64 * 1024;
export const HOOK_URL_MAX = 2048;

export const HOOK_URL_INVALID = '目标地址须为 http(s) 地址';
export const HOOK_URL_PRIVATE = '目标地址指向本机、内网、链路本地或云元数据地址，已被拒绝（管理员可在钩子设置中允许内网目标）';
export const HOOK_HEADER_NAME_INVALID = '请求头名称格式不正确';
export const HOOK_HEADER_RESERVED = '该请求头由系统设置，不能自定义';
export const HOOK_HEADERS_TOO_LARGE = `请求头总长度不能超过${HOOK_HEADERS_MAX_BYTES}字节`;
export const HOOK_TIMEOUT_RANGE = `超时时间应为${HOOK_TIMEOUT_MIN_MS / 1000}-${HOOK_TIMEOUT_MAX_MS / 1000}秒`;
export const HOOK_RETRIES_RANGE = `重试次数应为0-${HOOK_RETRIES_MAX}`;
export const HOOK_BACKOFF_RANGE = `退避基数应为${HOOK_BACKOFF_MIN_MS / 1000}-${HOOK_BACKOFF_MAX_MS / 1000}秒`;
export const HOOK_PARAM_NAME_FORMAT = '参数名只能包含字母、数字和下划线，且以字母开头';
export const HOOK_TRIGGER_UNKNOWN = '触发器不存在或已失效';
export const HOOK_FILTER_NOT_APPLICABLE = '该触发器的事件不支持此过滤条件';

/**
 * Headers the dispatcher sets itself (signature, content, connection): a hook may not set them.
 * Compared lower-case.
 */
export const HOOK_RESERVED_HEADERS = [
  'host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer',
  'proxy-authorization', 'proxy-connection', 'expect', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'user-agent',
] as const;

// ── Domain events (the trigger catalogue's payloads) ──────────────────────────────────

/**
 * The payloads of the domain events a hook can attach to, as written to the outbox. The server's
 * modules declare the events they emit in their manifests (defineModule `events`) with these
 * schemas; "scan" builds the catalogue from the manifests. The JSON Schema of each is answered
 * by the trigger calls (`payloadSchema`) and its top-level fields as `fields`.
 */
const at = z.string().describe('ISO 8601');
const orderPayload = z.object({
  id: z.number().int().describe('工单编号ID'),
  no: z.string().describe('工单号'),
  siteId: z.number().int().describe('站点ID'),
  from: z.string().nullable().describe('原状态'),
  to: z.string().describe('新状态'),
  userId: z.number().int().nullable().describe('操作人ID'),
  assigneeId: z.number().int().nullable().describe('处理人ID'),
  note: z.string().nullable().describe('备注'),
});
const alarmPayload = z.object({
  id: z.number().int().describe('告警ID'),
  no: z.string().describe('告警编号'),
  siteId: z.number().int().describe('站点ID'),
  deviceId: z.number().int().describe('设备ID'),
  level: z.number().int().describe('告警等级'),
  description: z.string().describe('描述'),
  startedAt: at.describe('开始时间'),
});
const presencePayload = z.object({
  deviceId: z.number().int().describe('设备ID'),
  code: z.string().describe('设备编码'),
  siteId: z.number().int().describe('站点ID'),
  at: at.describe('变化时间'),
});
const planPayload = z.object({
  id: z.number().int().describe('计划ID'),
  name: z.string().describe('计划名称'),
  companyId: z.number().int().describe('公司ID'),
  from: z.string().describe('原状态'),
  to: z.string().describe('新状态'),
  userId: z.number().int().nullable().describe('操作人ID'),
  ownerId: z.number().int().nullable().describe('负责人ID'),
  note: z.string().nullable().describe('备注'),
});
const repairPayload = orderPayload.extend({ alarmId: z.number().int().nullable().describe('关联告警ID') });
const statementPayload = z.object({
  id: z.number().int().describe('结算单ID'),
  siteId: z.number().int().describe('站点ID'),
  month: z.string().describe('结算月份'),
  from: z.string().nullable().describe('原状态'),
  to: z.string().describe('新状态'),
  userId: z.number().int().nullable().describe('操作人ID'),
  investorUserId: z.number().int().describe('投资方用户ID'),
  powerUserUserId: z.number().int().describe('用电方用户ID'),
  note: z.string().nullable().describe('备注'),
});
const strategyPayload = z.object({
  strategyId: z.number().int().describe('策略ID'),
  siteId: z.number().int().describe('站点ID'),
  deviceCode: z.string().describe('EMS编码'),
  hash: z.string().describe('下发的策略摘要'),
  emsHash: z.string().describe('EMS运行的策略摘要'),
  at: at.describe('时间'),
});

export const HOOK_EVENT_PAYLOADS = {
  'alarm.opened': alarmPayload,
  'alarm.ended': alarmPayload,
  'alarm.shielded': z.object({
    shieldId: z.number().int().describe('屏蔽ID'),
    siteId: z.number().int().describe('站点ID'),
    deviceId: z.number().int().describe('设备ID'),
    dictId: z.number().int().describe('告警字典ID'),
    cancelled: z.boolean().describe('是否为取消屏蔽'),
  }),
  'alarm.unacknowledged': alarmPayload.extend({ minutes: z.number().int().describe('持续分钟数') }),
  'device.online': presencePayload,
  'device.offline': presencePayload,
  'device.offlineFor': presencePayload.extend({ minutes: z.number().int().describe('持续分钟数') }),
  'site.changed': z.object({
    siteId: z.number().int().describe('站点ID'),
    companyId: z.number().int().describe('公司ID'),
    change: z.enum(['added', 'edited', 'deleted']).describe('变化'),
  }),
  'price.changed': z.object({ siteIds: z.array(z.number().int()).describe('站点ID'), fromDate: z.string().describe('生效日期') }),
  'plan.started': planPayload,
  'plan.stopped': planPayload,
  'plan.activated': planPayload,
  'plan.paused': planPayload,
  'plan.expired': planPayload,
  'workorder.created': orderPayload,
  'workorder.assigned': orderPayload,
  'workorder.handled': orderPayload,
  'workorder.completed': orderPayload,
  'workorder.closed': orderPayload,
  'workorder.overdue': z.object({
    id: z.number().int().describe('工单编号ID'),
    no: z.string().describe('工单号'),
    siteId: z.number().int().describe('站点ID'),
    assigneeId: z.number().int().nullable().describe('处理人ID'),
    dueAt: at.describe('截止时间'),
    minutes: z.number().int().describe('超期分钟数'),
  }),
  'defect.recorded': z.object({
    id: z.number().int().describe('缺陷ID'),
    no: z.string().describe('缺陷编号'),
    siteId: z.number().int().describe('站点ID'),
    deviceId: z.number().int().nullable().describe('设备ID'),
    level: z.number().int().describe('缺陷等级'),
    workOrderId: z.number().int().nullable().describe('巡检工单ID'),
    userId: z.number().int().nullable().describe('记录人ID'),
  }),
  'repair.created': repairPayload,
  'repair.assigned': repairPayload,
  'repair.checkedIn': repairPayload,
  'repair.handled': repairPayload,
  'repair.accepted': repairPayload,
  'repair.rejected': repairPayload,
  'repair.closed': repairPayload,
  'statement.generated': statementPayload,
  'statement.investorConfirmed': statementPayload,
  'statement.powerUserConfirmed': statementPayload,
  'statement.locked': statementPayload,
  'statement.disputed': statementPayload,
  'strategy.synchronised': strategyPayload,
  'strategy.drifted': strategyPayload,
  'demand.targetSet': z.object({
    settingId: z.number().int().describe('设置ID'),
    siteId: z.number().int().describe('站点ID'),
    month: z.string().nullable().describe('月份'),
    targetKw: z.number().describe('目标需量(kW)'),
    marginKw: z.number().describe('裕度(kW)'),
    allowDischarge: z.boolean().describe('允许放电'),
    version: z.number().int().describe('版本'),
    userId: z.number().int().describe('操作人ID'),
  }),
  ...FIRMWARE_EVENT_PAYLOADS,
} as const;
export type HookEventType = keyof typeof HOOK_EVENT_PAYLOADS;
export type HookEventPayload<T extends HookEventType> = z.infer<(typeof HOOK_EVENT_PAYLOADS)[T]>;

/** Source-text names of the events (the console translates them). */
export const HOOK_EVENT_LABELS: Record<HookEventType, string> = {
  'alarm.opened': '告警产生',
  'alarm.ended': '告警结束',
  'alarm.shielded': '告警屏蔽变化',
  'alarm.unacknowledged': '告警未处理超时',
  'device.online': '设备上线',
  'device.offline': '设备离线',
  'device.offlineFor': '设备离线超时',
  'site.changed': '站点变更',
  'price.changed': '电价变更',
  'plan.started': '巡检计划启动',
  'plan.stopped': '巡检计划停止',
  'plan.activated': '巡检计划生效',
  'plan.paused': '巡检计划暂停',
  'plan.expired': '巡检计划到期',
  'workorder.created': '巡检工单创建',
  'workorder.assigned': '巡检工单分配',
  'workorder.handled': '巡检工单处理',
  'workorder.completed': '巡检工单完成',
  'workorder.closed': '巡检工单关闭',
  'workorder.overdue': '巡检工单超期',
  'defect.recorded': '缺陷记录',
  'repair.created': '维修工单创建',
  'repair.assigned': '维修工单派单',
  'repair.checkedIn': '维修工单签到',
  'repair.handled': '维修工单处理',
  'repair.accepted': '维修工单验收通过',
  'repair.rejected': '维修工单验收驳回',
  'repair.closed': '维修工单关闭',
  'statement.generated': '结算单生成',
  'statement.investorConfirmed': '结算单投资方确认',
  'statement.powerUserConfirmed': '结算单用电方确认',
  'statement.locked': '结算单锁定',
  'statement.disputed': '结算单争议',
  'strategy.synchronised': '运行策略已同步',
  'strategy.drifted': '运行策略偏离',
  'demand.targetSet': '需量目标设置',
  ...FIRMWARE_EVENT_LABELS,
};

/**
 * The filters a hook can put on an event, by the payload fields they read: `site` the payload's
 * siteId (or any of siteIds), `level` its level, `status` its `to` (the new state).
 */
export const HOOK_FILTER_KINDS = ['site', 'level', 'status'] as const;
export type HookFilterKind = (typeof HOOK_FILTER_KINDS)[number];

/** The filters an event's payload supports, from its top-level field names. */
export function hookFilterKinds(fieldNames: readonly string[]): HookFilterKind[] {
  const has = (n: string) => fieldNames.includes(n);
  const kinds: HookFilterKind[] = [];
  if (has('siteId') || has('siteIds')) kinds.push('site');
  if (has('level')) kinds.push('level');
  if (has('to')) kinds.push('status');
  return kinds;
}

// ── Triggers (/hook/trigger): the catalogue ───────────────────────────────────────────

/** A catalogue entry is active while some module declares it; "gone" once a scan no longer finds it (hooks on it stay, and never fire). */
export const HOOK_TRIGGER_STATUSES = ['active', 'gone'] as const;
export type HookTriggerStatus = (typeof HOOK_TRIGGER_STATUSES)[number];
export const HOOK_TRIGGER_STATUS_LABELS: Record<HookTriggerStatus, string> = { active: '可用', gone: '已失效' };

/** One top-level field of a trigger's payload (the detail page's field table; the script's `event.data.<name>`). */
export const hookPayloadField = z.object({
  name: z.string(),
  /** JSON Schema type: string, integer, number, boolean, array, object (with "|null" when nullable). */
  type: z.string(),
  /** Source-text description (translated by the console). */
  label: z.string().nullable(),
  required: z.boolean(),
  nullable: z.boolean(),
  /** The allowed values, for enumerations. */
  values: z.array(z.string()).nullable(),
});
export type HookPayloadField = z.infer<typeof hookPayloadField>;

/**
 * The catalogue entry as a module declares it (the server's manifests; scan compares these with
 * the stored catalogue).
 */
export interface HookTriggerDef {
  eventType: string;
  module: string;
  /** Source-text name. */
  name: string;
  /** JSON Schema of the payload (draft 2020-12, as zod's toJSONSchema writes it). */
  payloadSchema: Record<string, unknown>;
}

export const hookTriggerRecord = z.object({
  id: z.number(),
  eventType: z.string(),
  /** The server module that emits it (alarm, device, maintenance, …). */
  module: z.string(),
  /** Source-text name (HOOK_EVENT_LABELS). */
  name: z.string(),
  status: z.enum(HOOK_TRIGGER_STATUSES),
  payloadSchema: z.record(z.string(), z.unknown()),
  fields: z.array(hookPayloadField),
  filterKinds: z.array(z.enum(HOOK_FILTER_KINDS)),
  /** A sample event (what "test" sends when no payload is given). */
  example: z.record(z.string(), z.unknown()),
  firstSeenAt: isoTime,
  lastSeenAt: isoTime,
  /** Hooks attached to it (in the caller's companies), and how many of them are active. */
  hookCount: z.number(),
  activeHookCount: z.number(),
});
export type HookTriggerRecord = z.infer<typeof hookTriggerRecord>;

export const hookTriggerFilter = z.object({
  keyword: z.string().trim().max(64).optional(),
  module: z.string().trim().max(32).optional(),
  status: z.enum(HOOK_TRIGGER_STATUSES).optional(),
});
export type HookTriggerFilter = z.infer<typeof hookTriggerFilter>;
export const hookTriggerSort = sortRequest(['eventType', 'module', 'status', 'firstSeenAt', 'lastSeenAt']);
export const hookTriggerPage = pageRequest.extend(hookTriggerFilter.shape).extend(hookTriggerSort.shape);
export type HookTriggerPage = z.input<typeof hookTriggerPage>;
/** One trigger by id or by event type. */
export const hookTriggerOne = z
  .object({ id: ref.optional(), eventType: z.string().trim().min(1).max(64).optional() })
  .refine((v) => v.id !== undefined || v.eventType !== undefined, '须提供触发器ID或事件类型');
export type HookTriggerOne = z.input<typeof hookTriggerOne>;

/** GET /hook/trigger/scan: `dryRun` reports what would change without writing. */
export const hookTriggerScanQuery = z.object({
  dryRun: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
});
/** What a scan changed (event types). */
export const hookTriggerScanResult = z.object({
  added: z.array(z.string()),
  /** Declared no more: marked gone. */
  gone: z.array(z.string()),
  /** Gone before, declared again. */
  revived: z.array(z.string()),
  /** The payload schema or name changed. */
  changed: z.array(z.string()),
  unchanged: z.number(),
  dryRun: z.boolean(),
  scannedAt: isoTime,
});
export type HookTriggerScanResult = z.infer<typeof hookTriggerScanResult>;

// ── Parameters (/hook/param, /hook/relate/param) ──────────────────────────────────────

/** A user parameter is a constant (value answered) or a secret (sealed at rest, never answered, masked in records). */
export const HOOK_PARAM_KINDS = ['constant', 'secret'] as const;
export type HookParamKind = (typeof HOOK_PARAM_KINDS)[number];
export const HOOK_PARAM_KIND_LABELS: Record<HookParamKind, string> = { constant: '常量', secret: '密钥' };
/** What a script sees in the records instead of a secret's value. */
export const HOOK_SECRET_MASK = '******';

const paramName = z.string({ error: '参数名不能为空' }).trim().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, HOOK_PARAM_NAME_FORMAT);
const paramFields = {
  companyId: ref,
  name: paramName,
  kind: z.enum(HOOK_PARAM_KINDS, { error: '参数类型应为 constant 或 secret' }),
  /**
   * The value (at most 4096 characters). A secret on edit: absent keeps the stored one. Required
   * for a constant and a new secret.
   */
  value: z.string().max(4096, '参数值不能超过4096个字符').optional(),
  remark,
};
export const hookParamAdd = z.object(paramFields).refine((v) => v.value !== undefined, { message: '参数值不能为空', path: ['value'] });
export type HookParamAdd = z.input<typeof hookParamAdd>;
export const hookParamEdit = z.object({ id: ref, ...paramFields }).refine((v) => v.kind === 'secret' || v.value !== undefined, { message: '参数值不能为空', path: ['value'] });
export type HookParamEdit = z.input<typeof hookParamEdit>;
export const hookParamFilter = z.object({
  companyId: id.optional(),
  name: z.string().trim().max(64).optional(),
  kind: z.enum(HOOK_PARAM_KINDS).optional(),
});
export type HookParamFilter = z.infer<typeof hookParamFilter>;
export const hookParamRecord = z.object({
  ...rowCompany,
  name: z.string(),
  kind: z.enum(HOOK_PARAM_KINDS),
  /** The constant's value; null for a secret (never answered). */
  value: z.string().nullable(),
  /** Whether a value is stored (a secret's only trace). */
  valueSet: z.boolean(),
  remark: z.string().nullable(),
  /** Hooks whose script names it (`params.<name>`). */
  usedBy: z.number(),
  ...rowAudit,
});
export type HookParamRecord = z.infer<typeof hookParamRecord>;

/**
 * POST /hook/param/query/list: what a script of a hook on this trigger can use — the trigger's
 * payload fields (`event.data.<name>`), the event's own fields (`event.id`, `event.type`,
 * `event.timestamp`) and the company's parameters (`params.<name>`).
 */
export const hookParamListRequest = z.object({
  eventType: z.string().trim().min(1).max(64).optional(),
  companyId: id.optional(),
});
export type HookParamListRequest = z.input<typeof hookParamListRequest>;
export const HOOK_PARAM_SOURCES = ['event', 'payload', 'constant', 'secret'] as const;
export type HookParamSource = (typeof HOOK_PARAM_SOURCES)[number];
export const hookParamOption = z.object({
  source: z.enum(HOOK_PARAM_SOURCES),
  name: z.string(),
  /** What the script writes: event.data.siteId, params.apiKey, … */
  expression: z.string(),
  type: z.string(),
  label: z.string().nullable(),
  /** For user parameters: its id and company. */
  paramId: z.number().nullable(),
  companyId: z.number().nullable(),
});
export type HookParamOption = z.infer<typeof hookParamOption>;

// ── Hooks (/hook/relate/trigger) ──────────────────────────────────────────────────────

export const HOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export type HookMethod = (typeof HOOK_METHODS)[number];

/** The circuit breaker: closed (delivering); open (paused after consecutive failures, a probe after the cool-down, or re-activate). */
export const HOOK_CIRCUIT_STATES = ['closed', 'open'] as const;
export type HookCircuitState = (typeof HOOK_CIRCUIT_STATES)[number];
export const HOOK_CIRCUIT_STATE_LABELS: Record<HookCircuitState, string> = { closed: '正常', open: '已熔断' };

/** An HTTP header name (RFC 9110 token). */
export const HOOK_HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
export const hookHeader = z.object({
  name: z.string().trim().regex(HOOK_HEADER_NAME, HOOK_HEADER_NAME_INVALID).refine((n) => !(HOOK_RESERVED_HEADERS as readonly string[]).includes(n.toLowerCase()), HOOK_HEADER_RESERVED),
  // No control characters (CR/LF would split the header).
  value: z
    .string()
    .max(HOOK_HEADERS_MAX_BYTES, HOOK_HEADERS_TOO_LARGE)
    .refine((v) => ![...v].some((c) => { const n = c.charCodeAt(0); return (n < 0x20 && n !== 0x09) || n === 0x7f; }), '请求头的值不能包含控制字符'),
});
export type HookHeader = z.infer<typeof hookHeader>;
/** Total bytes of the headers as sent (name: value). */
export function hookHeadersBytes(headers: readonly HookHeader[]): number {
  return headers.reduce((n, h) => n + new TextEncoder().encode(`${h.name}: ${h.value}\r\n`).length, 0);
}
const headers = z
  .array(hookHeader)
  .max(HOOK_HEADERS_MAX_COUNT, `请求头不能超过${HOOK_HEADERS_MAX_COUNT}个`)
  .default([])
  .refine((hs) => hookHeadersBytes(hs) <= HOOK_HEADERS_MAX_BYTES, HOOK_HEADERS_TOO_LARGE)
  .refine((hs) => new Set(hs.map((h) => h.name.toLowerCase())).size === hs.length, '请求头名称不能重复');

/** An http(s) URL without credentials (put them in a header or a secret parameter). */
export const hookUrl = z
  .string({ error: HOOK_URL_INVALID })
  .trim()
  .max(HOOK_URL_MAX, `目标地址不能超过${HOOK_URL_MAX}个字符`)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.username && !u.password;
    } catch {
      return false;
    }
  }, HOOK_URL_INVALID);

/** Which events reach the hook; each list empty or absent: any. */
export const hookFilter = z.object({
  siteIds: z.array(ref).max(500, '站点不能超过500个').default([]),
  levels: z.array(z.number().int().refine((l) => (ALARM_LEVELS as readonly number[]).includes(l), '告警等级不支持')).max(5).default([]),
  /** The payload's new state (`to`). */
  statuses: z.array(z.string().trim().min(1).max(32)).max(20).default([]),
});
export type HookFilter = z.infer<typeof hookFilter>;

/** Retries after the first attempt, and the base of the exponential backoff (full jitter: a wait in [0, base·2^(n-1)], capped at one hour). */
export const hookRetryPolicy = z.object({
  maxRetries: z.number({ error: HOOK_RETRIES_RANGE }).int(HOOK_RETRIES_RANGE).min(0, HOOK_RETRIES_RANGE).max(HOOK_RETRIES_MAX, HOOK_RETRIES_RANGE).default(5),
  backoffMs: z.number({ error: HOOK_BACKOFF_RANGE }).int(HOOK_BACKOFF_RANGE).min(HOOK_BACKOFF_MIN_MS, HOOK_BACKOFF_RANGE).max(HOOK_BACKOFF_MAX_MS, HOOK_BACKOFF_RANGE).default(10_000),
});
export type HookRetryPolicy = z.infer<typeof hookRetryPolicy>;

const hookFields = {
  companyId: ref,
  name: name64('钩子名称'),
  eventType: z.string({ error: HOOK_TRIGGER_UNKNOWN }).trim().min(1, HOOK_TRIGGER_UNKNOWN).max(64, HOOK_TRIGGER_UNKNOWN),
  filter: hookFilter.default({ siteIds: [], levels: [], statuses: [] }),
  /** The script (see the file's comment); absent/empty: the Standard Webhooks envelope is sent. Checked in the sandbox on save. */
  script: z.string().max(HOOK_SCRIPT_MAX, `脚本不能超过${HOOK_SCRIPT_MAX}个字符`).optional().nullable().transform((v) => (v && v.trim() ? v : null)),
  method: z.enum(HOOK_METHODS, { error: '请求方法应为 POST、PUT 或 PATCH' }).default('POST'),
  url: hookUrl,
  headers,
  timeoutMs: z.number({ error: HOOK_TIMEOUT_RANGE }).int(HOOK_TIMEOUT_RANGE).min(HOOK_TIMEOUT_MIN_MS, HOOK_TIMEOUT_RANGE).max(HOOK_TIMEOUT_MAX_MS, HOOK_TIMEOUT_RANGE).default(10_000),
  retry: hookRetryPolicy.default({ maxRetries: 5, backoffMs: 10_000 }),
  active: z.boolean().default(true),
  remark,
};
export const hookAdd = z.object(hookFields);
export type HookAdd = z.input<typeof hookAdd>;
export const hookEdit = z.object({ id: ref, ...hookFields });
export type HookEdit = z.input<typeof hookEdit>;
/** An add answers the new hook's id and its signing secret ("whsec_" + base64), shown once. */
export const hookCreated = created.extend({ secret: z.string() });
export type HookCreated = z.infer<typeof hookCreated>;

export const hookSort = sortRequest(['name', 'eventType', 'active', 'circuit', 'lastDeliveryAt', 'createdAt', 'updatedAt']);
export const hookListFilter = z.object({
  name: z.string().trim().max(64).optional(),
  companyId: id.optional(),
  eventType: z.string().trim().max(64).optional(),
  active: z.boolean().optional(),
  circuit: z.enum(HOOK_CIRCUIT_STATES).optional(),
});
export type HookListFilter = z.infer<typeof hookListFilter>;
export const hookPage = pageRequest.extend(hookListFilter.shape).extend(hookSort.shape);
export type HookPage = z.input<typeof hookPage>;

export const hookRecord = z.object({
  ...rowCompany,
  name: z.string(),
  eventType: z.string(),
  /** The trigger's name (source text), and whether it is gone from the catalogue. */
  eventName: z.string(),
  triggerGone: z.boolean(),
  filter: z.object({ siteIds: z.array(z.number()), levels: z.array(z.number()), statuses: z.array(z.string()) }),
  script: z.string().nullable(),
  method: z.enum(HOOK_METHODS),
  url: z.string(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })),
  timeoutMs: z.number(),
  retry: z.object({ maxRetries: z.number(), backoffMs: z.number() }),
  active: z.boolean(),
  circuit: z.enum(HOOK_CIRCUIT_STATES),
  consecutiveFailures: z.number(),
  circuitOpenedAt: isoTime.nullable(),
  /** The signing secret's first characters ("whsec_AbCd…"), to tell secrets apart; never the secret. */
  secretHint: z.string(),
  ownerId: z.number().nullable(),
  ownerName: z.string().nullable(),
  remark: z.string().nullable(),
  lastDeliveryAt: isoTime.nullable(),
  lastDeliveryState: z.string().nullable(),
  lastResponseStatus: z.number().nullable(),
  ...rowAudit,
});
export type HookRecord = z.infer<typeof hookRecord>;

/** GET /hook/relate/trigger/active?id[&active=true|false]: set (or, without `active`, toggle) the hook's activation; activating closes its circuit. */
export const hookActiveQuery = z.object({
  id,
  active: z.enum(['true', 'false']).optional().transform((v) => (v === undefined ? undefined : v === 'true')),
});
export const hookActiveResult = z.object({ active: z.boolean(), circuit: z.enum(HOOK_CIRCUIT_STATES) });
export type HookActiveResult = z.infer<typeof hookActiveResult>;

/** Extension: send a sample event to a hook now (its script, target and signature; one record, origin "test", no retries). */
export const hookTest = z.object({
  id: ref,
  /** The event's payload; absent: the trigger's example. */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type HookTest = z.input<typeof hookTest>;

/** Extension: a new signing secret (the old one stops signing at once), shown once. */
export const hookSecret = z.object({ secret: z.string() });

// ── Execution records (/hook/exec/record) ─────────────────────────────────────────────

export const HOOK_RECORD_STATES = ['running', 'skipped', 'delivered', 'retrying', 'failed'] as const;
export type HookRecordState = (typeof HOOK_RECORD_STATES)[number];
export const HOOK_RECORD_STATE_LABELS: Record<HookRecordState, string> = {
  running: '执行中',
  skipped: '已跳过',
  delivered: '已送达',
  retrying: '重试中',
  failed: '失败',
};
/** What made the run: an event of the outbox, a user's test, a replay. */
export const HOOK_RECORD_ORIGINS = ['event', 'test', 'replay'] as const;
export type HookRecordOrigin = (typeof HOOK_RECORD_ORIGINS)[number];
export const HOOK_RECORD_ORIGIN_LABELS: Record<HookRecordOrigin, string> = { event: '事件', test: '测试', replay: '重放' };

export const hookRecordFilter = z.object({
  hookId: id.optional(),
  companyId: id.optional(),
  eventType: z.string().trim().max(64).optional(),
  state: z.enum(HOOK_RECORD_STATES).optional(),
  origin: z.enum(HOOK_RECORD_ORIGINS).optional(),
  eventId: z.number().int().positive().optional(),
  start: timeFilter.optional(),
  end: timeFilter.optional(),
});
export type HookRecordFilter = z.infer<typeof hookRecordFilter>;
export const hookRecordSort = sortRequest(['startedAt', 'durationMs', 'responseStatus', 'attempt']);
export const hookRecordPage = pageRequest.extend(hookRecordFilter.shape).extend(hookRecordSort.shape);
export type HookRecordPage = z.input<typeof hookRecordPage>;

/** One run (one attempt of one delivery). */
export const hookExecRecord = z.object({
  id: z.number(),
  companyId: z.number(),
  hookId: z.number(),
  hookName: z.string(),
  deliveryId: z.number().nullable(),
  eventId: z.number().nullable(),
  eventType: z.string(),
  origin: z.enum(HOOK_RECORD_ORIGINS),
  /** 1 for the first attempt. */
  attempt: z.number(),
  state: z.enum(HOOK_RECORD_STATES),
  method: z.string().nullable(),
  url: z.string().nullable(),
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
  /** When the next attempt is due (state retrying). */
  nextAttemptAt: isoTime.nullable(),
  /** The record this one replays. */
  replayOf: z.number().nullable(),
  startedAt: isoTime,
  finishedAt: isoTime.nullable(),
});
export type HookExecRecord = z.infer<typeof hookExecRecord>;

export const hookHttpMessage = z.object({
  headers: z.record(z.string(), z.string()),
  /** The first 64 KB (text; binary bodies as base64 with `encoding`). */
  body: z.string().nullable(),
  encoding: z.enum(['utf8', 'base64']),
  /** The full size in bytes, and whether `body` is cut at 64 KB. */
  bytes: z.number(),
  truncated: z.boolean(),
});
export type HookHttpMessage = z.infer<typeof hookHttpMessage>;

/** Extension: one record with what went in and out. */
export const hookExecRecordDetail = hookExecRecord.extend({
  /** The script's input: { event, params } with secrets masked (HOOK_SECRET_MASK). */
  input: z.record(z.string(), z.unknown()).nullable(),
  /** The script's answer (null: skipped or no script); a failure is in `error`. */
  output: z.unknown().nullable(),
  request: hookHttpMessage.extend({ method: z.string(), url: z.string() }).nullable(),
  response: hookHttpMessage.extend({ status: z.number() }).nullable(),
});
export type HookExecRecordDetail = z.infer<typeof hookExecRecordDetail>;

/** Extension: run a record's event through the hook's current script (side by side with the original output); `send` also delivers it (a new record, origin "replay"). */
export const hookReplay = z.object({ id: ref, send: z.boolean().default(false) });
export type HookReplay = z.input<typeof hookReplay>;
export const hookReplayResult = z.object({
  original: z.object({ output: z.unknown().nullable(), state: z.enum(HOOK_RECORD_STATES), error: z.string().nullable() }),
  current: z.object({ output: z.unknown().nullable(), skipped: z.boolean(), error: z.string().nullable() }),
  /** The script is the same as the one that ran. */
  sameScript: z.boolean(),
  /** The record of the send (when `send`). */
  recordId: z.number().nullable(),
  state: z.enum(HOOK_RECORD_STATES).nullable(),
});
export type HookReplayResult = z.infer<typeof hookReplayResult>;

/** Extension: a test send's answer. */
export const hookTestResult = z.object({
  recordId: z.number(),
  state: z.enum(HOOK_RECORD_STATES),
  output: z.unknown().nullable(),
  responseStatus: z.number().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
});
export type HookTestResult = z.infer<typeof hookTestResult>;

// ── Settings (/hook/setting; extension) ───────────────────────────────────────────────

/** Installation-wide hook settings (one row); only an administrator (the root company's admin role) edits them. */
export const hookSettings = z.object({
  /** Allow targets that resolve to loopback, private, link-local, CGNAT or ULA addresses (never the cloud metadata addresses). */
  allowPrivateTargets: z.boolean(),
  /** Records older than this many days are pruned. */
  recordMaxAgeDays: z.number({ error: '保留天数应为1-365' }).int().min(1, '保留天数应为1-365').max(365, '保留天数应为1-365'),
  /** At most this many records are kept (the oldest pruned first). */
  recordMaxCount: z.number({ error: '保留条数应为1000-10000000' }).int().min(1000, '保留条数应为1000-10000000').max(10_000_000, '保留条数应为1000-10000000'),
  /** Consecutive failed deliveries that open a hook's circuit. */
  circuitThreshold: z.number({ error: '熔断阈值应为1-100' }).int().min(1, '熔断阈值应为1-100').max(100, '熔断阈值应为1-100'),
  /** Minutes an open circuit waits before a probe delivery. */
  circuitCooldownMinutes: z.number({ error: '熔断冷却时间应为1-1440分钟' }).int().min(1, '熔断冷却时间应为1-1440分钟').max(1440, '熔断冷却时间应为1-1440分钟'),
});
export type HookSettings = z.infer<typeof hookSettings>;
export const HOOK_SETTINGS_DEFAULT: HookSettings = {
  allowPrivateTargets: false,
  recordMaxAgeDays: 30,
  recordMaxCount: 1_000_000,
  circuitThreshold: 5,
  circuitCooldownMinutes: 10,
};
export const hookSettingsRecord = hookSettings.extend({ updatedAt: isoTime.nullable(), updatedByName: z.string().nullable() });

// ── Endpoints ─────────────────────────────────────────────────────────────────────────

export const hookEndpoints = {
  paramList: endpoint({ method: 'POST', path: '/hook/param/query/list', body: hookParamListRequest, response: z.array(hookParamOption) }),

  triggerList: endpoint({ method: 'POST', path: '/hook/trigger/query/list', body: hookTriggerFilter, response: z.array(hookTriggerRecord) }),
  triggerPage: endpoint({ method: 'POST', path: '/hook/trigger/query/page', body: hookTriggerPage, response: pageOf(hookTriggerRecord) }),
  triggerOne: endpoint({ method: 'POST', path: '/hook/trigger/query/one', body: hookTriggerOne, response: hookTriggerRecord }),
  triggerScan: endpoint({ method: 'GET', path: '/hook/trigger/scan', query: hookTriggerScanQuery, response: hookTriggerScanResult }),

  relateParamList: endpoint({ method: 'POST', path: '/hook/relate/param/query/list', body: hookParamFilter, response: z.array(hookParamRecord) }),
  relateParamOne: endpoint({ method: 'POST', path: '/hook/relate/param/query/one', body: idBody, response: hookParamRecord }),
  relateParamAdd: endpoint({ method: 'POST', path: '/hook/relate/param/add', body: hookParamAdd, response: created }),
  relateParamEdit: endpoint({ method: 'POST', path: '/hook/relate/param/edit', body: hookParamEdit, response: done }),
  relateParamDelete: endpoint({ method: 'GET', path: '/hook/relate/param/delete', query: idQuery, response: done }),

  relateTriggerPage: endpoint({ method: 'POST', path: '/hook/relate/trigger/query/page', body: hookPage, response: pageOf(hookRecord) }),
  relateTriggerOne: endpoint({ method: 'POST', path: '/hook/relate/trigger/query/one', body: idBody, response: hookRecord }),
  relateTriggerAdd: endpoint({ method: 'POST', path: '/hook/relate/trigger/add', body: hookAdd, response: hookCreated }),
  relateTriggerEdit: endpoint({ method: 'POST', path: '/hook/relate/trigger/edit', body: hookEdit, response: done }),
  relateTriggerDelete: endpoint({ method: 'GET', path: '/hook/relate/trigger/delete', query: idQuery, response: done }),
  relateTriggerActive: endpoint({ method: 'GET', path: '/hook/relate/trigger/active', query: hookActiveQuery, response: hookActiveResult }),
  /** Extension (decision 0041): send a sample event now. */
  relateTriggerTest: endpoint({ method: 'POST', path: '/hook/relate/trigger/test', body: hookTest, response: hookTestResult }),
  /** Extension (decision 0041): a new signing secret, shown once. */
  relateTriggerRotateSecret: endpoint({ method: 'POST', path: '/hook/relate/trigger/secret/rotate', body: idBody, response: hookSecret }),

  execRecordPage: endpoint({ method: 'POST', path: '/hook/exec/record/query/page', body: hookRecordPage, response: pageOf(hookExecRecord) }),
  /** Extension (decision 0041): one record with input, output, request and response. */
  execRecordOne: endpoint({ method: 'POST', path: '/hook/exec/record/query/one', body: idBody, response: hookExecRecordDetail }),
  /** Extension (decision 0041): replay with the current script, optionally sending. */
  execRecordReplay: endpoint({ method: 'POST', path: '/hook/exec/record/replay', body: hookReplay, response: hookReplayResult }),

  /** Extension (decision 0041): installation-wide settings. */
  settingOne: endpoint({ method: 'POST', path: '/hook/setting/query/one', body: emptyBody, response: hookSettingsRecord }),
  settingEdit: endpoint({ method: 'POST', path: '/hook/setting/edit', body: hookSettings, response: done }),
};

/** The catalogue's 17 calls (the rest are extensions). */
export const HOOK_CATALOGUE_PATHS = [
  '/hook/param/query/list',
  '/hook/trigger/query/list',
  '/hook/trigger/query/page',
  '/hook/trigger/query/one',
  '/hook/trigger/scan',
  '/hook/relate/param/query/list',
  '/hook/relate/param/query/one',
  '/hook/relate/param/add',
  '/hook/relate/param/edit',
  '/hook/relate/param/delete',
  '/hook/relate/trigger/query/page',
  '/hook/relate/trigger/query/one',
  '/hook/relate/trigger/add',
  '/hook/relate/trigger/edit',
  '/hook/relate/trigger/delete',
  '/hook/relate/trigger/active',
  '/hook/exec/record/query/page',
] as const;
