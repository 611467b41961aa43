import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { canTransition, nextMonth, todayIn, transitionRefusal, type Page } from '@ess/contract';
import {
  DISPUTE_NEEDS_NOTE, INVESTOR_ROLE, NO_STATEMENT_SETTINGS, NOT_A_PARTY, NOT_INVESTOR, NOT_POWER_USER, PERIOD_NOT_ENDED, POWER_USER_ROLE,
  STATEMENT_EVENTS, STATEMENT_EXISTS, STATEMENT_LOCKED, statementMachine,
  type SiteStatementRecord, type StatementAction, type StatementDetail, type StatementEditAction, type StatementLine, type StatementLogRecord,
  type StatementRecord, type StatementState, type WhatIfResult,
} from '@ess/contract/statement';
import type { z } from 'zod';
import type { siteStatementAdd, siteStatementEdit, statementEdit, statementPage, statementWhatIf } from '@ess/contract/statement';
import { site } from '../../db/schema/site.ts';
import { siteStatementSetting, statement, statementLog, statementPriceUse } from '../../db/schema/statement.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { sortedBy } from '../../platform/http/paging.ts';
import { assertCompany, assertSites, inSiteScope } from '../../platform/http/scope.ts';
import { periodEnergy } from '../meter/index.ts';
import { tariffsForSite, templateTariffs, type DayTariff } from '../pricing/index.ts';
import { add, dec, fixed, sub } from './decimal.ts';
import { settleLines, sharesOf, signedAmount, totalsOf, type MeterDays, type SettledLine } from './settle.ts';
import './statement.events.ts';

/** The actor of the generation job and automatic recomputes (journals name it 系统). */
export const SYSTEM_USER: AuthUser = { id: 0, username: 'system', name: '系统', companyId: 0, companyPath: '', buildIn: false, allSites: false, sessionId: 0 };

// ── Periods ───────────────────────────────────────────────────────────────────────────

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const day2 = (d: number) => String(d).padStart(2, '0');

/** The billing period of a month: from its billing day to the day before the next month's (station-local dates, inclusive). */
export function periodOf(month: string, billingDay: number): { start: string; end: string } {
  return { start: `${month}-${day2(billingDay)}`, end: addDays(`${nextMonth(month)}-${day2(billingDay)}`, -1) };
}

// ── Settings ──────────────────────────────────────────────────────────────────────────

interface Station {
  id: number;
  name: string;
  code: string;
  companyId: number;
  companyName: string;
  currency: string;
  timeZone: string;
}

async function stationOf(db: DbOrTx, user: AuthUser | null, siteId: number): Promise<Station> {
  const [s] = await db
    .select({ id: site.id, name: site.name, code: site.code, companyId: site.companyId, companyName: company.name, currency: site.currency, timeZone: site.timeZone })
    .from(site)
    .innerJoin(company, eq(company.id, site.companyId))
    .where(and(eq(site.id, siteId), user ? inSiteScope(site.id, db, user) : undefined));
  return found(s, '站点不存在');
}

/** A user who may confirm for a party: enabled and able to see the station. */
async function assertConfirmer(tx: DbOrTx, userId: number, siteId: number, field: string): Promise<void> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select u.id from app_user u
    join company uc on uc.id = u.company_id
    join site s on s.id = ${siteId}
    join company c on c.id = s.company_id
    where u.id = ${userId} and u.status = 1 and u.deleted_at is null and c.path like uc.path || '%'
      and (u.build_in or u.all_sites or exists (select 1 from user_site us where us.user_id = u.id and us.site_id = s.id))`);
  if (!rows[0]) throw new AppError('RULE_VIOLATION', `${field}：用户不存在、已停用或无权访问该站点`);
}

type SettingRow = typeof siteStatementSetting.$inferSelect;

async function userNames(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  const uniq = [...new Set(ids)].filter((x) => x > 0);
  if (!uniq.length) return new Map();
  const rows = await db.select({ id: appUser.id, name: appUser.name, username: appUser.username }).from(appUser).where(inArray(appUser.id, uniq));
  return new Map(rows.map((r) => [r.id, r.name || r.username]));
}

async function settingRecord(db: DbOrTx, r: SettingRow, st: Station): Promise<SiteStatementRecord> {
  const names = await userNames(db, [r.investorUserId, r.powerUserUserId]);
  return {
    id: r.id, siteId: r.siteId, siteName: st.name, companyId: st.companyId,
    investorName: r.investorName, investorUserId: r.investorUserId, investorUserName: names.get(r.investorUserId) ?? '已删除用户',
    powerUserName: r.powerUserName, powerUserUserId: r.powerUserUserId, powerUserUserName: names.get(r.powerUserUserId) ?? '已删除用户',
    investorShareRatio: Number(r.investorShareRatio), billingDay: r.billingDay,
    reconciliationContact: r.reconciliationContact, reconciliationPhone: r.reconciliationPhone,
    includePv: r.includePv, includePiles: r.includePiles, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
  };
}

export async function settingOfSite(ctx: AppContext, user: AuthUser, siteId: number): Promise<SiteStatementRecord | null> {
  const st = await stationOf(ctx.db, user, siteId);
  const [r] = await ctx.db.select().from(siteStatementSetting).where(eq(siteStatementSetting.siteId, st.id));
  return r ? settingRecord(ctx.db, r, st) : null;
}

export const PARTY_EDITS_SETTINGS = '结算双方的确认人不能修改本站点的结算设置';

type SettingFields = Omit<z.output<typeof siteStatementAdd>, 'siteId'>;
const settingValues = (b: SettingFields) => ({
  investorName: b.investorName, investorUserId: b.investorUserId, powerUserName: b.powerUserName, powerUserUserId: b.powerUserUserId,
  investorShareRatio: String(b.investorShareRatio), billingDay: b.billingDay, reconciliationContact: b.reconciliationContact,
  reconciliationPhone: b.reconciliationPhone, includePv: b.includePv, includePiles: b.includePiles,
});

async function checkSetting(tx: DbOrTx, user: AuthUser, siteId: number, b: SettingFields) {
  if (user.id === b.investorUserId || user.id === b.powerUserUserId) throw new AppError('RULE_VIOLATION', PARTY_EDITS_SETTINGS);
  await assertConfirmer(tx, b.investorUserId, siteId, '投资方确认人');
  await assertConfirmer(tx, b.powerUserUserId, siteId, '电力用户确认人');
}

export async function addSetting(ctx: AppContext, user: AuthUser, body: z.output<typeof siteStatementAdd>): Promise<{ id: number }> {
  return ctx.db.transaction(async (tx) => {
    const st = await stationOf(tx, user, body.siteId);
    await tx.execute(sql`select id from site where id = ${st.id} for update`);
    const [existing] = await tx.select({ id: siteStatementSetting.id }).from(siteStatementSetting).where(eq(siteStatementSetting.siteId, st.id));
    if (existing) throw new AppError('DUPLICATE', '该站点已有结算设置');
    await checkSetting(tx, user, st.id, body);
    const [row] = await tx.insert(siteStatementSetting).values({ siteId: st.id, ...settingValues(body) }).returning({ id: siteStatementSetting.id });
    return { id: row!.id };
  });
}

export async function editSetting(ctx: AppContext, user: AuthUser, body: z.output<typeof siteStatementEdit>): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx
      .select()
      .from(siteStatementSetting)
      .where(and(eq(siteStatementSetting.id, body.id), inSiteScope(siteStatementSetting.siteId, tx, user)))
      .for('update');
    const row = found(cur, '结算设置不存在');
    if (user.id === row.investorUserId || user.id === row.powerUserUserId) throw new AppError('RULE_VIOLATION', PARTY_EDITS_SETTINGS);
    await checkSetting(tx, user, row.siteId, body);
    await tx.update(siteStatementSetting).set({ ...settingValues(body), updatedAt: new Date() }).where(eq(siteStatementSetting.id, row.id));
  });
}

// ── Computing ─────────────────────────────────────────────────────────────────────────

const toMeterDays = (m: Awaited<ReturnType<typeof periodEnergy>>[number]): MeterDays => ({
  meterId: m.deviceId,
  meterName: m.deviceName,
  days: m.days.map((d) => ({ date: d.date, difference: d.difference, flags: d.flags })),
});

export interface Computed {
  lines: SettledLine[];
  totals: ReturnType<typeof totalsOf>;
  shares: ReturnType<typeof sharesOf>;
}

interface SettleTerms {
  includePv: boolean;
  includePiles: boolean;
  investorShareRatio: number | string;
}

/** The statement's lines and figures of a station's period, from the normalised readings and the prices of each day. */
export async function compute(ctx: AppContext, siteId: number, start: string, end: string, terms: SettleTerms, alt?: readonly DayTariff[]): Promise<Computed> {
  const read = async (meterKind: 'storage' | 'pv' | 'main' | 'pile') => (await periodEnergy(ctx, { siteId, meterKind, from: start, to: end })).map(toMeterDays);
  const storage = await read('storage');
  const pv = terms.includePv ? await read('pv') : [];
  const main = terms.includePv && pv.length ? await read('main') : [];
  const piles = terms.includePiles ? await read('pile') : [];
  const days = await tariffsForSite(ctx, siteId, start, end);
  const lines = settleLines({ days, storage, pv, main, piles, includePv: terms.includePv, includePiles: terms.includePiles, alt });
  const totals = totalsOf(lines);
  return { lines, totals, shares: sharesOf(totals.totalRevenue, terms.investorShareRatio) };
}

/** The prices the lines used, with the first and last day each priced. */
function priceUses(lines: readonly StatementLine[]) {
  const uses = new Map<string, { kind: string; refId: number; firstDate: string; lastDate: string }>();
  const put = (kind: string, refId: number | null, from: string, to: string) => {
    if (refId === null) return;
    const k = `${kind}:${refId}`;
    const u = uses.get(k);
    if (!u) uses.set(k, { kind, refId, firstDate: from, lastDate: to });
    else {
      if (from < u.firstDate) u.firstDate = from;
      if (to > u.lastDate) u.lastDate = to;
    }
  };
  for (const l of lines) {
    const s = l.priceSource;
    if (!s) continue;
    put(s.kind, s.id, l.fromDate, l.toDate);
    put('template', s.templateId, l.fromDate, l.toDate);
    if (s.kind !== 'sitePrice') put('sitePrice', s.sitePriceId, l.fromDate, l.toDate);
  }
  return [...uses.values()];
}

const stripAlt = (lines: readonly SettledLine[]): StatementLine[] => lines.map(({ altPrice: _p, altAmount: _a, ...l }) => l);

function figures(c: Computed) {
  return { ...c.totals, ...c.shares, lines: stripAlt(c.lines), computedAt: new Date() };
}

async function writeUses(tx: DbOrTx, statementId: number, lines: readonly StatementLine[]) {
  await tx.delete(statementPriceUse).where(eq(statementPriceUse.statementId, statementId));
  const uses = priceUses(lines);
  if (uses.length) await tx.insert(statementPriceUse).values(uses.map((u) => ({ statementId, ...u })));
}

async function journal(
  tx: DbOrTx,
  statementId: number,
  action: StatementAction,
  from: string,
  to: StatementState,
  user: AuthUser,
  note: string | null,
  difference: string | null = null,
): Promise<void> {
  const system = user.id === SYSTEM_USER.id;
  await tx.insert(statementLog).values({
    statementId, action, fromState: from, toState: to, note, userId: system ? null : user.id, username: system ? SYSTEM_USER.name : user.name || user.username, difference,
  });
}

// ── Statements ────────────────────────────────────────────────────────────────────────

type StatementRow = typeof statement.$inferSelect;

/** Makes the draft of a station's month (add, or the generation job with `user` null: no scope). */
export async function generate(ctx: AppContext, user: AuthUser | null, siteId: number, month: string, now = new Date()): Promise<{ id: number }> {
  const st = await stationOf(ctx.db, user, siteId);
  const [setting] = await ctx.db.select().from(siteStatementSetting).where(eq(siteStatementSetting.siteId, st.id));
  if (!setting) throw new AppError('RULE_VIOLATION', NO_STATEMENT_SETTINGS);
  const period = periodOf(month, setting.billingDay);
  if (period.end >= todayIn(st.timeZone, now)) throw new AppError('RULE_VIOLATION', PERIOD_NOT_ENDED);
  const [dup] = await ctx.db.select({ id: statement.id }).from(statement).where(and(eq(statement.siteId, st.id), eq(statement.month, month)));
  if (dup) throw new AppError('DUPLICATE', STATEMENT_EXISTS);
  const c = await compute(ctx, st.id, period.start, period.end, { ...setting, investorShareRatio: setting.investorShareRatio });
  const actor = user ?? SYSTEM_USER;
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(statement)
      .values({
        code: `JS-${st.code}-${month.replace('-', '')}`, siteId: st.id, month, periodStart: period.start, periodEnd: period.end, currency: st.currency,
        state: 'draft', investorName: setting.investorName, investorUserId: setting.investorUserId, powerUserName: setting.powerUserName,
        powerUserUserId: setting.powerUserUserId, investorShareRatio: setting.investorShareRatio, reconciliationContact: setting.reconciliationContact,
        reconciliationPhone: setting.reconciliationPhone, ...figures(c),
      })
      .onConflictDoNothing()
      .returning({ id: statement.id });
    if (!row) throw new AppError('DUPLICATE', STATEMENT_EXISTS);
    await writeUses(tx, row.id, c.lines);
    await journal(tx, row.id, 'generate', '', 'draft', actor, null);
    await emit(tx, STATEMENT_EVENTS.generate as 'statement.generated', [eventOf(row.id, st.id, month, setting, actor, null, 'draft', null)]);
    return row.id;
  });
  ctx.outbox.nudge();
  return { id };
}

function eventOf(
  id: number, siteId: number, month: string, parties: { investorUserId: number; powerUserUserId: number }, actor: AuthUser, from: string | null, to: string, note: string | null,
) {
  return { id, siteId, month, from, to, userId: actor.id === SYSTEM_USER.id ? null : actor.id, investorUserId: parties.investorUserId, powerUserUserId: parties.powerUserUserId, note };
}

const rolesOf = (row: { investorUserId: number; powerUserUserId: number }, user: AuthUser): string[] => [
  ...(row.investorUserId === user.id ? [INVESTOR_ROLE] : []),
  ...(row.powerUserUserId === user.id ? [POWER_USER_ROLE] : []),
];

const recordColumns = {
  s: statement,
  siteName: site.name,
  companyId: site.companyId,
  companyName: company.name,
};

function toRecord(r: { s: StatementRow; siteName: string; companyId: number; companyName: string }, user: AuthUser): StatementRecord {
  const s = r.s;
  return {
    id: s.id, code: s.code, siteId: s.siteId, siteName: r.siteName, companyId: r.companyId, companyName: r.companyName, month: s.month,
    periodStart: s.periodStart, periodEnd: s.periodEnd, currency: s.currency, state: s.state as StatementState,
    investorName: s.investorName, powerUserName: s.powerUserName, investorShareRatio: Number(s.investorShareRatio),
    chargeEnergy: s.chargeEnergy, dischargeEnergy: s.dischargeEnergy, pvSelfUseEnergy: s.pvSelfUseEnergy, pvExportEnergy: s.pvExportEnergy, pileEnergy: s.pileEnergy,
    storageRevenue: s.storageRevenue, pvRevenue: s.pvRevenue, pileRevenue: s.pileRevenue, totalRevenue: s.totalRevenue,
    investorAmount: s.investorAmount, powerUserAmount: s.powerUserAmount, flaggedLines: s.flaggedLines, note: s.note,
    roles: rolesOf(s, user), computedAt: s.computedAt.toISOString(), createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString(),
  };
}

const sortable = {
  month: statement.month, siteName: site.name, state: statement.state, totalRevenue: statement.totalRevenue, updatedAt: statement.updatedAt,
};

export async function statementPageOf(ctx: AppContext, user: AuthUser, q: z.output<typeof statementPage>): Promise<Page<StatementRecord>> {
  if (q.siteId) await assertSites(ctx.db, user, [q.siteId]);
  if (q.companyId) await assertCompany(ctx.db, user, q.companyId);
  const where: SQL | undefined = and(
    inSiteScope(statement.siteId, ctx.db, user),
    q.siteId ? eq(statement.siteId, q.siteId) : undefined,
    q.companyId ? eq(site.companyId, q.companyId) : undefined,
    q.state ? eq(statement.state, q.state) : undefined,
    q.monthFrom ? gte(statement.month, q.monthFrom) : undefined,
    q.monthTo ? lte(statement.month, q.monthTo) : undefined,
  );
  const [{ n } = { n: 0 }] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(statement)
    .innerJoin(site, eq(site.id, statement.siteId))
    .where(where);
  const rows = await ctx.db
    .select(recordColumns)
    .from(statement)
    .innerJoin(site, eq(site.id, statement.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .where(where)
    .orderBy(...sortedBy(q, sortable, [desc(statement.month), asc(site.name), asc(statement.id)]))
    .limit(q.pageSize)
    .offset((q.current - 1) * q.pageSize);
  return { records: rows.map((r) => toRecord(r, user)), total: Number(n), current: q.current, pageSize: q.pageSize };
}

async function rowInScope(db: DbOrTx, user: AuthUser, id: number) {
  const [r] = await db
    .select(recordColumns)
    .from(statement)
    .innerJoin(site, eq(site.id, statement.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .where(and(eq(statement.id, id), inSiteScope(statement.siteId, db, user)));
  return found(r, '结算单不存在');
}

const logRecord = (r: typeof statementLog.$inferSelect): StatementLogRecord => ({
  id: r.id, statementId: r.statementId, action: r.action as StatementAction, fromState: r.fromState, toState: r.toState as StatementState, note: r.note,
  userId: r.userId, username: r.username, difference: r.difference, createdAt: r.createdAt.toISOString(),
});

export async function statementOne(ctx: AppContext, user: AuthUser, id: number, whatIf?: z.output<typeof statementWhatIf>): Promise<StatementDetail> {
  const r = await rowInScope(ctx.db, user, id);
  const logs = await ctx.db.select().from(statementLog).where(eq(statementLog.statementId, id)).orderBy(asc(statementLog.id));
  const rec = toRecord(r, user);
  return {
    ...rec,
    lines: r.s.lines,
    journal: logs.map(logRecord),
    reconciliationContact: r.s.reconciliationContact,
    reconciliationPhone: r.s.reconciliationPhone,
    whatIf: whatIf ? await whatIfOf(ctx, user, r.s, whatIf) : null,
  };
}

/** The statement's energy at another template's prices, without saving (issue 18 item 9). */
async function whatIfOf(ctx: AppContext, user: AuthUser, s: StatementRow, w: z.output<typeof statementWhatIf>): Promise<WhatIfResult> {
  const { template, days: altDays } = await templateTariffs(ctx, user, s.siteId, w.templateId, s.periodStart, s.periodEnd);
  const actual = await tariffsForSite(ctx, s.siteId, s.periodStart, s.periodEnd);
  const byDate = new Map(actual.map((d) => [d.date, d]));
  const alt = altDays.map((d): DayTariff => {
    const a = byDate.get(d.date);
    const feed = w.feedInPrice;
    return {
      ...d,
      configId: a?.configId ?? null,
      serviceFee: w.serviceFee ?? a?.serviceFee ?? null,
      feedIn: feed === undefined ? (a?.feedIn ?? null) : { id: a?.feedIn?.id ?? 0, price: feed, periods: { tip: feed, peak: feed, flat: feed, valley: feed, deepValley: feed } },
    };
  });
  const [setting] = await ctx.db.select().from(siteStatementSetting).where(eq(siteStatementSetting.siteId, s.siteId));
  const terms = { includePv: setting?.includePv ?? false, includePiles: setting?.includePiles ?? false, investorShareRatio: s.investorShareRatio };
  const c = await compute(ctx, s.siteId, s.periodStart, s.periodEnd, terms, alt);
  const lines = c.lines.map((l) => {
    const diff = sub(signedAmount(l, l.altAmount ?? l.amount), signedAmount(l, l.amount));
    return {
      category: l.category, period: l.period, meterId: l.meterId, fromDate: l.fromDate, toDate: l.toDate, energy: l.energy, price: l.price, amount: l.amount,
      whatIfPrice: l.altPrice ?? l.price, whatIfAmount: l.altAmount ?? l.amount, difference: fixed(diff, 2),
    };
  });
  const byRegister = new Map<string, { category: (typeof lines)[number]['category']; period: (typeof lines)[number]['period']; difference: ReturnType<typeof dec> }>();
  for (const l of lines) {
    const k = `${l.category}:${l.period}`;
    const cur = byRegister.get(k) ?? { category: l.category, period: l.period, difference: dec('0') };
    cur.difference = add(cur.difference, dec(l.difference));
    byRegister.set(k, cur);
  }
  const altLines: StatementLine[] = c.lines.map((l) => ({ ...l, price: l.altPrice ?? l.price, amount: l.altAmount ?? l.amount }));
  const altTotal = totalsOf(altLines).totalRevenue;
  const shares = sharesOf(altTotal, s.investorShareRatio);
  return {
    templateId: template.id, templateName: template.name, lines,
    byRegister: [...byRegister.values()].map((b) => ({ category: b.category, period: b.period, difference: fixed(b.difference, 2) })),
    totalRevenue: altTotal, ...shares,
    difference: fixed(sub(dec(altTotal), dec(c.totals.totalRevenue)), 2),
  };
}

/** Locks the statement's row (in scope unless the system acts). */
async function lockRow(tx: DbOrTx, user: AuthUser, id: number): Promise<StatementRow> {
  const [r] = await tx
    .select({ s: statement })
    .from(statement)
    .where(and(eq(statement.id, id), user.id === SYSTEM_USER.id ? undefined : inSiteScope(statement.siteId, tx, user)))
    .for('update');
  return found(r, '结算单不存在').s;
}

/** POST /operation/statement/edit: a lifecycle action, or the note. */
export async function editStatement(ctx: AppContext, user: AuthUser, body: z.output<typeof statementEdit>): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockRow(tx, user, body.id);
    const state = row.state as StatementState;
    if (state === 'locked') throw new AppError('RULE_VIOLATION', STATEMENT_LOCKED);
    if (!body.action) {
      await tx.update(statement).set({ note: body.note, updatedAt: new Date() }).where(eq(statement.id, row.id));
      return;
    }
    const action: StatementEditAction = body.action;
    const roles = rolesOf(row, user);
    if (!canTransition(statementMachine, state, action, roles)) {
      // The state allows the action, the caller is not the party who takes it.
      if (canTransition(statementMachine, state, action, [INVESTOR_ROLE, POWER_USER_ROLE])) {
        throw new AppError('RULE_VIOLATION', action === 'confirmInvestor' ? NOT_INVESTOR : action === 'confirmPowerUser' ? NOT_POWER_USER : NOT_A_PARTY);
      }
      throw new AppError('RULE_VIOLATION', transitionRefusal(statementMachine, state, action));
    }
    if (action === 'dispute' && !body.note) throw new AppError('RULE_VIOLATION', DISPUTE_NEEDS_NOTE);
    const to = statementMachine.transitions[action].to as StatementState;
    await tx.update(statement).set({ state: to, updatedAt: new Date() }).where(eq(statement.id, row.id));
    await journal(tx, row.id, action, state, to, user, body.note);
    await emit(tx, 'state.changed', [{ machine: statementMachine.name, entityId: row.id, action, from: state, to, userId: user.id }]);
    await emit(tx, STATEMENT_EVENTS[action] as 'statement.generated', [eventOf(row.id, row.siteId, row.month, row, user, state, to, body.note)]);
  });
  ctx.outbox.nudge();
}

/** GET /operation/statement/update: a draft computed again from the readings and the prices in force; the difference is journaled. */
export async function recompute(ctx: AppContext, user: AuthUser, id: number): Promise<{ id: number; totalBefore: string; totalAfter: string; difference: string }> {
  const [pre] = await ctx.db
    .select({ s: statement })
    .from(statement)
    .where(and(eq(statement.id, id), user.id === SYSTEM_USER.id ? undefined : inSiteScope(statement.siteId, ctx.db, user)));
  const before = found(pre, '结算单不存在').s;
  const refuse = (state: StatementState) => {
    if (!canTransition(statementMachine, state, 'recompute')) throw new AppError('RULE_VIOLATION', transitionRefusal(statementMachine, state, 'recompute'));
  };
  refuse(before.state as StatementState);
  const [setting] = await ctx.db.select().from(siteStatementSetting).where(eq(siteStatementSetting.siteId, before.siteId));
  const terms = setting ?? { includePv: false, includePiles: false, investorShareRatio: before.investorShareRatio };
  const c = await compute(ctx, before.siteId, before.periodStart, before.periodEnd, terms);
  const result = await ctx.db.transaction(async (tx) => {
    const row = await lockRow(tx, user, id);
    refuse(row.state as StatementState);
    const difference = fixed(sub(dec(c.totals.totalRevenue), dec(row.totalRevenue)), 2);
    const parties = setting
      ? {
          investorName: setting.investorName, investorUserId: setting.investorUserId, powerUserName: setting.powerUserName, powerUserUserId: setting.powerUserUserId,
          investorShareRatio: setting.investorShareRatio, reconciliationContact: setting.reconciliationContact, reconciliationPhone: setting.reconciliationPhone,
        }
      : {};
    await tx.update(statement).set({ ...parties, ...figures(c), updatedAt: new Date() }).where(eq(statement.id, row.id));
    await writeUses(tx, row.id, c.lines);
    // An automatic recompute that changed nothing is not news; one asked for, or one that changed the total, is journaled with its difference.
    if (user.id !== SYSTEM_USER.id || difference !== '0.00') await journal(tx, row.id, 'recompute', 'draft', 'draft', user, null, difference);
    return { id: row.id, totalBefore: row.totalRevenue, totalAfter: c.totals.totalRevenue, difference };
  });
  return result;
}

/** Draft statements of the stations whose prices changed from a date: recomputed by the system (issue 18 item 8). */
export async function recomputeDraftsAfterPriceChange(ctx: AppContext, siteIds: number[], fromDate: string): Promise<number> {
  if (!siteIds.length) return 0;
  const drafts = await ctx.db
    .select({ id: statement.id })
    .from(statement)
    .where(and(inArray(statement.siteId, siteIds), eq(statement.state, 'draft'), gte(statement.periodEnd, fromDate)));
  let n = 0;
  for (const d of drafts) {
    try {
      await recompute(ctx, SYSTEM_USER, d.id);
      n += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return n;
}

/** The row for downloads (in scope). */
export async function statementForDownload(ctx: AppContext, user: AuthUser, id: number) {
  const r = await rowInScope(ctx.db, user, id);
  const logs = await ctx.db.select().from(statementLog).where(eq(statementLog.statementId, id)).orderBy(asc(statementLog.id));
  return { record: toRecord(r, user), lines: r.s.lines, journal: logs.map(logRecord), contact: r.s.reconciliationContact, phone: r.s.reconciliationPhone };
}
