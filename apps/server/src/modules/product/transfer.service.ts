import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  commandAdd, DEVICE_STATUS_LABELS, eventAdd, PRODUCT_MODEL_IMPORT_MAX_ROWS, PRODUCT_MODEL_KIND_LABELS, PRODUCT_MODEL_SHEET_COLUMNS, productAdd,
  productImportFields, productModelSheetRow, propertyAdd, staticPropertyAdd, type DeviceType, type ProductAdd, type ProductModelKind,
  type ProductModelSheetKey, type ProductModelSheetRow, type PropertyAdd, type TelemetryValue,
} from '@ess/contract';
import { product, productCommand, productEvent, productProperty } from '../../db/schema/device.ts';
import { productStaticProperty } from '../../db/schema/product.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Tx } from '../../platform/db/database.ts';
import { importSheet, type Refuse, type SheetRow } from '../../platform/xlsx/import.ts';
import { readUploadedSheet } from '../../platform/xlsx/upload.ts';
import { SOURCE_LANGUAGE, sendXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { latestList } from '../device/index.ts';
import { lockProduct, refreshIngest, uniqueOr } from './product.service.ts';

/**
 * Product model export and import: one sheet, one row per product followed by one row per
 * property, event, command and static property of it. Lists (enumeration values, command
 * parameters) travel as JSON text (the contract's PRODUCT_MODEL_SHEET_COLUMNS). Import is all or nothing.
 */

const KINDS = PRODUCT_MODEL_KIND_LABELS;
type Kind = ProductModelKind;
const HEADER = Object.fromEntries(PRODUCT_MODEL_SHEET_COLUMNS.map((c) => [c.key, c.header])) as Record<ProductModelSheetKey, string>;

interface ModelRow {
  kind: Kind;
  identifier: string;
  name: string;
  dataType?: string | null;
  unit?: string | null;
  enumValues?: unknown;
  cumulative?: boolean;
  writable?: boolean;
  min?: number | null;
  max?: number | null;
  level?: number | null;
  required?: boolean;
  requestParams?: unknown;
  responseParams?: unknown;
  sort?: number | null;
  description?: string | null;
}

const json = (v: unknown) => (v === null || v === undefined || (Array.isArray(v) && v.length === 0) ? null : JSON.stringify(v));
const yes = (v: boolean | undefined) => (v === undefined ? null : v ? '是' : '否');

const COLUMNS: XlsxColumn<ModelRow>[] = [
  { header: HEADER.kind, width: 10, value: (r) => KINDS[r.kind] },
  { header: HEADER.identifier, width: 26, value: (r) => r.identifier },
  { header: HEADER.name, width: 22, value: (r) => r.name },
  { header: HEADER.dataType, width: 12, value: (r) => r.dataType },
  { header: HEADER.unit, width: 8, value: (r) => r.unit },
  { header: HEADER.enumValues, width: 40, value: (r) => json(r.enumValues) },
  { header: HEADER.cumulative, width: 8, value: (r) => yes(r.cumulative) },
  { header: HEADER.writable, width: 8, value: (r) => yes(r.writable) },
  { header: HEADER.min, width: 10, value: (r) => r.min },
  { header: HEADER.max, width: 10, value: (r) => r.max },
  { header: HEADER.level, width: 8, value: (r) => r.level },
  { header: HEADER.required, width: 8, value: (r) => yes(r.required) },
  { header: HEADER.requestParams, width: 40, value: (r) => json(r.requestParams) },
  { header: HEADER.responseParams, width: 40, value: (r) => json(r.responseParams) },
  { header: HEADER.sort, width: 8, value: (r) => r.sort },
  { header: HEADER.description, width: 30, value: (r) => r.description },
];

export async function exportModel(ctx: AppContext, q: { id?: number; type?: DeviceType }, reply: FastifyReply) {
  const products = await ctx.db
    .select()
    .from(product)
    .where(q.id ? eq(product.id, q.id) : q.type ? eq(product.type, q.type) : undefined)
    .orderBy(asc(product.type), asc(product.id));
  if (q.id && !products.length) throw new AppError('NOT_FOUND', '产品不存在');
  const ids = products.map((p) => p.id);
  const none = ids.length === 0;
  const [props, events, commands, statics] = await Promise.all([
    none ? [] : ctx.db.select().from(productProperty).where(inArray(productProperty.productId, ids)).orderBy(asc(productProperty.sort), asc(productProperty.id)),
    none ? [] : ctx.db.select().from(productEvent).where(inArray(productEvent.productId, ids)).orderBy(asc(productEvent.sort), asc(productEvent.id)),
    none ? [] : ctx.db.select().from(productCommand).where(inArray(productCommand.productId, ids)).orderBy(asc(productCommand.sort), asc(productCommand.id)),
    none ? [] : ctx.db.select().from(productStaticProperty).where(inArray(productStaticProperty.productId, ids)).orderBy(asc(productStaticProperty.sort), asc(productStaticProperty.id)),
  ]);
  const rows: ModelRow[] = [];
  for (const p of products) {
    rows.push({ kind: 'product', identifier: p.code, name: p.name, dataType: p.type, description: p.description });
    for (const r of props.filter((x) => x.productId === p.id)) {
      rows.push({ kind: 'property', identifier: r.identifier, name: r.name, dataType: r.dataType, unit: r.unit, enumValues: r.enumValues, cumulative: r.cumulative, writable: r.writable, min: r.min, max: r.max, sort: r.sort });
    }
    for (const r of events.filter((x) => x.productId === p.id)) rows.push({ kind: 'event', identifier: r.identifier, name: r.name, level: r.level, sort: r.sort });
    for (const r of commands.filter((x) => x.productId === p.id)) {
      rows.push({ kind: 'command', identifier: r.identifier, name: r.name, requestParams: r.requestParams, responseParams: r.responseParams, sort: r.sort });
    }
    for (const r of statics.filter((x) => x.productId === p.id)) {
      rows.push({ kind: 'static', identifier: r.identifier, name: r.name, dataType: r.dataType, unit: r.unit, enumValues: r.enumValues, required: r.required, sort: r.sort });
    }
  }
  // The model sheet is also the import template: its headers and labels are the import's keys, in source text.
  const file = products.length === 1 ? { fileName: '产品模型-$1', fileArgs: [products[0]!.code], sheet: '产品模型', columns: COLUMNS } : { fileName: '产品模型', columns: COLUMNS };
  return sendXlsx(reply, file, rows, SOURCE_LANGUAGE);
}

// ── Import ────────────────────────────────────────────────────────────────────────────

type SheetKey = ProductModelSheetKey;
/** Columns of the fields the add schemas name differently (a product's code is its row's identifier). */
const FIELD_COLUMN: Record<string, SheetKey> = { code: 'identifier', type: 'dataType', productId: 'identifier' };

interface ImportedProduct {
  row: number;
  /** Null when the product row was refused (its other rows are still checked). */
  product: ProductAdd | null;
  properties: Omit<PropertyAdd, 'productId'>[];
  events: Omit<z.infer<typeof eventAdd>, 'productId'>[];
  commands: Omit<z.infer<typeof commandAdd>, 'productId'>[];
  statics: Omit<z.infer<typeof staticPropertyAdd>, 'productId'>[];
  /** First row of each identifier, by kind. */
  seen: Map<string, number>;
}

/**
 * Applies the rules of each row's kind (the add schemas) to the sheet's rows, groups them under
 * their products and refuses repeated identifiers of a product, repeated product codes and codes
 * already taken.
 */
async function checkModel(tx: Tx, rows: SheetRow<ProductModelSheetRow>[], refuse: Refuse, override: { code?: string; name?: string }): Promise<ImportedProduct[]> {
  const productRows = rows.filter((r) => r.data.kind === 'product').length;
  if ((override.code || override.name) && productRows > 1) throw new AppError('INVALID_PARAM', 'code: 文件含多个产品时不能指定新编码或名称');
  const out: ImportedProduct[] = [];
  const valid = <T>(row: number, r: z.ZodSafeParseResult<T>): T | null => {
    if (r.success) return r.data;
    for (const issue of r.error.issues.slice(0, 3)) {
      const [field, ...rest] = issue.path.map(String);
      const key = FIELD_COLUMN[field ?? ''] ?? (HEADER[field as SheetKey] ? (field as SheetKey) : 'identifier');
      refuse(row, HEADER[key], rest.length ? `${rest.join('.')}: ${issue.message}` : issue.message);
    }
    return null;
  };
  for (const { row, data: d } of rows) {
    if (!d.kind) {
      if (d.identifier) refuse(row, HEADER.kind, `须为 ${Object.values(PRODUCT_MODEL_KIND_LABELS).join('、')} 之一`);
      continue;
    }
    if (d.kind === 'product') {
      const input = { code: override.code ?? d.identifier, name: override.name ?? d.name, type: d.dataType, description: d.description || null };
      out.push({ row, product: valid(row, productAdd.safeParse(input)), properties: [], events: [], commands: [], statics: [], seen: new Map() });
      continue;
    }
    const cur = out[out.length - 1];
    if (!cur) {
      refuse(row, HEADER.kind, '产品行须在其属性、事件、命令之前');
      continue;
    }
    const base = { productId: 1, identifier: d.identifier, name: d.name, sort: d.sort ?? 0 };
    const key = `${d.kind}:${d.identifier}`;
    const prev = cur.seen.get(key);
    if (prev !== undefined) refuse(row, HEADER.identifier, `${PRODUCT_MODEL_KIND_LABELS[d.kind]}标识符 ${d.identifier} 与第${prev}行重复`);
    else cur.seen.set(key, row);
    const strip = <T extends { productId: number }>({ productId: _p, ...rest }: T) => rest;
    switch (d.kind) {
      case 'property': {
        const v = valid(row, propertyAdd.safeParse({
          ...base, dataType: d.dataType, unit: d.unit, enumValues: d.enumValues ?? null, cumulative: d.cumulative, writable: d.writable, min: d.min, max: d.max,
        }));
        if (v) cur.properties.push(strip(v));
        break;
      }
      case 'event': {
        const v = valid(row, eventAdd.safeParse({ ...base, level: d.level ?? 3 }));
        if (v) cur.events.push(strip(v));
        break;
      }
      case 'command': {
        const v = valid(row, commandAdd.safeParse({ ...base, requestParams: d.requestParams ?? [], responseParams: d.responseParams ?? [] }));
        if (v) cur.commands.push(strip(v));
        break;
      }
      case 'static': {
        const v = valid(row, staticPropertyAdd.safeParse({ ...base, dataType: d.dataType, unit: d.unit, enumValues: d.enumValues ?? null, required: d.required }));
        if (v) cur.statics.push(strip(v));
        break;
      }
    }
  }
  if (!out.length && rows.length) refuse(0, '', '文件中没有产品');
  const firstRowOf = new Map<string, number>();
  for (const m of out) {
    if (!m.product) continue;
    const prev = firstRowOf.get(m.product.code);
    if (prev !== undefined) refuse(m.row, HEADER.identifier, `产品编码 ${m.product.code} 与第${prev}行重复`);
    else firstRowOf.set(m.product.code, m.row);
  }
  const codes = [...firstRowOf.keys()];
  const taken = codes.length ? await tx.select({ code: product.code }).from(product).where(inArray(product.code, codes)) : [];
  for (const { code } of taken) refuse(firstRowOf.get(code)!, HEADER.identifier, `产品编码 ${code} 已存在`);
  return out;
}

/**
 * POST /configure/product/import (multipart: file, and optionally code and name to import a
 * single-product file as a new product). Creates the products with their models; an existing
 * code is refused, and nothing is written unless every row is valid (importSheet: the refusal
 * lists every bad row and column).
 */
export async function importModel(ctx: AppContext, req: FastifyRequest): Promise<{ ids: number[]; count: number }> {
  const { sheet, fields } = await readUploadedSheet(ctx, req);
  const form = productImportFields.safeParse({ code: fields.code?.trim() || undefined, name: fields.name?.trim() || undefined });
  if (!form.success) {
    const issue = form.error.issues[0]!;
    throw new AppError('INVALID_PARAM', `${issue.path.join('.')}: ${issue.message}`);
  }
  const ids = await importSheet(ctx.db, {
    sheet,
    columns: PRODUCT_MODEL_SHEET_COLUMNS,
    maxRows: PRODUCT_MODEL_IMPORT_MAX_ROWS,
    rowSchema: productModelSheetRow,
    check: (tx, rows, refuse) => checkModel(tx, rows, refuse, form.data),
    write: async (tx, models) => {
      const made: number[] = [];
      for (const m of models) {
        const [p] = await uniqueOr('产品编码', () => tx.insert(product).values(m.product!).returning());
        const productId = p!.id;
        await lockProduct(tx, productId);
        let slot = 0;
        if (m.properties.length) {
          await tx.insert(productProperty).values(m.properties.map((x) => ({ ...x, productId, slot: x.dataType === 'string' ? null : ++slot })));
        }
        await tx.update(product).set({ slotCount: slot }).where(eq(product.id, productId));
        if (m.events.length) await tx.insert(productEvent).values(m.events.map((x) => ({ ...x, productId })));
        if (m.commands.length) await tx.insert(productCommand).values(m.commands.map((x) => ({ ...x, productId })));
        if (m.statics.length) await tx.insert(productStaticProperty).values(m.statics.map((x) => ({ ...x, productId })));
        made.push(productId);
      }
      return made;
    },
  });
  await refreshIngest(ctx);
  return { ids, count: ids.length };
}

// ── Data export ───────────────────────────────────────────────────────────────────────

type LatestRow = Awaited<ReturnType<typeof latestList>>[number];

/** GET /configure/product/export/data: the latest values of the product's devices in the caller's stations. */
export async function exportData(ctx: AppContext, user: AuthUser, productId: number, lang: ExportLanguage, reply: FastifyReply) {
  const [p] = await ctx.db.select().from(product).where(eq(product.id, productId));
  if (!p) throw new AppError('NOT_FOUND', '产品不存在');
  const props = await ctx.db.select().from(productProperty).where(eq(productProperty.productId, productId)).orderBy(asc(productProperty.sort), asc(productProperty.id));
  const devices = await latestList(ctx, user, { productId });
  const show = (x: TelemetryValue | undefined, prop: (typeof props)[number]) => {
    if (x === undefined) return null;
    if (prop.dataType === 'enum' && typeof x === 'number') {
      const label = prop.enumValues?.find((e) => e.value === x)?.label;
      return label ? lang.t(label) : x;
    }
    if (typeof x === 'boolean') return lang.t(x ? '是' : '否');
    return x;
  };
  const columns: XlsxColumn<LatestRow>[] = [
    { header: '设备编码', width: 22, value: (r) => r.code },
    { header: '设备名称', width: 22, kind: 'name', value: (r) => r.name },
    { header: '站点', width: 20, value: (r) => r.siteName },
    { header: '状态', width: 10, kind: 'label', value: (r) => DEVICE_STATUS_LABELS[r.status].label },
    { header: '数据时间', width: 22, kind: 'instant', value: (r) => (r.ts ? new Date(r.ts) : null) },
    ...props.map((prop): XlsxColumn<LatestRow> => ({
      header: prop.name,
      ...(prop.unit ? { unit: prop.unit } : {}),
      width: 14,
      value: (r) => show(r.values[prop.identifier], prop),
    })),
  ];
  return sendXlsx(reply, { fileName: '产品数据-$1', fileArgs: [p.code], sheet: '最新数据', columns }, devices, lang);
}
