import { and, asc, eq, like, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  SERVICE_END_PAST, SITE_TYPE_LABELS, serviceEndNotPast, type SiteSortField, type Page, type PageRequest, type SiteAdd, type SiteEdit, type SiteFilter,
  type SiteKeyValue, type SiteKeyValueRecord, type SiteRecord, type SiteTreeNode, type SiteType,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { currency } from '../../db/schema/i18n.ts';
import { site, siteKeyValue, userSite } from '../../db/schema/site.ts';
import { I18N_ERRORS } from '@ess/contract/i18n';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { emit } from '../../platform/events/outbox.ts';
import './site.events.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery, type SortRequest } from '../../platform/http/paging.ts';
import { sendXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import type { FastifyReply } from 'fastify';
import { assertCompany, inCompanyScope, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION, pgErrorCode } from '../../platform/db/errors.ts';

const deviceCount = sql<number>`(select count(*) from ${device} where ${device.siteId} = ${site.id})::int`;

const columns = {
  id: site.id,
  companyId: site.companyId,
  companyName: company.name,
  name: site.name,
  code: site.code,
  timeZone: site.timeZone,
  commissioningDate: site.commissioningDate,
  serviceEndDate: site.serviceEndDate,
  regionCode: site.regionCode,
  address: site.address,
  longitude: site.longitude,
  latitude: site.latitude,
  contact: site.contact,
  phone: site.phone,
  email: site.email,
  currency: site.currency,
  siteType: site.siteType,
  projectNo: site.projectNo,
  projectName: site.projectName,
  investor: site.investor,
  powerUser: site.powerUser,
  reconciliationContact: site.reconciliationContact,
  reconciliationPhone: site.reconciliationPhone,
  investorShareRatio: site.investorShareRatio,
  remark: site.remark,
  deviceCount,
  createdAt: site.createdAt,
  updatedAt: site.updatedAt,
};

const num = (v: string | null) => (v === null ? null : Number(v));

/** Stations of this company and every company under it. */
export const underCompany = (companyId: number) =>
  sql`${site.companyId} in (select c.id from ${company} c where c.path like (select p.path from ${company} p where p.id = ${companyId}) || '%')`;

const sites = defineListQuery({
  table: site,
  columns,
  joins: [{ table: company, on: eq(company.id, site.companyId) }],
  scope: (db, user) => inSiteScope(site.id, db, user),
  filter: (f: SiteFilter) => [
    f.companyId ? underCompany(f.companyId) : undefined,
    f.keyword ? or(likeEscaped(site.name, f.keyword), likeEscaped(site.code, f.keyword)) : undefined,
    f.name ? likeEscaped(site.name, f.name) : undefined,
    f.code ? likeEscaped(site.code, f.code) : undefined,
    f.siteType ? eq(site.siteType, f.siteType) : undefined,
    f.regionCode ? like(site.regionCode, `${f.regionCode.replace(/[^0-9]/g, '')}%`) : undefined,
  ],
  orderBy: [asc(site.id)],
  sortable: {
    name: site.name,
    code: site.code,
    companyName: company.name,
    siteType: site.siteType,
    timeZone: site.timeZone,
    currency: site.currency,
    commissioningDate: site.commissioningDate,
    serviceEndDate: site.serviceEndDate,
    deviceCount,
    createdAt: site.createdAt,
  } satisfies Record<SiteSortField, unknown>,
  toRecord: (r): SiteRecord => ({
    ...r,
    siteType: r.siteType as SiteType,
    longitude: num(r.longitude),
    latitude: num(r.latitude),
    investorShareRatio: num(r.investorShareRatio),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

/** A filter naming a company outside the caller's scope is refused, not answered empty. */
async function assertFilterCompany(db: DbOrTx, user: AuthUser, f: { companyId?: number }) {
  if (f.companyId) await assertCompany(db, user, f.companyId);
}

export async function siteList(ctx: AppContext, user: AuthUser, f: SiteFilter): Promise<SiteRecord[]> {
  await assertFilterCompany(ctx.db, user, f);
  return sites.list(ctx.db, user, f, 5000);
}

/** At most this many stations in one sheet. */
const SITE_EXPORT_MAX = 5000;

/** The station list of a filter, in its order, as xlsx in the caller's language and zone. */
export async function siteExport(ctx: AppContext, user: AuthUser, f: SiteFilter & SortRequest, lang: ExportLanguage, reply: FastifyReply) {
  await assertFilterCompany(ctx.db, user, f);
  const rows = await sites.list(ctx.db, user, f, SITE_EXPORT_MAX);
  const columns: XlsxColumn<SiteRecord>[] = [
    { header: '站点名称', width: 22, kind: 'name', value: (r) => r.name },
    { header: '站点编码', width: 16, value: (r) => r.code },
    { header: '所属公司', width: 20, kind: 'name', value: (r) => r.companyName },
    { header: '站点类型', width: 14, kind: 'label', value: (r) => SITE_TYPE_LABELS[r.siteType] },
    { header: '所在地区', width: 12, value: (r) => r.regionCode },
    { header: '详细地址', width: 30, value: (r) => r.address },
    { header: '时区', width: 18, value: (r) => r.timeZone },
    { header: '币种', width: 8, value: (r) => r.currency },
    { header: '投运日期', width: 12, value: (r) => r.commissioningDate },
    { header: '服务到期日期', width: 12, value: (r) => r.serviceEndDate },
    { header: '设备数', width: 10, numFmt: '#,##0', value: (r) => r.deviceCount },
    { header: '联系人', width: 14, value: (r) => r.contact },
    { header: '联系电话', width: 16, value: (r) => r.phone },
    { header: '投资方', width: 18, value: (r) => r.investor },
    { header: '投资方分成比例', unit: '%', width: 12, value: (r) => r.investorShareRatio },
    { header: '创建时间', width: 22, kind: 'instant', value: (r) => new Date(r.createdAt) },
  ];
  return sendXlsx(reply, { fileName: '站点列表', columns }, rows, lang);
}

export async function sitePage(ctx: AppContext, user: AuthUser, req: PageRequest & SiteFilter & SortRequest): Promise<Page<SiteRecord>> {
  await assertFilterCompany(ctx.db, user, req);
  return sites.page(ctx.db, user, req);
}

/** One station the caller may see; any other is reported as not found. */
export async function siteInScope(db: DbOrTx, user: AuthUser, id: number): Promise<SiteRecord> {
  const [row] = await sites.rows(db, and(eq(site.id, id), inSiteScope(site.id, db, user)));
  return found(row, '站点不存在');
}

export const siteOne = (ctx: AppContext, user: AuthUser, id: number) => siteInScope(ctx.db, user, id);

/**
 * Companies (from `companyId`, default the caller's) with their stations, for pickers. With
 * `userId`, only the stations granted to that user (a user of the caller's companies).
 */
export async function siteTree(ctx: AppContext, user: AuthUser, q: { companyId?: number; userId?: number }): Promise<SiteTreeNode[]> {
  const { db } = ctx;
  const rootId = q.companyId ?? user.companyId;
  await assertCompany(db, user, rootId);
  let granted: SQL | undefined;
  if (q.userId) {
    const [u] = await db.select({ id: appUser.id, buildIn: appUser.buildIn }).from(appUser).where(and(eq(appUser.id, q.userId), inCompanyScope(appUser.companyId, db, user)));
    const target = found(u, '用户不存在');
    if (!target.buildIn) granted = sql`${site.id} in (select ${userSite.siteId} from ${userSite} where ${userSite.userId} = ${target.id})`;
  }
  const [root] = await db.select({ path: company.path }).from(company).where(eq(company.id, rootId));
  const companies = await db
    .select({ id: company.id, parentId: company.parentId, name: company.name })
    .from(company)
    .where(like(company.path, `${root!.path}%`))
    .orderBy(asc(company.path), asc(company.id));
  const sites = await db
    .select({ id: site.id, companyId: site.companyId, name: site.name, code: site.code })
    .from(site)
    .where(and(inSiteScope(site.id, db, user), underCompany(rootId), granted))
    .orderBy(asc(site.id));
  const nodes = new Map<number, SiteTreeNode>(companies.map((c) => [c.id, { key: `company-${c.id}`, kind: 'company', id: c.id, name: c.name, children: [] }]));
  for (const s of sites) nodes.get(s.companyId)?.children.push({ key: `site-${s.id}`, kind: 'site', id: s.id, name: s.name, code: s.code, children: [] });
  for (const c of companies) {
    if (c.id !== rootId && c.parentId !== null) nodes.get(c.parentId)?.children.push(nodes.get(c.id)!);
  }
  // Companies with no station anywhere below them are left out.
  const prune = (n: SiteTreeNode): SiteTreeNode | null => {
    if (n.kind === 'site') return n;
    const children = n.children.map(prune).filter((c): c is SiteTreeNode => c !== null);
    return children.length ? { ...n, children } : null;
  };
  const top = prune(nodes.get(rootId)!);
  return top ? [top] : [];
}

async function assertUniqueCode(db: DbOrTx, code: string, exceptId?: number) {
  const [dup] = await db.select({ id: site.id }).from(site).where(and(sql`lower(${site.code}) = lower(${code})`, exceptId ? ne(site.id, exceptId) : undefined));
  if (dup) throw new AppError('DUPLICATE', '站点编码已存在');
}

/** A station's currency (and a price template's) is one of the currencies of /globalization/currency, enabled (issue 24). */
export async function assertCurrency(db: DbOrTx, code: string) {
  const [row] = await db.select({ id: currency.id }).from(currency).where(and(eq(currency.code, code), eq(currency.enabled, true)));
  if (!row) throw new AppError('INVALID_PARAM', `currency: ${I18N_ERRORS.currencyNotFound}`);
}

const onUniqueCode = (err: unknown): never => {
  if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', '站点编码已存在');
  throw err;
};

const fieldsOf = (b: SiteAdd) => ({
  ...b,
  longitude: b.longitude === null ? null : String(b.longitude),
  latitude: b.latitude === null ? null : String(b.latitude),
  investorShareRatio: b.investorShareRatio === null ? null : String(b.investorShareRatio),
});

export async function addSite(ctx: AppContext, user: AuthUser, body: SiteAdd): Promise<{ id: number }> {
  const added = await ctx.db
    .transaction(async (tx) => {
      await assertCompany(tx, user, body.companyId);
      await assertUniqueCode(tx, body.code);
      await assertCurrency(tx, body.currency);
      const [created] = await tx.insert(site).values(fieldsOf(body)).returning({ id: site.id });
      // A user who is not the built-in administrator sees only granted stations: grant the new one.
      if (!user.buildIn) await tx.insert(userSite).values({ userId: user.id, siteId: created!.id });
      await emit(tx, 'site.changed', [{ siteId: created!.id, companyId: body.companyId, change: 'added' }]);
      return { id: created!.id };
    })
    .catch(onUniqueCode);
  ctx.outbox.nudge();
  return added;
}

/**
 * Edits a station. Its code is what its devices publish under (ess/{siteCode}/…), so the code
 * of a station with devices cannot change; an end date that changes must not be in the past.
 */
export async function editSite(ctx: AppContext, user: AuthUser, body: SiteEdit): Promise<void> {
  await ctx.db
    .transaction(async (tx) => {
      const cur = await siteInScope(tx, user, body.id);
      if (body.companyId !== cur.companyId) await assertCompany(tx, user, body.companyId);
      if (body.code !== cur.code) {
        if (cur.deviceCount > 0) throw new AppError('RULE_VIOLATION', '站点下已有设备，设备按站点编码上报数据，不能修改站点编码');
        await assertUniqueCode(tx, body.code, cur.id);
      }
      if (body.currency !== cur.currency) await assertCurrency(tx, body.currency);
      if (body.serviceEndDate !== cur.serviceEndDate && !serviceEndNotPast(body)) throw new AppError('INVALID_PARAM', `serviceEndDate: ${SERVICE_END_PAST}`);
      const { id: _id, ...rest } = body;
      await tx.update(site).set({ ...fieldsOf({ ...rest }), updatedAt: new Date() }).where(eq(site.id, cur.id));
      await emit(tx, 'site.changed', [{ siteId: cur.id, companyId: body.companyId, change: 'edited' }]);
    })
    .catch(onUniqueCode);
  ctx.outbox.nudge();
}

/**
 * Deletes a station without devices; its cabinets, key values, diagram and users' access go
 * with it. A station that still has devices is refused (they publish under its code), and so is
 * one that other records still name.
 */
export async function deleteSite(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  try {
    await ctx.db.transaction(async (tx) => {
      const cur = await siteInScope(tx, user, id);
      if (cur.deviceCount > 0) throw new AppError('RULE_VIOLATION', `站点下还有${cur.deviceCount}台设备，请先删除或迁移设备`);
      await tx.delete(site).where(eq(site.id, cur.id));
      await emit(tx, 'site.changed', [{ siteId: cur.id, companyId: cur.companyId, change: 'deleted' }]);
    });
    ctx.outbox.nudge();
  } catch (err) {
    if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new AppError('RULE_VIOLATION', '站点仍有关联数据，不能删除');
    throw err;
  }
}

// Key values

const EMPTY_KEY_VALUES = {
  installedCapacity: null, voltageLevel: null, transformerProtectionPower: null, installedPower: null,
  depthOfDischarge: null, pvModuleCount: null, pvWorkingMode: null, pilePower: null,
} as const;

export async function keyValueOne(ctx: AppContext, user: AuthUser, siteId: number): Promise<SiteKeyValueRecord> {
  const s = await siteInScope(ctx.db, user, siteId);
  const [row] = await ctx.db.select().from(siteKeyValue).where(eq(siteKeyValue.siteId, s.id));
  if (!row) return { siteId: s.id, siteName: s.name, ...EMPTY_KEY_VALUES, saved: false, updatedAt: null };
  const { updatedAt, pvWorkingMode, ...values } = row;
  return { ...values, pvWorkingMode: pvWorkingMode as SiteKeyValueRecord['pvWorkingMode'], siteName: s.name, saved: true, updatedAt: updatedAt.toISOString() };
}

/** add creates a station's key values (refused when they exist); edit changes them (refused when absent). */
export async function saveKeyValues(ctx: AppContext, user: AuthUser, body: SiteKeyValue, mode: 'add' | 'edit'): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const s = await siteInScope(tx, user, body.siteId);
    const [cur] = await tx.select({ siteId: siteKeyValue.siteId }).from(siteKeyValue).where(eq(siteKeyValue.siteId, s.id)).for('update');
    if (mode === 'add') {
      if (cur) throw new AppError('DUPLICATE', '该站点的关键值已存在，请编辑');
      await tx.insert(siteKeyValue).values(body);
    } else {
      if (!cur) throw new AppError('NOT_FOUND', '该站点尚未设置关键值');
      const { siteId: _s, ...values } = body;
      await tx.update(siteKeyValue).set({ ...values, updatedAt: new Date() }).where(eq(siteKeyValue.siteId, s.id));
    }
  }).catch((err: unknown) => {
    if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', '该站点的关键值已存在，请编辑');
    throw err;
  });
}
