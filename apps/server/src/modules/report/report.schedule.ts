import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, LOCALES, type Locale, type Page } from '@ess/contract';
import {
  REPORT_MAIL_BODY, REPORT_MAIL_SUBJECT, REPORT_SCHEDULE_NAME_TAKEN, REPORT_SCHEDULE_NO_ACCOUNT, REPORT_SCHEDULE_NO_EMAIL,
  REPORT_SCHEDULE_NO_SCOPE, REPORT_SCHEDULE_NOT_FOUND, REPORT_SCHEDULE_RECIPIENT_SCOPE, REPORT_TEMPLATE_LABELS,
  type ReportFormat, type ReportFrequency, type ReportGranularity, type ReportParams, type ReportRunPage, type ReportRunRecord,
  type ReportRunState, type ReportScheduleAdd, type ReportScheduleEdit, type ReportSchedulePage, type ReportScheduleRecord, type ReportTemplate,
} from '@ess/contract/report';
import { localDayStart, localTime, todayIn, utcOffsetMinutes } from '@ess/contract/time';
import { mailAccount, mailLog } from '../../db/schema/messaging.ts';
import { reportSchedule, reportScheduleRun, type ReportRunRecipientRow } from '../../db/schema/report.ts';
import { appUser, company, role, userRole } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, companyIdsInScope, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { XLSX_MIME, type ExportLanguage } from '../../platform/xlsx/xlsx.ts';
import { translatorOf } from '../i18n/index.ts';
import { queueMail } from '../messaging/index.ts';
import { serviceUser } from '../system/index.ts';
import { reportPdf, reportXlsx } from './report.document.ts';
import { buildReport } from './report.service.ts';

/**
 * Report schedules (issue 25 stage 2; decision 0054): a schedule mails a report when due, to its
 * users and the users of its roles, each in their language, with the export attached, through
 * messaging's mail log (its account, retries and record). The sweep runs on every instance with
 * the jobs role; a due schedule is claimed by moving its `next_run_at` on with a conditional
 * update (only one instance wins), and the run's unique (schedule, due time) keeps it once.
 *
 * The report is built as the schedule's owner (who saved it; their scope then), and a recipient
 * gets it only when every station of the report is in their own scope.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Files of sent reports are kept this long (a mail may be retried for about an hour). */
export const REPORT_MAIL_KEEP_MS = 7 * DAY;
export const reportMailDir = (ctx: AppContext) => join(ctx.config.dataDir, 'report-mail');

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

interface When {
  frequency: ReportFrequency;
  hour: number;
  weekday: number;
  monthDay: number;
  timeZone: string;
}

/** The first due time after `now`: the schedule's hour in its zone on the next matching local day. */
export function nextRunAfter(w: When, now: Date): Date {
  const today = todayIn(w.timeZone, now);
  for (let i = 0; i < 70; i++) {
    const date = addDays(today, i);
    const t = localTime(localDayStart(w.timeZone, date) + 12 * HOUR, w.timeZone);
    const matches = w.frequency === 'daily' || (w.frequency === 'weekly' ? (t.weekday || 7) === w.weekday : t.day === w.monthDay);
    if (!matches) continue;
    const at = localDayStart(w.timeZone, date) + w.hour * HOUR;
    if (at > now.getTime()) return new Date(at);
  }
  throw new Error('no next run within 70 days');
}

/** The period a run at `dueAt` covers (station-local dates, inclusive): the day, 7 days or month just ended. */
export function periodOf(w: When, dueAt: Date): { start: string; end: string } {
  const today = todayIn(w.timeZone, dueAt);
  const end = addDays(today, -1);
  if (w.frequency === 'daily') return { start: end, end };
  if (w.frequency === 'weekly') return { start: addDays(today, -7), end };
  const month = end.slice(0, 7);
  return { start: `${month}-01`, end };
}

// ── Calls ────────────────────────────────────────────────────────────────────────────

const owner = appUser;
const schedules = defineListQuery({
  table: reportSchedule,
  columns: {
    id: reportSchedule.id, companyId: reportSchedule.companyId, companyName: company.name, name: reportSchedule.name, template: reportSchedule.template,
    siteIds: reportSchedule.siteIds, granularity: reportSchedule.granularity, currency: reportSchedule.currency, format: reportSchedule.format,
    frequency: reportSchedule.frequency, hour: reportSchedule.hour, weekday: reportSchedule.weekday, monthDay: reportSchedule.monthDay,
    timeZone: reportSchedule.timeZone, userIds: reportSchedule.userIds, roleIds: reportSchedule.roleIds, enabled: reportSchedule.enabled,
    remark: reportSchedule.remark, ownerId: reportSchedule.ownerId, ownerName: owner.name, nextRunAt: reportSchedule.nextRunAt,
    lastRunAt: reportSchedule.lastRunAt, createdAt: reportSchedule.createdAt, updatedAt: reportSchedule.updatedAt,
  },
  joins: [
    { table: company, on: eq(company.id, reportSchedule.companyId) },
    { table: owner, on: eq(owner.id, reportSchedule.ownerId), left: true },
  ],
  scope: (db, user) => inCompanyScope(reportSchedule.companyId, db, user),
  filter: (f: ReportSchedulePage) => [
    f.name ? likeEscaped(reportSchedule.name, f.name) : undefined,
    f.companyId ? eq(reportSchedule.companyId, f.companyId) : undefined,
    f.template ? eq(reportSchedule.template, f.template) : undefined,
    f.enabled === undefined ? undefined : eq(reportSchedule.enabled, f.enabled),
  ],
  orderBy: [desc(reportSchedule.updatedAt), desc(reportSchedule.id)],
  toRecord: (r): ReportScheduleRecord => ({
    ...r,
    template: r.template as ReportTemplate,
    granularity: r.granularity as ReportGranularity,
    format: r.format as ReportFormat,
    frequency: r.frequency as ReportFrequency,
    nextRunAt: r.nextRunAt?.toISOString() ?? null,
    lastRunAt: r.lastRunAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

export const schedulePage = (ctx: AppContext, user: AuthUser, q: ReportSchedulePage) => schedules.page(ctx.db, user, q);

export async function scheduleOne(ctx: AppContext, user: AuthUser, id: number): Promise<ReportScheduleRecord> {
  const [r] = await schedules.rows(ctx.db, and(eq(reportSchedule.id, id), inCompanyScope(reportSchedule.companyId, ctx.db, user)), 1);
  return found(r, REPORT_SCHEDULE_NOT_FOUND);
}

/** The company, the stations and the recipients must all be within the caller's scope. */
async function checked(ctx: AppContext, user: AuthUser, b: ReportScheduleAdd) {
  await assertCompany(ctx.db, user, b.companyId);
  await assertSites(ctx.db, user, b.siteIds);
  const userIds = [...new Set(b.userIds)];
  const roleIds = [...new Set(b.roleIds)];
  const scoped = companyIdsInScope(ctx.db, user);
  if (userIds.length) {
    const ok = await ctx.db.select({ id: appUser.id }).from(appUser).where(and(inArray(appUser.id, userIds), inArray(appUser.companyId, scoped), isNull(appUser.deletedAt)));
    if (ok.length !== userIds.length) throw new AppError('OUT_OF_SCOPE', REPORT_SCHEDULE_RECIPIENT_SCOPE);
  }
  if (roleIds.length) {
    const ok = await ctx.db.select({ id: role.id }).from(role).where(and(inArray(role.id, roleIds), inArray(role.companyId, scoped)));
    if (ok.length !== roleIds.length) throw new AppError('OUT_OF_SCOPE', REPORT_SCHEDULE_RECIPIENT_SCOPE);
  }
  return { ...b, siteIds: [...new Set(b.siteIds)], userIds, roleIds };
}

async function named<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', REPORT_SCHEDULE_NAME_TAKEN);
    throw err;
  }
}

export async function scheduleAdd(ctx: AppContext, user: AuthUser, b: ReportScheduleAdd, now = new Date()): Promise<{ id: number }> {
  const v = await checked(ctx, user, b);
  return named(async () => {
    const [r] = await ctx.db
      .insert(reportSchedule)
      .values({ ...v, ownerId: user.id, createdBy: user.id, nextRunAt: v.enabled ? nextRunAfter(v, now) : null })
      .returning({ id: reportSchedule.id });
    return { id: r!.id };
  });
}

export async function scheduleEdit(ctx: AppContext, user: AuthUser, b: ReportScheduleEdit, now = new Date()): Promise<boolean> {
  await scheduleOne(ctx, user, b.id);
  const { id, ...rest } = b;
  const v = await checked(ctx, user, rest);
  await named(() =>
    ctx.db
      .update(reportSchedule)
      .set({ ...v, ownerId: user.id, nextRunAt: v.enabled ? nextRunAfter(v, now) : null, updatedAt: now })
      .where(eq(reportSchedule.id, id)),
  );
  return true;
}

export async function scheduleDelete(ctx: AppContext, user: AuthUser, id: number): Promise<boolean> {
  await scheduleOne(ctx, user, id);
  await ctx.db.delete(reportSchedule).where(eq(reportSchedule.id, id));
  return true;
}

export async function runPage(ctx: AppContext, user: AuthUser, q: ReportRunPage): Promise<Page<ReportRunRecord>> {
  const w = and(
    inCompanyScope(reportScheduleRun.companyId, ctx.db, user),
    q.scheduleId ? eq(reportScheduleRun.scheduleId, q.scheduleId) : undefined,
    q.state ? eq(reportScheduleRun.state, q.state) : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(reportScheduleRun).where(w);
  const rows = await ctx.db
    .select({ run: reportScheduleRun, scheduleName: reportSchedule.name, template: reportSchedule.template })
    .from(reportScheduleRun)
    .innerJoin(reportSchedule, eq(reportSchedule.id, reportScheduleRun.scheduleId))
    .where(w)
    .orderBy(desc(reportScheduleRun.startedAt), desc(reportScheduleRun.id))
    .limit(q.pageSize)
    .offset((q.current - 1) * q.pageSize);
  const mailIds = rows.flatMap((r) => r.run.recipients.map((x) => x.mailId)).filter((x): x is number => x !== null);
  const states = new Map(
    (mailIds.length ? await ctx.db.select({ id: mailLog.id, state: mailLog.state }).from(mailLog).where(inArray(mailLog.id, mailIds)) : []).map((m) => [m.id, m.state]),
  );
  const records = rows.map(({ run, scheduleName, template }) => ({
    id: run.id, scheduleId: run.scheduleId, scheduleName, template: template as ReportTemplate, dueAt: run.dueAt.toISOString(), start: run.start, end: run.end,
    state: run.state as ReportRunState, error: run.error, startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt?.toISOString() ?? null,
    recipients: run.recipients.map((x) => ({ ...x, mailState: x.mailId === null ? null : (states.get(x.mailId) ?? null) })),
  }));
  return { records, total: n, current: q.current, pageSize: q.pageSize };
}

// ── Running ──────────────────────────────────────────────────────────────────────────

type ScheduleRow = typeof reportSchedule.$inferSelect;


/** The schedule's recipients: its users and the users of its roles, enabled, once each. */
async function recipientsOf(ctx: AppContext, s: ScheduleRow) {
  const viaRoles = s.roleIds.length ? await ctx.db.select({ userId: userRole.userId }).from(userRole).where(inArray(userRole.roleId, s.roleIds)) : [];
  const ids = [...new Set([...s.userIds, ...viaRoles.map((r) => r.userId)])];
  if (!ids.length) return [];
  return ctx.db
    .select({ id: appUser.id, name: appUser.name, email: appUser.email, language: appUser.language })
    .from(appUser)
    .where(and(inArray(appUser.id, ids), eq(appUser.status, 1), isNull(appUser.deletedAt)))
    .orderBy(appUser.id);
}

const localeOf = (language: string | null): Locale => ((LOCALES as readonly string[]).includes(language ?? '') ? (language as Locale) : DEFAULT_LOCALE);

/** Schedules due at `now`, each claimed (only one instance wins it) and run. Answers the runs made. */
export async function runDueSchedules(ctx: AppContext, now = new Date()): Promise<number[]> {
  const due = await ctx.db
    .select()
    .from(reportSchedule)
    .where(and(eq(reportSchedule.enabled, true), lte(reportSchedule.nextRunAt, now)))
    .orderBy(reportSchedule.nextRunAt)
    .limit(20);
  const runs: number[] = [];
  for (const s of due) {
    const dueAt = s.nextRunAt!;
    const [claimed] = await ctx.db
      .update(reportSchedule)
      .set({ nextRunAt: nextRunAfter({ ...s, frequency: s.frequency as ReportFrequency }, now), lastRunAt: now })
      .where(and(eq(reportSchedule.id, s.id), eq(reportSchedule.nextRunAt, dueAt)))
      .returning({ id: reportSchedule.id });
    if (!claimed) continue;
    const id = await runSchedule(ctx, s, dueAt);
    if (id !== null) runs.push(id);
  }
  return runs;
}

/** One run of a schedule for its due time (null: that run exists already). */
export async function runSchedule(ctx: AppContext, s: ScheduleRow, dueAt: Date): Promise<number | null> {
  const when = { ...s, frequency: s.frequency as ReportFrequency };
  const period = periodOf(when, dueAt);
  const [run] = await ctx.db
    .insert(reportScheduleRun)
    .values({ scheduleId: s.id, companyId: s.companyId, dueAt, ...period, state: 'running' })
    .onConflictDoNothing()
    .returning({ id: reportScheduleRun.id });
  if (!run) return null;
  const finish = (state: ReportRunState, recipients: ReportRunRecipientRow[], error: string | null) =>
    ctx.db.update(reportScheduleRun).set({ state, recipients, error, finishedAt: new Date() }).where(eq(reportScheduleRun.id, run.id));
  try {
    const [account] = await ctx.db
      .select({ id: mailAccount.id })
      .from(mailAccount)
      .where(and(eq(mailAccount.companyId, s.companyId), eq(mailAccount.enabled, true)))
      .orderBy(desc(mailAccount.isDefault), mailAccount.id)
      .limit(1);
    if (!account) throw new AppError('RULE_VIOLATION', REPORT_SCHEDULE_NO_ACCOUNT);
    const ownerUser = s.ownerId === null ? null : await serviceUser(ctx, { id: s.ownerId });
    if (!ownerUser) throw new AppError('FORBIDDEN', REPORT_SCHEDULE_NO_SCOPE);
    const params: ReportParams = {
      template: s.template as ReportTemplate, siteIds: s.siteIds, ...period, granularity: s.granularity as ReportGranularity, currency: s.currency,
    };
    const report = await buildReport(ctx, ownerUser, params);
    const format = s.format as ReportFormat;
    const zone = utcOffsetMinutes(dueAt.getTime(), s.timeZone);
    const files = new Map<Locale, { fileName: string; path: string; lang: ExportLanguage }>();
    const out: ReportRunRecipientRow[] = [];
    for (const r of await recipientsOf(ctx, s)) {
      const locale = localeOf(r.language);
      const row: ReportRunRecipientRow = { userId: r.id, name: r.name, email: r.email, language: locale, mailId: null, skipped: null };
      out.push(row);
      if (!r.email) {
        row.skipped = REPORT_SCHEDULE_NO_EMAIL;
        continue;
      }
      const asRecipient = await serviceUser(ctx, { id: r.id });
      const allowed = asRecipient ? await assertSites(ctx.db, asRecipient, s.siteIds).then(() => true, () => false) : false;
      if (!allowed) {
        row.skipped = REPORT_SCHEDULE_NO_SCOPE;
        continue;
      }
      let file = files.get(locale);
      if (!file) {
        const lang: ExportLanguage = { locale, ...(await translatorOf(locale)), zone };
        const buf = format === 'xlsx' ? await reportXlsx(report, lang) : await reportPdf(report, lang, () => undefined);
        const rel = join('report-mail', `${run.id}-${locale}.${format}`);
        await mkdir(reportMailDir(ctx), { recursive: true });
        await writeFile(join(ctx.config.dataDir, rel), buf);
        file = { fileName: `${lang.t(REPORT_TEMPLATE_LABELS[params.template])}-${period.start}-${period.end}.${format}`, path: rel, lang };
        files.set(locale, file);
      }
      const { t } = file.lang;
      const subject = t(REPORT_MAIL_SUBJECT, s.name, period.start, period.end);
      const text = t(REPORT_MAIL_BODY, s.name, period.start, period.end);
      row.mailId = await queueMail(ctx, {
        companyId: s.companyId, accountId: account.id, recipient: r.email, subject, text, html: `<p>${escapeHtml(text)}</p>`, origin: 'report', userId: r.id,
        attachments: [{ fileName: file.fileName, contentType: format === 'xlsx' ? XLSX_MIME : 'application/pdf', path: file.path }],
      });
    }
    await finish('sent', out, null);
  } catch (err) {
    ctx.log.warn({ err, scheduleId: s.id }, 'scheduled report failed');
    await finish('failed', [], err instanceof AppError ? err.tip : '报表生成失败');
  }
  return run.id;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Files of sent reports older than REPORT_MAIL_KEEP_MS are removed. */
export async function pruneReportMail(ctx: AppContext, now = Date.now()): Promise<number> {
  const names = await readdir(reportMailDir(ctx)).catch(() => [] as string[]);
  let n = 0;
  for (const name of names) {
    const path = join(reportMailDir(ctx), name);
    const st = await stat(path).catch(() => null);
    if (st?.isFile() && now - st.mtimeMs > REPORT_MAIL_KEEP_MS) {
      await rm(path, { force: true });
      n++;
    }
  }
  return n;
}
