import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
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
import type { DbOrTx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import { isConnectionError, writeThroughOutage } from '../../platform/db/outage.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, companyIdsInScope, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';
import { XLSX_MIME, type ExportLanguage } from '../../platform/xlsx/xlsx.ts';
import { translatorOf } from '../i18n/index.ts';
import { insertMail, mailSoon } from '../messaging/index.ts';
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

/** How long a run is held by the instance running it (a run takes seconds): after that, or when given back, it is taken up again. */
const RUN_LEASE_MS = 10 * 60_000;
/** How long a run cut short by a database outage waits for it to give the run back (else its lease runs out). */
const GIVE_BACK_WITHIN_MS = 120_000;

type RunRow = typeof reportScheduleRun.$inferSelect;

/**
 * Runs cut short (by a database outage, or an instance that stopped mid-run) are taken up where
 * they stopped, then the schedules due at `now` run, each claimed with its run in one transaction
 * (only one instance wins it; a claim the database cut off changed nothing). Answers the runs made.
 */
export async function runDueSchedules(ctx: AppContext, now = new Date()): Promise<number[]> {
  const runs: number[] = [];
  const lease = () => new Date(now.getTime() + RUN_LEASE_MS);
  /** Running, and its holder's lease given back or run out. */
  const stalledRun = and(eq(reportScheduleRun.state, 'running'), or(isNull(reportScheduleRun.leaseUntil), lte(reportScheduleRun.leaseUntil, now)));
  const stalled = await ctx.db
    .select({ run: reportScheduleRun, s: reportSchedule })
    .from(reportScheduleRun)
    .innerJoin(reportSchedule, eq(reportSchedule.id, reportScheduleRun.scheduleId))
    .where(stalledRun)
    .orderBy(reportScheduleRun.id)
    .limit(20);
  for (const { run, s } of stalled) {
    const [taken] = await ctx.db
      .update(reportScheduleRun)
      .set({ leaseUntil: lease() })
      .where(and(eq(reportScheduleRun.id, run.id), stalledRun))
      .returning();
    if (!taken) continue;
    await carryOut(ctx, s, taken);
    runs.push(run.id);
  }
  const due = await ctx.db
    .select()
    .from(reportSchedule)
    .where(and(eq(reportSchedule.enabled, true), lte(reportSchedule.nextRunAt, now)))
    .orderBy(reportSchedule.nextRunAt)
    .limit(20);
  for (const s of due) {
    const dueAt = s.nextRunAt!;
    const when = { ...s, frequency: s.frequency as ReportFrequency };
    const run = await ctx.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(reportSchedule)
        .set({ nextRunAt: nextRunAfter(when, now), lastRunAt: now })
        .where(and(eq(reportSchedule.id, s.id), eq(reportSchedule.nextRunAt, dueAt)))
        .returning({ id: reportSchedule.id });
      if (!claimed) return null;
      const [r] = await tx
        .insert(reportScheduleRun)
        .values({ scheduleId: s.id, companyId: s.companyId, dueAt, ...periodOf(when, dueAt), state: 'running', leaseUntil: lease() })
        .onConflictDoNothing()
        .returning();
      return r ?? null;
    });
    if (!run) continue;
    await carryOut(ctx, s, run);
    runs.push(run.id);
  }
  return runs;
}

/**
 * Carries out a run: the report built as its owner, then each recipient in turn, recorded on the
 * run in the same transaction as their mail (a run taken up again skips those already recorded,
 * so nobody gets the report twice). A database outage leaves the run running and gives it back for
 * the next sweep; any other error ends it failed with the reason.
 */
async function carryOut(ctx: AppContext, s: ScheduleRow, run: RunRow): Promise<void> {
  const done = new Set(run.recipients.map((r) => r.userId));
  const record = (db: DbOrTx, row: ReportRunRecipientRow) =>
    db.update(reportScheduleRun).set({ recipients: sql`${reportScheduleRun.recipients} || ${JSON.stringify([row])}::jsonb` }).where(eq(reportScheduleRun.id, run.id));
  const finish = (state: ReportRunState, error: string | null) =>
    ctx.db.update(reportScheduleRun).set({ state, error, finishedAt: new Date(), leaseUntil: null }).where(and(eq(reportScheduleRun.id, run.id), eq(reportScheduleRun.state, 'running')));
  const period = { start: run.start, end: run.end };
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
    const zone = utcOffsetMinutes(run.dueAt.getTime(), s.timeZone);
    const files = new Map<Locale, { fileName: string; path: string; lang: ExportLanguage }>();
    for (const r of await recipientsOf(ctx, s)) {
      if (done.has(r.id)) continue;
      const locale = localeOf(r.language);
      const row: ReportRunRecipientRow = { userId: r.id, name: r.name, email: r.email, language: locale, mailId: null, skipped: null };
      const asRecipient = r.email ? await serviceUser(ctx, { id: r.id }) : null;
      const allowed = asRecipient ? await assertSites(ctx.db, asRecipient, s.siteIds).then(() => true, () => false) : false;
      if (!r.email || !allowed) {
        row.skipped = r.email ? REPORT_SCHEDULE_NO_SCOPE : REPORT_SCHEDULE_NO_EMAIL;
        await record(ctx.db, row);
        continue;
      }
      let file = files.get(locale);
      if (!file) {
        const lang: ExportLanguage = { locale, ...(await translatorOf(locale)), zone };
        const buf = format === 'xlsx' ? await reportXlsx(report, lang) : await reportPdf(report, lang, () => undefined);
        const rel = join('report-mail', `${run.id}-${locale}.${format}`);
        await mkdir(reportMailDir(ctx), { recursive: true });
        // Whole or not at all: a run taken up again writes it anew while a mail of the first try may be reading it.
        const path = join(ctx.config.dataDir, rel);
        await writeFile(`${path}.part`, buf);
        await rename(`${path}.part`, path);
        file = { fileName: `${lang.t(REPORT_TEMPLATE_LABELS[params.template])}-${period.start}-${period.end}.${format}`, path: rel, lang };
        files.set(locale, file);
      }
      const { t } = file.lang;
      const subject = t(REPORT_MAIL_SUBJECT, s.name, period.start, period.end);
      const text = t(REPORT_MAIL_BODY, s.name, period.start, period.end);
      const mail = {
        companyId: s.companyId, accountId: account.id, recipient: r.email, subject, text, html: `<p>${escapeHtml(text)}</p>`, origin: 'report' as const, userId: r.id,
        attachments: [{ fileName: file.fileName, contentType: format === 'xlsx' ? XLSX_MIME : 'application/pdf', path: file.path }],
      };
      row.mailId = await ctx.db.transaction(async (tx) => {
        const id = await insertMail(ctx, mail, tx);
        await record(tx, { ...row, mailId: id });
        return id;
      });
      // Lost with the database, the mail sweep sends it.
      await mailSoon(ctx, row.mailId).catch((err: unknown) => ctx.log.warn({ err, mailId: row.mailId }, 'report mail left to the sweep'));
    }
    await finish('sent', null);
  } catch (err) {
    if (isConnectionError(err)) {
      ctx.log.warn({ err, scheduleId: s.id, runId: run.id }, 'scheduled report cut short by a database outage; taken up again when it is back');
      await writeThroughOutage(() => ctx.db.update(reportScheduleRun).set({ leaseUntil: null }).where(and(eq(reportScheduleRun.id, run.id), eq(reportScheduleRun.state, 'running'))), GIVE_BACK_WITHIN_MS)
        .catch(() => undefined);
      return;
    }
    ctx.log.warn({ err, scheduleId: s.id }, 'scheduled report failed');
    await writeThroughOutage(() => finish('failed', err instanceof AppError ? err.tip : '报表生成失败'), GIVE_BACK_WITHIN_MS);
  }
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
