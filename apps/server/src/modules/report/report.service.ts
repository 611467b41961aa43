import {
  REPORT_TEMPLATES, REPORT_TEMPLATE_LABELS, REPORT_TEMPLATE_PARAMS,
  type ReportParams, type ReportPreview, type ReportPreviewQuery, type ReportTable, type ReportTemplateRecord,
} from '@ess/contract/report';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { assertSites } from '../../platform/http/scope.ts';
import { TEMPLATES, stationsOf, type Built, type FullTable, type Station } from './report.templates.ts';

/** The shipped templates and the parameters each reads (besides stations and period). */
export function templateList(): ReportTemplateRecord[] {
  return REPORT_TEMPLATES.map((template) => ({ template, name: REPORT_TEMPLATE_LABELS[template], params: [...REPORT_TEMPLATE_PARAMS[template]] }));
}

export interface Report extends Built {
  params: ReportParams;
  stations: Station[];
  generatedAt: string;
}

/** A whole report: the stations checked against the caller's scope (a foreign one: 403), then the template's services. */
export async function buildReport(ctx: AppContext, user: AuthUser, p: ReportParams): Promise<Report> {
  await assertSites(ctx.db, user, p.siteIds);
  const stations = await stationsOf(ctx, p.siteIds);
  const built = await TEMPLATES[p.template](ctx, user, p, stations);
  return { ...built, params: p, stations, generatedAt: new Date().toISOString() };
}

/** Sums of a table's `sum` columns over every row (the figures its total row and the xlsx's SUM show). */
export function tableTotals(t: FullTable): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of t.columns.filter((x) => x.sum)) {
    const v = t.rows.reduce((a, r) => a + (typeof r[c.key] === 'number' ? (r[c.key] as number) : 0), 0);
    out[c.key] = c.decimals === null ? v : Math.round(v * 10 ** c.decimals) / 10 ** c.decimals;
  }
  return out;
}

/** The preview: the report with each table cut to the asked page (totals over the whole table). */
export async function preview(ctx: AppContext, user: AuthUser, q: ReportPreviewQuery): Promise<ReportPreview> {
  const { current, pageSize, ...p } = q;
  const r = await buildReport(ctx, user, p);
  const tables: ReportTable[] = r.tables.map((t) => ({
    ...t,
    rows: t.rows.slice((current - 1) * pageSize, current * pageSize),
    total: t.rows.length,
    current,
    pageSize,
    totals: tableTotals(t),
  }));
  return {
    template: p.template,
    title: REPORT_TEMPLATE_LABELS[p.template],
    start: p.start,
    end: p.end,
    granularity: p.granularity,
    currency: p.currency,
    stations: r.stations,
    figures: r.figures,
    tables,
    charts: r.charts,
    generatedAt: r.generatedAt,
  };
}
