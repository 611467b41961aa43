import { z } from 'zod';
import { id, pageRequest } from './common.ts';
import { MAX_PAGE_SIZE } from './constants.ts';
import { endpoint, FILE, isoTime, pageOf } from './endpoint.ts';

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

export const reportEndpoints = {
  templates: endpoint({ method: 'POST', path: '/report/template/query/list', response: z.array(reportTemplateRecord) }),
  preview: endpoint({ method: 'POST', path: '/report/preview', body: reportPreviewQuery, response: reportPreview }),
  exportAdd: endpoint({ method: 'POST', path: '/report/export/add', body: reportExportAdd, response: z.object({ id: z.string() }) }),
  exportPage: endpoint({ method: 'POST', path: '/report/export/query/page', body: reportExportPage, response: pageOf(reportExportRecord) }),
  exportOne: endpoint({ method: 'POST', path: '/report/export/query/one', body: z.object({ id: reportExportId }), response: reportExportRecord }),
  exportDownload: endpoint({ method: 'GET', path: '/report/export/download', query: z.object({ id: reportExportId }), response: FILE }),
};
