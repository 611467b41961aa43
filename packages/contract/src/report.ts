import { z } from 'zod';
import { id, idQuery, isTimeZone, optionalText, pageRequest, TIME_ZONE_INVALID } from './common.ts';
import { MAX_PAGE_SIZE } from './constants.ts';
import { done, endpoint, FILE, isoTime, pageOf } from './endpoint.ts';

/**
 * The report centre (issue 25; decision 0050; product-spec §2 /report/jimu): report templates
 * shipped with the product, previewed as paged tables and chart data, exported as xlsx or PDF by
 * a background job with progress. Not in the catalogue (routes only): the calls follow its
 * conventions (POST …/query/page, /query/one, /query/list, /add; GET …/download?id) under
 * /report/….
 *
 * Every figure comes from the service answering the screen the report summarises (one source of
 * truth): the energy-arbitrage overview (operations, revenue), the alarm monitor (alarms), the
 * work-order overview (maintenance), demand tracking (demand), the statements (statement
 * summary). Scope: the stations named must all lie in the caller's scope (a foreign one is
 * refused, 403); an export belongs to the user who asked for it (another user's is not found, 404).
 */

export const REPORT_TEMPLATES = ['operations', 'revenue', 'alarm', 'maintenance', 'demand', 'statement'] as const;
export type ReportTemplate = (typeof REPORT_TEMPLATES)[number];
/** Source texts (the language packs translate them). */
export const REPORT_TEMPLATE_LABELS: Record<ReportTemplate, string> = {
  operations: '电站运行报表',
  revenue: '收益报表',
  alarm: '告警报表',
  maintenance: '运维报表',
  demand: '需量报表',
  statement: '结算汇总报表',
};
export const REPORT_GRANULARITIES = ['day', 'month'] as const;
export type ReportGranularity = (typeof REPORT_GRANULARITIES)[number];
export const REPORT_FORMATS = ['xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_EXPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ReportExportState = (typeof REPORT_EXPORT_STATES)[number];
export const REPORT_EXPORT_STATE_LABELS: Record<ReportExportState, string> = { queued: '排队中', running: '生成中', done: '已完成', failed: '失败' };

/** The parameters each template reads (the console shows only these). */
export const REPORT_TEMPLATE_PARAMS: Record<ReportTemplate, readonly ('granularity' | 'currency')[]> = {
  operations: ['granularity'],
  revenue: ['granularity', 'currency'],
  alarm: [],
  maintenance: ['granularity'],
  demand: ['currency'],
  statement: ['currency'],
};

/** Stations of one report at most, and its longest period (day granularity: a year; month: ten years). */
export const REPORT_MAX_SITES = 200;
export const REPORT_MAX_DAYS = 366;
export const REPORT_MAX_MONTH_DAYS = 3700;
export const REPORT_DATE_FORMAT = '日期格式不正确，应为YYYY-MM-DD';
export const REPORT_RANGE_TOO_LONG = '报表时间范围过长：按日最多366天，按月最多10年';

const localDate = z.iso.date(REPORT_DATE_FORMAT).refine((d) => d >= '2000-01-01' && d <= '2999-12-31', REPORT_DATE_FORMAT);

const paramsShape = {
  template: z.enum(REPORT_TEMPLATES, '报表模板不存在'),
  siteIds: z.array(id, '站点须为数字编号').min(1, '请选择至少一个站点').max(REPORT_MAX_SITES, `站点最多${REPORT_MAX_SITES}个`),
  /** Station-local dates, inclusive. */
  start: localDate,
  end: localDate,
  granularity: z.enum(REPORT_GRANULARITIES, '应为 day 或 month').default('day'),
  /** Only this currency's money (ISO 4217); default every currency. */
  currency: z.string().trim().regex(/^[A-Z]{3}$/, '币种应为三位大写字母代码').optional().nullable().transform((v) => v ?? null),
};
type ParamsIn = { start: string; end: string; granularity: ReportGranularity };
const refineParams = <T extends z.ZodType<ParamsIn>>(s: T) =>
  s
    .refine((b) => b.start <= b.end, { message: '开始日期不能晚于结束日期', path: ['start'] })
    .refine(
      (b) => (Date.parse(b.end) - Date.parse(b.start)) / 86_400_000 < (b.granularity === 'month' ? REPORT_MAX_MONTH_DAYS : REPORT_MAX_DAYS),
      { message: REPORT_RANGE_TOO_LONG, path: ['end'] },
    );

/** A report's parameters. */
export const reportParams = refineParams(z.object(paramsShape));
export type ReportParams = z.output<typeof reportParams>;

/** POST /report/preview: the parameters and the page of every table (`current`, `pageSize`). */
export const reportPreviewQuery = refineParams(z.object({ ...paramsShape, ...pageRequest.shape }));
export type ReportPreviewQuery = z.output<typeof reportPreviewQuery>;

/** A cell: a number (figures), text, or null (no figure). */
const cell = z.union([z.number(), z.string(), z.null()]);
export const reportColumn = z.object({
  key: z.string(),
  /** Source text, translated by the console and the exports. */
  title: z.string(),
  unit: z.string().nullable(),
  /** number: a figure (decimals given), text; label: source text to translate; name: a name. */
  kind: z.enum(['number', 'text', 'label', 'name']),
  decimals: z.number().int().nullable(),
  /** The table's total row sums this column (xlsx: a SUM formula). */
  sum: z.boolean(),
});
export type ReportColumn = z.infer<typeof reportColumn>;
export const reportTable = z.object({
  key: z.string(),
  title: z.string(),
  columns: z.array(reportColumn),
  rows: z.array(z.record(z.string(), cell)),
  /** Rows of the whole table (the page holds `rows`). */
  total: z.number(),
  current: z.number(),
  pageSize: z.number(),
  /** Sums of the `sum` columns over the whole table (not the page); empty without such columns. */
  totals: z.record(z.string(), z.number()),
});
export type ReportTable = z.infer<typeof reportTable>;
export const reportChart = z.object({
  key: z.string(),
  title: z.string(),
  kind: z.enum(['line', 'bar']),
  labels: z.array(z.string()),
  series: z.array(z.object({ name: z.string(), unit: z.string().nullable(), data: z.array(z.number().nullable()) })),
});
export type ReportChart = z.infer<typeof reportChart>;
/** One headline figure. */
export const reportFigure = z.object({
  key: z.string(),
  label: z.string(),
  /** Label arguments ($1: a currency). */
  args: z.array(z.string()),
  value: z.number().nullable(),
  unit: z.string().nullable(),
  decimals: z.number().int(),
});
export type ReportFigure = z.infer<typeof reportFigure>;
export const reportPreview = z.object({
  template: z.enum(REPORT_TEMPLATES),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  granularity: z.enum(REPORT_GRANULARITIES),
  currency: z.string().nullable(),
  stations: z.array(z.object({ id: z.number(), name: z.string(), timeZone: z.string() })),
  figures: z.array(reportFigure),
  tables: z.array(reportTable),
  charts: z.array(reportChart),
  generatedAt: isoTime,
});
export type ReportPreview = z.infer<typeof reportPreview>;

export const reportTemplateRecord = z.object({
  template: z.enum(REPORT_TEMPLATES),
  name: z.string(),
  params: z.array(z.enum(['granularity', 'currency'])),
});
export type ReportTemplateRecord = z.infer<typeof reportTemplateRecord>;

// ── Exports ──────────────────────────────────────────────────────────────────────────

export const reportExportAdd = z.object({ params: reportParams, format: z.enum(REPORT_FORMATS, '导出格式应为 xlsx 或 pdf') });
export type ReportExportAdd = z.output<typeof reportExportAdd>;
export const reportExportPage = z.object({ ...pageRequest.shape, pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10) });
/** An export's id: 16 random characters (base64url). */
export const reportExportId = z.string({ error: '导出编号不正确' }).regex(/^[A-Za-z0-9_-]{16}$/, '导出编号不正确');
export const reportExportRecord = z.object({
  id: z.string(),
  template: z.enum(REPORT_TEMPLATES),
  format: z.enum(REPORT_FORMATS),
  params: z.object({
    siteIds: z.array(z.number()),
    start: z.string(),
    end: z.string(),
    granularity: z.enum(REPORT_GRANULARITIES),
    currency: z.string().nullable(),
  }),
  state: z.enum(REPORT_EXPORT_STATES),
  /** 0–100. */
  progress: z.number(),
  fileName: z.string().nullable(),
  size: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: isoTime,
  finishedAt: isoTime.nullable(),
});
export type ReportExportRecord = z.infer<typeof reportExportRecord>;

export const REPORT_EXPORT_NOT_FOUND = '导出记录不存在';
export const REPORT_EXPORT_NOT_READY = '报表尚未生成完成';
export const REPORT_EXPORTS_BUSY = '最多同时生成5个报表，请等待已提交的报表完成';

// ── Schedules (stage 2) ──────────────────────────────────────────────────────────────

export const REPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
export const REPORT_FREQUENCY_LABELS: Record<ReportFrequency, string> = { daily: '每日', weekly: '每周', monthly: '每月' };
export const REPORT_RUN_STATES = ['running', 'sent', 'failed'] as const;
export type ReportRunState = (typeof REPORT_RUN_STATES)[number];
export const REPORT_RUN_STATE_LABELS: Record<ReportRunState, string> = { running: '执行中', sent: '已发送', failed: '失败' };
export const REPORT_SCHEDULE_NOT_FOUND = '报表计划不存在';
export const REPORT_SCHEDULE_NAME_TAKEN = '该公司下已有同名报表计划';
export const REPORT_SCHEDULE_NO_RECIPIENT = '请选择至少一个接收用户或角色';
export const REPORT_SCHEDULE_RECIPIENT_SCOPE = '接收人不在可访问的公司范围内';
export const REPORT_SCHEDULE_NO_ACCOUNT = '公司未配置可用的默认邮件账号';
export const REPORT_SCHEDULE_NO_SCOPE = '接收人无权访问报表中的站点';
export const REPORT_SCHEDULE_NO_EMAIL = '接收人未设置邮箱';
/** The mail of a scheduled report (source texts; $1 the report's name, $2 start, $3 end). */
export const REPORT_MAIL_SUBJECT = '报表：$1（$2 至 $3）';
export const REPORT_MAIL_BODY = '附件为计划报表“$1”，统计期间 $2 至 $3。';

/**
 * A schedule: the report (template, stations, granularity, currency, format) sent by mail when
 * due — daily at `hour`, weekly on `weekday` (1 Monday … 7 Sunday), monthly on `monthDay` (1–28),
 * in `timeZone` — covering the period just ended (the day before; the 7 days before; the month
 * before), to the users and the users of the roles named, each in their language.
 */
const scheduleShape = {
  companyId: id,
  name: z.string({ error: '请输入计划名称' }).trim().min(1, '请输入计划名称').max(64, '计划名称最多64个字符'),
  template: z.enum(REPORT_TEMPLATES, '报表模板不存在'),
  siteIds: paramsShape.siteIds,
  granularity: paramsShape.granularity,
  currency: paramsShape.currency,
  format: z.enum(REPORT_FORMATS, '导出格式应为 xlsx 或 pdf'),
  frequency: z.enum(REPORT_FREQUENCIES, '频率应为 daily、weekly 或 monthly'),
  hour: z.number({ error: '发送时刻应为0–23' }).int('发送时刻应为0–23').min(0, '发送时刻应为0–23').max(23, '发送时刻应为0–23').default(8),
  weekday: z.number({ error: '星期应为1–7' }).int('星期应为1–7').min(1, '星期应为1–7').max(7, '星期应为1–7').default(1),
  monthDay: z.number({ error: '日期应为1–28' }).int('日期应为1–28').min(1, '日期应为1–28').max(28, '日期应为1–28').default(1),
  timeZone: z.string().trim().max(64).refine(isTimeZone, TIME_ZONE_INVALID).default('Asia/Shanghai'),
  userIds: z.array(id, '接收用户须为数字编号').max(200, '接收用户最多200个').default([]),
  roleIds: z.array(id, '接收角色须为数字编号').max(50, '接收角色最多50个').default([]),
  enabled: z.boolean().default(true),
  remark: optionalText(200),
};
export const reportScheduleAdd = z.object(scheduleShape).refine((b) => b.userIds.length + b.roleIds.length > 0, { message: REPORT_SCHEDULE_NO_RECIPIENT, path: ['userIds'] });
export type ReportScheduleAdd = z.output<typeof reportScheduleAdd>;
export const reportScheduleEdit = z.object({ id, ...scheduleShape }).refine((b) => b.userIds.length + b.roleIds.length > 0, { message: REPORT_SCHEDULE_NO_RECIPIENT, path: ['userIds'] });
export type ReportScheduleEdit = z.output<typeof reportScheduleEdit>;
export const reportSchedulePage = z.object({
  ...pageRequest.shape,
  name: z.string().trim().max(64).optional(),
  companyId: id.optional(),
  template: z.enum(REPORT_TEMPLATES, '报表模板不存在').optional(),
  enabled: z.boolean().optional(),
});
export type ReportSchedulePage = z.output<typeof reportSchedulePage>;
export const reportScheduleRecord = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string(),
  name: z.string(),
  template: z.enum(REPORT_TEMPLATES),
  siteIds: z.array(z.number()),
  granularity: z.enum(REPORT_GRANULARITIES),
  currency: z.string().nullable(),
  format: z.enum(REPORT_FORMATS),
  frequency: z.enum(REPORT_FREQUENCIES),
  hour: z.number(),
  weekday: z.number(),
  monthDay: z.number(),
  timeZone: z.string(),
  userIds: z.array(z.number()),
  roleIds: z.array(z.number()),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  /** The user the report is built as (who saved the schedule last): their station scope. */
  ownerId: z.number().nullable(),
  ownerName: z.string().nullable(),
  nextRunAt: isoTime.nullable(),
  lastRunAt: isoTime.nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type ReportScheduleRecord = z.infer<typeof reportScheduleRecord>;

export const reportRunPage = z.object({ ...pageRequest.shape, scheduleId: id.optional(), state: z.enum(REPORT_RUN_STATES).optional() });
export type ReportRunPage = z.output<typeof reportRunPage>;
export const reportRunRecipient = z.object({
  userId: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  language: z.string(),
  /** The mail log row (messaging) that carries it; null: not sent (see `skipped`). */
  mailId: z.number().nullable(),
  /** The mail's state in the mail log (queued, sending…, sent, failed), or null. */
  mailState: z.string().nullable(),
  skipped: z.string().nullable(),
});
export type ReportRunRecipient = z.infer<typeof reportRunRecipient>;
export const reportRunRecord = z.object({
  id: z.number(),
  scheduleId: z.number(),
  scheduleName: z.string(),
  template: z.enum(REPORT_TEMPLATES),
  dueAt: isoTime,
  start: z.string(),
  end: z.string(),
  state: z.enum(REPORT_RUN_STATES),
  recipients: z.array(reportRunRecipient),
  error: z.string().nullable(),
  startedAt: isoTime,
  finishedAt: isoTime.nullable(),
});
export type ReportRunRecord = z.infer<typeof reportRunRecord>;

// ── External report tool (stage 2) ───────────────────────────────────────────────────

export const REPORT_EMBED_TOOLS = ['metabase', 'grafana', 'jimureport'] as const;
export type ReportEmbedTool = (typeof REPORT_EMBED_TOOLS)[number];
/** Lifetime of a signed embed URL (seconds). */
export const REPORT_EMBED_TTL_S = 600;
export const REPORT_EMBED_NOT_CONFIGURED = '未配置外部报表工具';
export const REPORT_EMBED_ADMIN_ONLY = '仅系统管理员可以配置外部报表工具';
export const REPORT_EMBED_SECRET_REQUIRED = '请填写嵌入密钥（至少32个字符）';
export const REPORT_EMBED_DASHBOARD_UNKNOWN = '报表不在已配置的列表中';
export const reportEmbedDashboard = z.object({
  id: z.number({ error: '报表编号应为正整数' }).int('报表编号应为正整数').positive('报表编号应为正整数').max(2 ** 31 - 1),
  name: z.string({ error: '请输入报表名称' }).trim().min(1, '请输入报表名称').max(64, '报表名称最多64个字符'),
});
/** PUT of the installation's tool; `secret` null or left out keeps the stored one (it is never answered). */
export const reportEmbedEdit = z.object({
  enabled: z.boolean(),
  tool: z.enum(REPORT_EMBED_TOOLS, '工具应为 metabase、grafana 或 jimureport'),
  siteUrl: z.url({ protocol: /^https?$/, error: '请输入 http(s) 地址' }).max(300, '地址最多300个字符').transform((u) => u.replace(/\/+$/, '')),
  secret: z.string().min(32, REPORT_EMBED_SECRET_REQUIRED).max(256, '密钥最多256个字符').optional().nullable(),
  /** The locked parameter carrying the viewer's station ids. */
  siteParam: z.string().trim().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, '参数名只能包含字母、数字和下划线').default('site_id'),
  dashboards: z.array(reportEmbedDashboard).max(50, '报表最多50个').default([]),
});
export type ReportEmbedEdit = z.output<typeof reportEmbedEdit>;
export const reportEmbedRecord = z.object({
  enabled: z.boolean(),
  tool: z.enum(REPORT_EMBED_TOOLS).nullable(),
  siteUrl: z.string().nullable(),
  /** Whether a secret is stored (the secret itself is never answered). */
  hasSecret: z.boolean(),
  siteParam: z.string(),
  dashboards: z.array(z.object({ id: z.number(), name: z.string() })),
  /** Whether the caller may edit it (an administrator of the installation). */
  editable: z.boolean(),
  updatedAt: isoTime.nullable(),
});
export type ReportEmbedRecord = z.infer<typeof reportEmbedRecord>;
export const reportEmbedUrlQuery = z.object({ dashboard: reportEmbedDashboard.shape.id });
export const reportEmbedUrl = z.object({ url: z.string(), expiresAt: isoTime, siteIds: z.array(z.number()) });
export type ReportEmbedUrl = z.infer<typeof reportEmbedUrl>;

export const reportEndpoints = {
  templates: endpoint({ method: 'POST', path: '/report/template/query/list', response: z.array(reportTemplateRecord) }),
  preview: endpoint({ method: 'POST', path: '/report/preview', body: reportPreviewQuery, response: reportPreview }),
  exportAdd: endpoint({ method: 'POST', path: '/report/export/add', body: reportExportAdd, response: z.object({ id: z.string() }) }),
  exportPage: endpoint({ method: 'POST', path: '/report/export/query/page', body: reportExportPage, response: pageOf(reportExportRecord) }),
  exportOne: endpoint({ method: 'POST', path: '/report/export/query/one', body: z.object({ id: reportExportId }), response: reportExportRecord }),
  exportDownload: endpoint({ method: 'GET', path: '/report/export/download', query: z.object({ id: reportExportId }), response: FILE }),
  schedulePage: endpoint({ method: 'POST', path: '/report/schedule/query/page', body: reportSchedulePage, response: pageOf(reportScheduleRecord) }),
  scheduleOne: endpoint({ method: 'POST', path: '/report/schedule/query/one', body: z.object({ id }), response: reportScheduleRecord }),
  scheduleAdd: endpoint({ method: 'POST', path: '/report/schedule/add', body: reportScheduleAdd, response: z.object({ id: z.number() }) }),
  scheduleEdit: endpoint({ method: 'POST', path: '/report/schedule/edit', body: reportScheduleEdit, response: done }),
  scheduleDelete: endpoint({ method: 'GET', path: '/report/schedule/delete', query: idQuery, response: done }),
  runPage: endpoint({ method: 'POST', path: '/report/schedule/run/query/page', body: reportRunPage, response: pageOf(reportRunRecord) }),
  embedOne: endpoint({ method: 'POST', path: '/report/embed/query/one', response: reportEmbedRecord }),
  embedEdit: endpoint({ method: 'POST', path: '/report/embed/edit', body: reportEmbedEdit, response: done }),
  embedUrl: endpoint({ method: 'POST', path: '/report/embed/url', body: reportEmbedUrlQuery, response: reportEmbedUrl }),
};
