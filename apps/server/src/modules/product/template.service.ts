import { and, asc, count, eq, inArray, ne, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import {
  HISTORY_INTERVAL_LABELS, TEMPLATE_HISTORY_MAX_SERIES, type DeviceHistory, type DeviceLatestRecord, type DeviceType, type Page, type PageRequest, type PropertyDataType,
  type PropertyRecord, type TemplateAdd, type TemplateEdit, type TemplateHistoryBody, type TemplateRecord, type TemplateSortField, type TemplateTreeNode,
} from '@ess/contract';
import { device, product, productProperty } from '../../db/schema/device.ts';
import { productTemplate } from '../../db/schema/product.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { assertSites, inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import { streamXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { latestList, latestPage } from '../device/index.ts';
import { deviceHistory } from '../telemetry/index.ts';
import { uniqueOr } from './product.service.ts';

/**
 * Product templates (a named, ordered selection of one product's properties) and the data read
 * through them: latest values of many devices, their history and its export. Templates are
 * shared like products; every data call stays within the caller's stations.
 */

type TemplateFilter = { productId?: number; type?: DeviceType; keyword?: string };

const selectTemplates = (db: DbOrTx) =>
  db
    .select({
      id: productTemplate.id, name: productTemplate.name, productId: productTemplate.productId, productName: product.name, productType: product.type,
      identifiers: productTemplate.identifiers, description: productTemplate.description, sort: productTemplate.sort, createdAt: productTemplate.createdAt,
    })
    .from(productTemplate)
    .innerJoin(product, eq(product.id, productTemplate.productId));
type TemplateRow = Awaited<ReturnType<ReturnType<typeof selectTemplates>['where']>>[number];
const toRecord = (r: TemplateRow): TemplateRecord => ({ ...r, productType: r.productType as DeviceType, createdAt: r.createdAt.toISOString() });
const templateWhere = (f: TemplateFilter): SQL | undefined =>
  and(
    f.productId ? eq(productTemplate.productId, f.productId) : undefined,
    f.type ? eq(product.type, f.type) : undefined,
    f.keyword ? likeEscaped(productTemplate.name, f.keyword) : undefined,
  );
const order = [asc(productTemplate.sort), asc(productTemplate.id)];
const sortable = {
  name: productTemplate.name, productName: product.name, productType: product.type, description: productTemplate.description, sort: productTemplate.sort,
  createdAt: productTemplate.createdAt,
} satisfies Record<TemplateSortField, unknown>;

export async function templateList(ctx: AppContext, f: TemplateFilter): Promise<TemplateRecord[]> {
  return (await selectTemplates(ctx.db).where(templateWhere(f)).orderBy(...order).limit(1000)).map(toRecord);
}

export async function templatePage(ctx: AppContext, req: PageRequest & TemplateFilter & SortRequest): Promise<Page<TemplateRecord>> {
  const where = templateWhere(req);
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(productTemplate).innerJoin(product, eq(product.id, productTemplate.productId)).where(where);
  const records = n === 0 ? [] : (await selectTemplates(ctx.db).where(where).orderBy(...sortedBy(req, sortable, order)).limit(req.pageSize).offset((req.current - 1) * req.pageSize)).map(toRecord);
  return { records, total: n, current: req.current, pageSize: req.pageSize };
}

export async function templateOne(ctx: AppContext, id: number): Promise<TemplateRecord> {
  const [r] = await selectTemplates(ctx.db).where(eq(productTemplate.id, id));
  if (!r) throw new AppError('NOT_FOUND', '产品模板不存在');
  return toRecord(r);
}

/** Every identifier must be a property of the product; the name must be free. */
async function checkTemplate(db: DbOrTx, b: TemplateAdd, exceptId?: number, prefix = '') {
  const [p] = await db.select({ id: product.id }).from(product).where(eq(product.id, b.productId));
  if (!p) throw new AppError('NOT_FOUND', `${prefix}productId: 产品不存在`);
  const props = await db
    .select({ identifier: productProperty.identifier })
    .from(productProperty)
    .where(and(eq(productProperty.productId, b.productId), inArray(productProperty.identifier, b.identifiers)));
  const known = new Set(props.map((x) => x.identifier));
  const missing = b.identifiers.filter((i) => !known.has(i));
  if (missing.length) throw new AppError('INVALID_PARAM', `${prefix}identifiers: 产品没有属性 ${missing.join('、')}`);
  const [dup] = await db
    .select({ id: productTemplate.id })
    .from(productTemplate)
    .where(and(eq(productTemplate.name, b.name), exceptId ? ne(productTemplate.id, exceptId) : undefined));
  if (dup) throw new AppError('DUPLICATE', `${prefix}name: 模板名称 ${b.name} 已存在`);
}

export async function addTemplate(ctx: AppContext, b: TemplateAdd): Promise<{ id: number }> {
  return ctx.db.transaction(async (tx) => {
    await checkTemplate(tx, b);
    const [row] = await uniqueOr('模板名称', () => tx.insert(productTemplate).values(b).returning({ id: productTemplate.id }));
    return { id: row!.id };
  });
}

/** All or nothing: one bad item refuses the batch, naming it. */
export async function addTemplates(ctx: AppContext, items: TemplateAdd[]): Promise<{ ids: number[] }> {
  return ctx.db.transaction(async (tx) => {
    const ids: number[] = [];
    for (const [i, b] of items.entries()) {
      await checkTemplate(tx, b, undefined, `items.${i}.`);
      const [row] = await uniqueOr('模板名称', () => tx.insert(productTemplate).values(b).returning({ id: productTemplate.id }));
      ids.push(row!.id);
    }
    return { ids };
  });
}

export async function editTemplate(ctx: AppContext, b: TemplateEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select({ id: productTemplate.id }).from(productTemplate).where(eq(productTemplate.id, b.id));
    if (!cur) throw new AppError('NOT_FOUND', '产品模板不存在');
    await checkTemplate(tx, b, b.id);
    const { id, ...rest } = b;
    await uniqueOr('模板名称', () => tx.update(productTemplate).set({ ...rest, updatedAt: new Date() }).where(eq(productTemplate.id, id)));
  });
}

export async function deleteTemplate(ctx: AppContext, id: number): Promise<void> {
  const rows = await ctx.db.delete(productTemplate).where(eq(productTemplate.id, id)).returning({ id: productTemplate.id });
  if (!rows.length) throw new AppError('NOT_FOUND', '产品模板不存在');
}

const toProperty = (r: typeof productProperty.$inferSelect): PropertyRecord => ({
  id: r.id, productId: r.productId, identifier: r.identifier, name: r.name, dataType: r.dataType as PropertyDataType, unit: r.unit,
  enumValues: r.enumValues, cumulative: r.cumulative, writable: r.writable, min: r.min, max: r.max, sort: r.sort, slot: r.slot,
});

/** A template's properties in its order, or (productId) every property a template of that product may pick. */
export async function templateProperties(ctx: AppContext, b: { id?: number; productId?: number }): Promise<PropertyRecord[]> {
  if (b.id) {
    const t = await templateOne(ctx, b.id);
    const props = await ctx.db.select().from(productProperty).where(and(eq(productProperty.productId, t.productId), inArray(productProperty.identifier, t.identifiers)));
    const by = new Map(props.map((p) => [p.identifier, p]));
    return t.identifiers.flatMap((i) => (by.has(i) ? [toProperty(by.get(i)!)] : []));
  }
  const [p] = await ctx.db.select({ id: product.id }).from(product).where(eq(product.id, b.productId!));
  if (!p) throw new AppError('NOT_FOUND', '产品不存在');
  return (await ctx.db.select().from(productProperty).where(eq(productProperty.productId, p.id)).orderBy(asc(productProperty.sort), asc(productProperty.id))).map(toProperty);
}

// ── Template data ─────────────────────────────────────────────────────────────────────

type DeviceScopeFilter = { companyId?: number; siteId?: number; siteIds?: number[]; deviceIds?: number[]; keyword?: string };

/** Latest values of the template product's devices in the caller's stations, the template's identifiers only. */
export async function templateLatestPage(ctx: AppContext, user: AuthUser, req: PageRequest & DeviceScopeFilter & { templateId: number }): Promise<Page<DeviceLatestRecord>> {
  await assertSites(ctx.db, user, [...(req.siteId ? [req.siteId] : []), ...(req.siteIds ?? [])]);
  const t = await templateOne(ctx, req.templateId);
  const { templateId: _t, ...filter } = req;
  return latestPage(ctx, user, { ...filter, productId: t.productId, identifiers: t.identifiers });
}

/** Stations in scope → the template product's devices, each with the template's latest values. */
export async function templateLatestTree(ctx: AppContext, user: AuthUser, b: { templateId: number; companyId?: number; siteId?: number }): Promise<TemplateTreeNode[]> {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  const t = await templateOne(ctx, b.templateId);
  const rows = await latestList(ctx, user, { companyId: b.companyId, siteId: b.siteId, productId: t.productId, identifiers: t.identifiers });
  const sites = new Map<number, TemplateTreeNode>();
  for (const r of rows) {
    let s = sites.get(r.siteId);
    if (!s) {
      s = { key: `site-${r.siteId}`, kind: 'site', id: r.siteId, code: r.siteCode, name: r.siteName, children: [] };
      sites.set(r.siteId, s);
    }
    s.children.push({ key: `device-${r.id}`, kind: 'device', id: r.id, code: r.code, name: r.name, status: r.status, ts: r.ts, values: r.values, children: [] });
  }
  return [...sites.values()];
}

/**
 * History of several devices through a template (or named identifiers): each device's series by
 * the device history reader, so the range rules hold (raw reports within 24 hours, daily values
 * within one station-local month). Devices outside the caller's stations are refused.
 */
export async function templateHistory(ctx: AppContext, user: AuthUser, b: TemplateHistoryBody): Promise<DeviceHistory[]> {
  let identifiers = b.identifiers;
  if (b.templateId) {
    const t = await templateOne(ctx, b.templateId);
    const foreign = await ctx.db
      .select({ id: device.id, code: device.code })
      .from(device)
      .where(and(inArray(device.id, b.deviceIds), ne(device.productId, t.productId), inSiteScope(device.siteId, ctx.db, user)));
    if (foreign.length) throw new AppError('INVALID_PARAM', `deviceIds: 设备 ${foreign.map((d) => d.code).join('、')} 不属于模板的产品`);
    if (!identifiers) {
      const numeric = await ctx.db
        .select({ identifier: productProperty.identifier })
        .from(productProperty)
        .where(and(eq(productProperty.productId, t.productId), inArray(productProperty.identifier, t.identifiers), ne(productProperty.dataType, 'string')));
      const keep = new Set(numeric.map((x) => x.identifier));
      identifiers = t.identifiers.filter((i) => keep.has(i));
      if (!identifiers.length) throw new AppError('INVALID_PARAM', 'identifiers: 模板没有可查询历史的数值属性');
    }
  }
  const ids = identifiers!;
  if (ids.length * b.deviceIds.length > TEMPLATE_HISTORY_MAX_SERIES) {
    throw new AppError('INVALID_PARAM', `identifiers: 设备数×属性数不能超过 ${TEMPLATE_HISTORY_MAX_SERIES}`);
  }
  const out: DeviceHistory[] = [];
  for (const deviceId of b.deviceIds) out.push(await deviceHistory(ctx, user, { deviceId, identifiers: ids, start: b.start, end: b.end, interval: b.interval }));
  return out;
}

interface HistoryRow {
  t: number;
  code: string;
  name: string;
  values: (number | null)[];
}

/** The same query as an xlsx: one row per device and time, one column per property (bucket averages for rollups). */
export async function exportTemplateHistory(ctx: AppContext, user: AuthUser, b: TemplateHistoryBody, lang: ExportLanguage, reply: FastifyReply) {
  const histories = await templateHistory(ctx, user, b);
  const devices = await ctx.db.select({ id: device.id, code: device.code, name: device.name }).from(device).where(inArray(device.id, b.deviceIds));
  const byId = new Map(devices.map((d) => [d.id, d]));
  const head = histories[0]?.series ?? [];
  function* rows(): Generator<HistoryRow> {
    for (const h of histories) {
      const d = byId.get(h.deviceId)!;
      const times = h.series[0]?.points.map((p) => p[0]) ?? [];
      for (let i = 0; i < times.length; i++) {
        yield { t: times[i]!, code: d.code, name: d.name, values: h.series.map((s) => s.points[i]?.[1] ?? null) };
      }
    }
  }
  const columns: XlsxColumn<HistoryRow>[] = [
    { header: '时间', width: 22, kind: 'instant', value: (r) => new Date(r.t) },
    { header: '设备编码', width: 22, value: (r) => r.code },
    { header: '设备名称', width: 22, kind: 'name', value: (r) => r.name },
    ...head.map((s, i): XlsxColumn<HistoryRow> => ({ header: s.name, ...(s.unit ? { unit: s.unit } : {}), width: 14, numFmt: '#,##0.00', value: (r) => r.values[i] })),
  ];
  const interval = histories[0]?.interval ?? 'raw';
  return streamXlsx(reply, { fileName: '历史数据-$1', fileArgs: [lang.t(HISTORY_INTERVAL_LABELS[interval])], sheet: '历史数据', columns }, rows(), lang);
}
