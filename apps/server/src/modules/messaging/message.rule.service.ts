import { and, asc, desc, eq, inArray, like, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Replyable } from '@ess/contract';
import type { MessageChannel, MessageEvent, messageRuleAdd, messageRuleEdit, messageRulePage, MessageRuleRecord } from '@ess/contract/messaging';
import { mailAccount, mailTemplate, messageDelivery, messageRule, smsChannel, smsTemplate } from '../../db/schema/messaging.ts';
import { site } from '../../db/schema/site.ts';
import { appUser, company, role } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { CANCEL_RULE_DISABLED, cancelDeliveries } from './delivery.ledger.ts';
import { assertSameCompany, RULE_COMPANY_FIXED } from './message.scope.ts';
import { assertCompany, assertSites, inCompanyScope, likeEscaped } from '../../platform/http/scope.ts';

/**
 * Message configuration rules (/message/config; decisions 0043 and 0046): which event goes by
 * which channels to whom. Besides the contract's refinements the server checks what only the
 * database knows: the company is the caller's, the stations are in the caller's scope and belong
 * to the rule's company (or one under it), the users and roles are the caller's to see, the
 * templates have a variant in the rule's company, and the account/channel named (or the
 * company's default when none is named) exists in that company.
 */

type RuleAdd = z.output<typeof messageRuleAdd>;
type RuleEdit = z.output<typeof messageRuleEdit>;
type RulePage = z.output<typeof messageRulePage>;
type RuleReply = Replyable<MessageRuleRecord>;

export const RULE_NOT_FOUND = '消息规则不存在';
export const RULE_SITE_OTHER_COMPANY = '所选站点不属于该公司';
export const RULE_USER_UNKNOWN = '所选用户不存在或无权访问';
export const RULE_ROLE_UNKNOWN = '所选角色不存在或无权访问';
export const RULE_MAIL_TEMPLATE_UNKNOWN = '该公司没有此编码的邮件模板';
export const RULE_SMS_TEMPLATE_UNKNOWN = '该公司没有此编码的短信模板';
export const RULE_MAIL_ACCOUNT_UNKNOWN = '邮件账号不存在或不属于该公司';
export const RULE_SMS_CHANNEL_UNKNOWN = '短信通道不存在或不属于该公司';
export const RULE_NO_DEFAULT_ACCOUNT = '该公司没有默认邮件账号，请选择邮件账号';
export const RULE_NO_DEFAULT_CHANNEL = '该公司没有默认短信通道，请选择短信通道';

/** What a rule row holds in its jsonb columns. */
export interface StoredRecipients {
  userIds: number[];
  roleIds: number[];
  siteContacts: boolean;
  assignee: boolean;
}
export interface StoredQuietHours {
  start: string;
  end: string;
  overrideLevel: number | null;
  timeZone: string | null;
}
export interface StoredEscalation {
  intervalMinutes: number;
  levels: { userIds: number[]; roleIds: number[] }[];
  maxRepeats: number;
}

const columns = {
  id: messageRule.id, companyId: messageRule.companyId, companyName: company.name, name: messageRule.name, event: messageRule.event,
  maxLevel: messageRule.maxLevel, minutes: messageRule.minutes, siteIds: messageRule.siteIds, channels: messageRule.channels,
  mailTemplateCode: messageRule.mailTemplateCode, smsTemplateCode: messageRule.smsTemplateCode, mailAccountId: messageRule.mailAccountId,
  smsChannelId: messageRule.smsChannelId, recipients: messageRule.recipients, quietHours: messageRule.quietHours, escalation: messageRule.escalation,
  enabled: messageRule.enabled, remark: messageRule.remark, createdAt: messageRule.createdAt, updatedAt: messageRule.updatedAt,
  createdByName: appUser.name,
};

const rules = defineListQuery({
  table: messageRule,
  columns,
  joins: [
    { table: company, on: eq(company.id, messageRule.companyId) },
    { table: appUser, on: eq(appUser.id, messageRule.createdBy), left: true },
  ],
  scope: (db, user) => inCompanyScope(messageRule.companyId, db, user),
  filter: (f: Omit<RulePage, 'current' | 'pageSize'>) => [
    f.name ? likeEscaped(messageRule.name, f.name) : undefined,
    f.event ? eq(messageRule.event, f.event) : undefined,
    f.channel ? sql`${f.channel} = any(${messageRule.channels})` : undefined,
    f.companyId ? eq(messageRule.companyId, f.companyId) : undefined,
    f.enabled === undefined ? undefined : eq(messageRule.enabled, f.enabled),
  ],
  orderBy: [desc(messageRule.id)],
  sortable: { name: messageRule.name, event: messageRule.event, enabled: messageRule.enabled, createdAt: messageRule.createdAt, updatedAt: messageRule.updatedAt },
});

type Row = Awaited<ReturnType<typeof rules.rows>>[number];

/** Rows → records with the names of their stations, users and roles (three lookups per page). */
async function toRecords(db: DbOrTx, rows: Row[]): Promise<RuleReply[]> {
  const recipientsOf = (r: Row) => r.recipients as StoredRecipients;
  const siteIds = [...new Set(rows.flatMap((r) => r.siteIds))];
  const userIds = [...new Set(rows.flatMap((r) => recipientsOf(r).userIds))];
  const roleIds = [...new Set(rows.flatMap((r) => recipientsOf(r).roleIds))];
  const [sites, users, roles] = await Promise.all([
    siteIds.length ? db.select({ id: site.id, name: site.name }).from(site).where(inArray(site.id, siteIds)) : [],
    userIds.length ? db.select({ id: appUser.id, name: appUser.name }).from(appUser).where(inArray(appUser.id, userIds)) : [],
    roleIds.length ? db.select({ id: role.id, name: role.name }).from(role).where(inArray(role.id, roleIds)) : [],
  ]);
  const names = (list: { id: number; name: string }[], ids: number[]) => {
    const m = new Map(list.map((x) => [x.id, x.name]));
    return ids.flatMap((id) => (m.has(id) ? [m.get(id)!] : []));
  };
  return rows.map((r) => {
    const rec = recipientsOf(r);
    const esc = r.escalation as StoredEscalation | null;
    return {
      ...r,
      event: r.event as MessageEvent,
      channels: r.channels as MessageChannel[],
      siteNames: names(sites, r.siteIds),
      recipients: { userIds: rec.userIds, roleIds: rec.roleIds, siteContacts: rec.siteContacts, assignee: rec.assignee },
      userNames: names(users, rec.userIds),
      roleNames: names(roles, rec.roleIds),
      quietHours: (r.quietHours as StoredQuietHours | null) ?? null,
      escalation: esc ? { intervalMinutes: esc.intervalMinutes, levels: esc.levels, maxRepeats: esc.maxRepeats } : null,
      createdByName: r.createdByName ?? null,
    };
  });
}

export async function rulePage(ctx: AppContext, user: AuthUser, req: RulePage) {
  if (req.companyId) await assertCompany(ctx.db, user, req.companyId);
  const page = await rules.page(ctx.db, user, req);
  return { ...page, records: await toRecords(ctx.db, page.records) };
}

async function ruleRow(db: DbOrTx, user: AuthUser, id: number): Promise<Row> {
  const [r] = await rules.rows(db, and(eq(messageRule.id, id), inCompanyScope(messageRule.companyId, db, user)), 1);
  if (r) return r;
  // Another company's rule is refused as such (403), an unknown one is 404.
  const [other] = await db.select({ id: messageRule.id }).from(messageRule).where(eq(messageRule.id, id));
  throw other ? new AppError('OUT_OF_SCOPE') : new AppError('NOT_FOUND', RULE_NOT_FOUND);
}

export async function ruleOne(ctx: AppContext, user: AuthUser, id: number): Promise<RuleReply> {
  const [rec] = await toRecords(ctx.db, [await ruleRow(ctx.db, user, id)]);
  return found(rec, RULE_NOT_FOUND);
}

/** The checks only the database can make (nothing is written before they pass). */
async function checkRule(db: DbOrTx, user: AuthUser, b: RuleAdd): Promise<void> {
  await assertCompany(db, user, b.companyId);
  const [c] = await db.select({ path: company.path }).from(company).where(eq(company.id, b.companyId));
  const companyPath = c!.path;
  if (b.siteIds.length) {
    await assertSites(db, user, b.siteIds);
    const inCompany = await db
      .select({ id: site.id })
      .from(site)
      .innerJoin(company, eq(company.id, site.companyId))
      .where(and(inArray(site.id, b.siteIds), like(company.path, `${companyPath}%`)));
    if (inCompany.length !== new Set(b.siteIds).size) throw new AppError('INVALID_PARAM', RULE_SITE_OTHER_COMPANY);
  }
  const userIds = [...new Set([...b.recipients.userIds, ...(b.escalation?.levels.flatMap((l) => l.userIds) ?? [])])];
  const roleIds = [...new Set([...b.recipients.roleIds, ...(b.escalation?.levels.flatMap((l) => l.roleIds) ?? [])])];
  if (userIds.length) {
    const seen = await db
      .select({ id: appUser.id })
      .from(appUser)
      .where(and(inArray(appUser.id, userIds), inCompanyScope(appUser.companyId, db, user), sql`${appUser.deletedAt} is null`));
    if (seen.length !== userIds.length) throw new AppError('INVALID_PARAM', RULE_USER_UNKNOWN);
  }
  if (roleIds.length) {
    const seen = await db.select({ id: role.id }).from(role).where(and(inArray(role.id, roleIds), inCompanyScope(role.companyId, db, user)));
    if (seen.length !== roleIds.length) throw new AppError('INVALID_PARAM', RULE_ROLE_UNKNOWN);
  }
  if (b.channels.includes('mail')) {
    const [t] = await db.select({ id: mailTemplate.id }).from(mailTemplate).where(and(eq(mailTemplate.companyId, b.companyId), eq(mailTemplate.code, b.mailTemplateCode!))).limit(1);
    if (!t) throw new AppError('INVALID_PARAM', RULE_MAIL_TEMPLATE_UNKNOWN);
    const byAccount = b.mailAccountId ? eq(mailAccount.id, b.mailAccountId) : eq(mailAccount.isDefault, true);
    const [a] = await db.select({ id: mailAccount.id }).from(mailAccount).where(and(eq(mailAccount.companyId, b.companyId), byAccount));
    if (!a) throw new AppError('INVALID_PARAM', b.mailAccountId ? RULE_MAIL_ACCOUNT_UNKNOWN : RULE_NO_DEFAULT_ACCOUNT);
  }
  if (b.channels.includes('sms')) {
    const [t] = await db.select({ id: smsTemplate.id }).from(smsTemplate).where(and(eq(smsTemplate.companyId, b.companyId), eq(smsTemplate.code, b.smsTemplateCode!))).limit(1);
    if (!t) throw new AppError('INVALID_PARAM', RULE_SMS_TEMPLATE_UNKNOWN);
    const byChannel = b.smsChannelId ? eq(smsChannel.id, b.smsChannelId) : eq(smsChannel.isDefault, true);
    const [ch] = await db.select({ id: smsChannel.id }).from(smsChannel).where(and(eq(smsChannel.companyId, b.companyId), byChannel));
    if (!ch) throw new AppError('INVALID_PARAM', b.smsChannelId ? RULE_SMS_CHANNEL_UNKNOWN : RULE_NO_DEFAULT_CHANNEL);
  }
}

/** The row's values: what a channel does not use is not kept (a mail template on an SMS-only rule). */
function values(b: RuleAdd) {
  const mail = b.channels.includes('mail');
  const sms = b.channels.includes('sms');
  return {
    companyId: b.companyId, name: b.name, event: b.event, maxLevel: b.maxLevel, minutes: b.minutes, siteIds: [...new Set(b.siteIds)],
    channels: b.channels, mailTemplateCode: mail ? b.mailTemplateCode : null, smsTemplateCode: sms ? b.smsTemplateCode : null,
    mailAccountId: mail ? b.mailAccountId : null, smsChannelId: sms ? b.smsChannelId : null,
    recipients: b.recipients satisfies StoredRecipients, quietHours: b.quietHours satisfies StoredQuietHours | null,
    escalation: b.escalation satisfies StoredEscalation | null, enabled: b.enabled, remark: b.remark ?? null,
  };
}

export async function addRule(ctx: AppContext, user: AuthUser, b: RuleAdd): Promise<number> {
  await checkRule(ctx.db, user, b);
  const [r] = await ctx.db.insert(messageRule).values({ ...values(b), createdBy: user.id }).returning({ id: messageRule.id });
  return r!.id;
}

export async function editRule(ctx: AppContext, user: AuthUser, b: RuleEdit): Promise<void> {
  const cur = await ruleRow(ctx.db, user, b.id);
  assertSameCompany(cur, b, RULE_COMPANY_FIXED);
  await checkRule(ctx.db, user, b);
  await ctx.db.transaction(async (tx) => {
    await tx.update(messageRule).set({ ...values(b), updatedAt: new Date() }).where(eq(messageRule.id, cur.id));
    if (!b.enabled) await cancelPendingOfRule(tx, cur.id);
  });
}

/**
 * Messages of the rule not yet sent (held by quiet hours, waiting for their minutes, later
 * escalation steps) are cancelled when the rule is disabled or deleted; what went, went.
 */
async function cancelPendingOfRule(tx: DbOrTx, ruleId: number): Promise<void> {
  await cancelDeliveries(tx, eq(messageDelivery.ruleId, ruleId), CANCEL_RULE_DISABLED);
}

export async function setRuleEnabled(ctx: AppContext, user: AuthUser, id: number, enabled: boolean): Promise<void> {
  const cur = await ruleRow(ctx.db, user, id);
  await ctx.db.transaction(async (tx) => {
    await tx.update(messageRule).set({ enabled, updatedAt: new Date() }).where(eq(messageRule.id, cur.id));
    if (!enabled) await cancelPendingOfRule(tx, cur.id);
  });
}

export async function deleteRule(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const cur = await ruleRow(ctx.db, user, id);
  await ctx.db.transaction(async (tx) => {
    await cancelPendingOfRule(tx, cur.id);
    await tx.delete(messageRule).where(eq(messageRule.id, cur.id));
  });
}

/** The enabled rules of an event for a station's company chain (the station's company and those above it). */
export async function rulesFor(db: DbOrTx, event: MessageEvent, companyIds: readonly number[]) {
  if (companyIds.length === 0) return [];
  return db
    .select()
    .from(messageRule)
    .where(and(eq(messageRule.event, event), eq(messageRule.enabled, true), inArray(messageRule.companyId, [...companyIds])))
    .orderBy(asc(messageRule.id));
}
export type RuleRow = Awaited<ReturnType<typeof rulesFor>>[number];
