import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_LOCALE } from '@ess/contract';
import { MESSAGE_VARIABLE_LABELS, type MessageVariable } from '@ess/contract/messaging';
import { localTime } from '@ess/contract/time';
import { alarm, alarmDict } from '../../db/schema/alarm.ts';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import { mailLog, smsLog } from '../../db/schema/messaging.ts';
import { company } from '../../db/schema/system.ts';
import { exponentialBackoffMs } from '../../platform/backoff.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../platform/db/errors.ts';
import { writeThroughOutage } from '../../platform/db/outage.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { perApp } from '../../platform/module.ts';
import { assertCompany, inSiteScope } from '../../platform/http/scope.ts';
import { secretBox, type SecretBox } from '../../platform/secrets.ts';

/**
 * What mail and SMS share (decision 0043): the secret box of this instance, the variable values
 * of a station for previews and test sends, the company checks of company-scoped records.
 */

/** Checks SECRET_KEY at start (the demo key is warned about in production mode). */
export function startSecrets(ctx: AppContext): void {
  if (secretsOf(ctx).isDemoKey && ctx.config.production) {
    ctx.log.warn('SECRET_KEY is not set: mail passwords and SMS secrets are sealed with the documented demo key; set SECRET_KEY (32 random bytes, hex or base64) in production');
  }
}

/** The box of SECRET_KEY. */
export const secretsOf = (ctx: AppContext): SecretBox => secretBox(ctx.config.secretKey);

/**
 * One retry policy for every mail and SMS (test sends try once): attempts before a temporary
 * failure becomes permanent, and the exponential backoff after the n-th failed attempt
 * (1 → 1 min, 2 → 2 min, … at most 1 h).
 */
export const MAX_ATTEMPTS = 5;
export const RETRY_BASE_MS = 60_000;
export const RETRY_MAX_MS = 3_600_000;
export const backoffMs = (attempts: number) => exponentialBackoffMs(attempts, RETRY_BASE_MS, RETRY_MAX_MS);

export const MAIL_PASSWORD = 'mail.password';
export const SMS_SECRET = 'sms.secret';

/** The company of an add or edit: must exist and be in the caller's scope. */
export async function assertCompanyOf(db: DbOrTx, user: AuthUser, companyId: number): Promise<void> {
  await assertCompany(db, user, companyId);
}

/** Runs a write; a unique-index violation becomes DUPLICATE with the tip given. */
export async function uniquely<T>(write: () => Promise<T>, tip: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', tip);
    throw err;
  }
}

/** The source-text label of each variable (for the console's list). */
export const variableLabel = (name: string): string => (MESSAGE_VARIABLE_LABELS as Record<string, string>)[name] ?? name;

/** Sample values of the variables no station provides (order numbers, months, …). */
const SAMPLES: Partial<Record<MessageVariable, string>> = {
  minutes: '15',
  orderNo: 'WO-20260101-001',
  orderTitle: '季度巡检',
  assignee: '张工',
  month: '2026-01',
  statementNo: 'ST-202601-001',
  firmware: 'v2.3.1',
  link: 'http://localhost:8620/',
  eventType: 'alarm.opened',
};

const SAMPLE_ALARM = { level: '1', alarmCode: 'E001', alarmName: '过温告警', description: '电池温度过高' };

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD HH:mm in the zone. */
export function wallTime(at: Date, zone: string): string {
  const l = localTime(at.getTime(), zone);
  return `${l.dateKey} ${pad(l.hour)}:${pad(l.minute)}`;
}

export interface PreviewData {
  values: Record<string, string>;
  siteId: number | null;
  siteName: string | null;
}

/**
 * The variables filled with a real station's data: the station named (in the caller's scope) or
 * the first one of the scope, its first device, its latest alarm (else the device and the time of
 * now); the caller as recipient. Without any station, sample values.
 */
export async function previewData(ctx: AppContext, user: AuthUser, siteId: number | undefined, companyId: number | null): Promise<PreviewData> {
  const { db } = ctx;
  const scoped = and(inSiteScope(site.id, db, user), siteId ? eq(site.id, siteId) : companyId ? eq(site.companyId, companyId) : undefined);
  let [s] = await db
    .select({ id: site.id, name: site.name, code: site.code, zone: site.timeZone, company: company.name })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(scoped)
    .orderBy(asc(site.id))
    .limit(1);
  if (!s && siteId) throw new AppError('NOT_FOUND', '站点不存在');
  if (!s && companyId) {
    [s] = await db
      .select({ id: site.id, name: site.name, code: site.code, zone: site.timeZone, company: company.name })
      .from(site)
      .innerJoin(company, eq(company.id, site.companyId))
      .where(inSiteScope(site.id, db, user))
      .orderBy(asc(site.id))
      .limit(1);
  }
  const values: Record<string, string> = { ...SAMPLES, recipient: user.name || user.username };
  if (!s) {
    Object.assign(values, SAMPLE_ALARM, { station: '示例站点', stationCode: 'DEMO-01', company: '示例公司', device: '1#储能变流器', deviceCode: 'PCS-01', time: wallTime(new Date(), 'Asia/Shanghai') });
    return { values, siteId: null, siteName: null };
  }
  // A station without alarms still previews an alarm message: the alarm's fields are samples then.
  Object.assign(values, SAMPLE_ALARM, { station: s.name, stationCode: s.code, company: s.company, time: wallTime(new Date(), s.zone) });
  const [a] = await db
    .select({ level: alarm.level, code: alarm.code, description: alarm.description, startedAt: alarm.startedAt, dictName: alarmDict.description, device: device.name, deviceCode: device.code })
    .from(alarm)
    .innerJoin(device, eq(device.id, alarm.deviceId))
    .leftJoin(alarmDict, eq(alarmDict.id, alarm.dictId))
    .where(eq(alarm.siteId, s.id))
    .orderBy(desc(alarm.startedAt))
    .limit(1);
  if (a) {
    Object.assign(values, {
      device: a.device, deviceCode: a.deviceCode, level: String(a.level), alarmCode: a.code, alarmName: a.dictName ?? a.description,
      description: a.description, time: wallTime(a.startedAt, s.zone),
    });
  } else {
    const [d] = await db.select({ name: device.name, code: device.code }).from(device).where(eq(device.siteId, s.id)).orderBy(asc(device.id)).limit(1);
    if (d) Object.assign(values, { device: d.name, deviceCode: d.code });
  }
  return { values, siteId: s.id, siteName: s.name };
}

/**
 * The variant of a template code for a language: the language's, else the default language's,
 * else the lowest id (decision 0043).
 */
export function pickVariant<T extends { id: number; language: string }>(variants: readonly T[], language: string | null | undefined): T | undefined {
  return (
    variants.find((v) => v.language === language) ??
    variants.find((v) => v.language === DEFAULT_LOCALE) ??
    [...variants].sort((a, b) => a.id - b.id)[0]
  );
}

/** Company names by id (for records). */
export async function companyNames(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: company.id, name: company.name }).from(company).where(inArray(company.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

/**
 * An attempt's claim on its log row: until when it holds the row (as written, or as the claim
 * tried to write it: its answer may be lost with the connection), and whether the peer took the
 * message.
 */
export interface LeaseNote {
  until: Date | null;
  handedOver: boolean;
}

/**
 * Runs one attempt; if it fails (the database went away) before the peer took the message, its
 * claim on the log row is given back once the database is back — the message is due again at
 * once rather than when the claim runs out. The claim's end must still be the one written (not
 * settled or taken since).
 */
export async function givingBackClaim<T>(ctx: AppContext, log: typeof mailLog | typeof smsLog, id: number, attempt: (lease: LeaseNote) => Promise<T>): Promise<T> {
  const lease: LeaseNote = { until: null, handedOver: false };
  try {
    return await attempt(lease);
  } catch (err) {
    const until = lease.until;
    if (until && !lease.handedOver) {
      const release = () =>
        ctx.db
          .update(log)
          .set({ nextAttemptAt: sql`now()` })
          .where(and(eq(log.id, id), inArray(log.state, ['queued', 'retrying']), sql`${log.nextAttemptAt} = ${until.toISOString()}::timestamptz`));
      const pending = givingBack.get(ctx) ?? new Set();
      givingBack.set(ctx, pending);
      const p = writeThroughOutage(release, until.getTime() - Date.now()).then(() => undefined, () => undefined);
      pending.add(p);
      void p.then(() => pending.delete(p));
    }
    throw err;
  }
}

/** Per instance: the claims being given back (givingBackClaim). */
const givingBack = perApp<Set<Promise<void>>>('message claims given back');

/** Until the claims being given back have landed (or run out): a sweep after an outage waits for them, so it finds those messages due. */
export async function claimsGivenBack(ctx: AppContext): Promise<void> {
  await Promise.all([...(givingBack.get(ctx) ?? [])]);
}

/** How long the record that a message went is retried while the database is away (within the claims' leases; writeThroughOutage). */
export const PERSIST_SENT_MS = 90_000;
/** The start of the next UTC day: when a message held by a daily limit (counted per UTC day) may go. */
export const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
export const nowSql = sql`now()`;
