import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { DEFAULT_LOCALE, LOCALES, type Locale, type Page } from '@ess/contract';
import {
  REPORT_EXPORTS_BUSY, REPORT_EXPORT_NOT_FOUND, REPORT_EXPORT_NOT_READY, REPORT_TEMPLATE_LABELS,
  type ReportExportAdd, type ReportExportRecord, type ReportParams,
} from '@ess/contract/report';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { assertSites } from '../../platform/http/scope.ts';
import { XLSX_MIME, sendFile, type ExportLanguage } from '../../platform/xlsx/xlsx.ts';
import { translatorOf } from '../i18n/index.ts';
import { reportPdf, reportXlsx } from './report.document.ts';
import { buildReport } from './report.service.ts';

/**
 * Report exports (decision 0050): a background job (pg-boss, `report.export`) builds the report
 * with the caller's scope, language and zone, writes the file and reports its progress. An export
 * is a record file `<dataDir>/reports/<userId>/<id>.json` beside its document: no table, as the
 * files belong to their user and are pruned after EXPORT_KEEP_MS.
 */

export const REPORT_EXPORT_JOB = 'report.export';
/** Exports (record and file) are kept a week. */
export const EXPORT_KEEP_MS = 7 * 86_400_000;
/** At most this many exports queued or running per user (REPORT_EXPORTS_BUSY names the number). */
export const EXPORTS_IN_HAND = 5;

interface Stored extends ReportExportRecord {
  userId: number;
  /** The caller as they asked (the job runs the services as them: their scope at that time). */
  user: AuthUser;
  locale: Locale;
  zone: number;
  template: ReportParams['template'];
  fullParams: ReportParams;
}

export const reportDir = (ctx: AppContext, userId?: number) => join(ctx.config.dataDir, 'reports', ...(userId === undefined ? [] : [String(userId)]));
const recordPath = (ctx: AppContext, userId: number, id: string) => join(reportDir(ctx, userId), `${id}.json`);
const filePath = (ctx: AppContext, userId: number, id: string, format: string) => join(reportDir(ctx, userId), `${id}.${format}`);

async function write(ctx: AppContext, s: Stored): Promise<void> {
  const path = recordPath(ctx, s.userId, s.id);
  await writeFile(`${path}.tmp`, JSON.stringify(s));
  await rename(`${path}.tmp`, path);
}

async function read(ctx: AppContext, userId: number, id: string): Promise<Stored | null> {
  try {
    return JSON.parse(await readFile(recordPath(ctx, userId, id), 'utf8')) as Stored;
  } catch {
    return null;
  }
}

const publicOf = (s: Stored): ReportExportRecord => ({
  id: s.id, template: s.template, format: s.format, params: s.params, state: s.state, progress: s.progress, fileName: s.fileName, size: s.size,
  error: s.error, createdAt: s.createdAt, finishedAt: s.finishedAt,
});

async function records(ctx: AppContext, userId: number): Promise<Stored[]> {
  let names: string[];
  try {
    names = await readdir(reportDir(ctx, userId));
  } catch {
    return [];
  }
  const out = await Promise.all(names.filter((n) => n.endsWith('.json')).map((n) => read(ctx, userId, n.slice(0, -5))));
  return out.filter((s): s is Stored => s !== null).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Queues an export after checking the stations against the caller's scope (403 before any work). */
export async function addExport(ctx: AppContext, user: AuthUser, body: ReportExportAdd, locale: Locale, zone: number): Promise<{ id: string }> {
  await assertSites(ctx.db, user, body.params.siteIds);
  const mine = await records(ctx, user.id);
  if (mine.filter((s) => s.state === 'queued' || s.state === 'running').length >= EXPORTS_IN_HAND) {
    throw new AppError('TASK_BUSY', REPORT_EXPORTS_BUSY);
  }
  const p = body.params;
  const s: Stored = {
    id: randomBytes(12).toString('base64url'),
    template: p.template,
    format: body.format,
    params: { siteIds: p.siteIds, start: p.start, end: p.end, granularity: p.granularity, currency: p.currency },
    fullParams: p,
    state: 'queued',
    progress: 0,
    fileName: null,
    size: null,
    error: null,
    createdAt: new Date().toISOString(),
    finishedAt: null,
    userId: user.id,
    user,
    locale,
    zone,
  };
  await mkdir(reportDir(ctx, user.id), { recursive: true });
  await write(ctx, s);
  await ctx.jobs.send(REPORT_EXPORT_JOB, { userId: user.id, id: s.id });
  return { id: s.id };
}

export async function exportPage(ctx: AppContext, user: AuthUser, q: { current: number; pageSize: number }): Promise<Page<ReportExportRecord>> {
  const all = await records(ctx, user.id);
  return { records: all.slice((q.current - 1) * q.pageSize, q.current * q.pageSize).map(publicOf), total: all.length, current: q.current, pageSize: q.pageSize };
}

export async function exportOne(ctx: AppContext, user: AuthUser, id: string): Promise<ReportExportRecord> {
  const s = await read(ctx, user.id, id);
  if (!s) throw new AppError('NOT_FOUND', REPORT_EXPORT_NOT_FOUND);
  return publicOf(s);
}

export async function exportDownload(ctx: AppContext, user: AuthUser, id: string, reply: FastifyReply) {
  const s = await read(ctx, user.id, id);
  if (!s) throw new AppError('NOT_FOUND', REPORT_EXPORT_NOT_FOUND);
  if (s.state !== 'done' || !s.fileName) throw new AppError('RULE_VIOLATION', REPORT_EXPORT_NOT_READY);
  const body = await readFile(filePath(ctx, s.userId, s.id, s.format));
  return sendFile(reply, s.fileName, s.format === 'xlsx' ? XLSX_MIME : 'application/pdf', body);
}

/** The job: build the report as its user, write the document, record progress along the way. */
export async function runExport(ctx: AppContext, userId: number, id: string): Promise<void> {
  const s = await read(ctx, userId, id);
  if (!s || s.state === 'done' || s.state === 'failed') return;
  const step = async (progress: number, more: Partial<Stored> = {}) => {
    Object.assign(s, { progress, ...more });
    await write(ctx, s);
  };
  try {
    await step(5, { state: 'running' });
    const locale = (LOCALES as readonly string[]).includes(s.locale) ? s.locale : DEFAULT_LOCALE;
    const lang: ExportLanguage = { locale, ...(await translatorOf(locale)), zone: s.zone };
    const report = await buildReport(ctx, s.user, s.fullParams);
    await step(50);
    let last = 50;
    const buf = s.format === 'xlsx'
      ? await reportXlsx(report, lang)
      : await reportPdf(report, lang, (f) => { last = 50 + Math.floor(f * 45); });
    await step(Math.max(last, 95));
    await writeFile(filePath(ctx, s.userId, s.id, s.format), buf);
    const fileName = `${lang.t(REPORT_TEMPLATE_LABELS[s.template])}-${s.params.start}-${s.params.end}.${s.format}`;
    await step(100, { state: 'done', fileName, size: buf.length, finishedAt: new Date().toISOString() });
  } catch (err) {
    ctx.log.warn({ err, id }, 'report export failed');
    const tip = err instanceof AppError ? err.tip : '报表生成失败';
    await step(s.progress, { state: 'failed', error: tip, finishedAt: new Date().toISOString() });
  }
}

/** Exports older than EXPORT_KEEP_MS lose their record and file. */
export async function pruneExports(ctx: AppContext, now = Date.now()): Promise<number> {
  let users: string[];
  try {
    users = await readdir(reportDir(ctx));
  } catch {
    return 0;
  }
  let n = 0;
  for (const u of users) {
    const dir = join(reportDir(ctx), u);
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      const st = await stat(path).catch(() => null);
      if (st && now - st.mtimeMs > EXPORT_KEEP_MS) {
        await rm(path, { force: true });
        if (name.endsWith('.json')) n++;
      }
    }
  }
  return n;
}
