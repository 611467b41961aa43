import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  commandAdd, DEVICE_STATUS_LABELS, eventAdd, productAdd, propertyAdd, staticPropertyAdd, type DeviceType,
  type TelemetryValue,
} from '@ess/contract';
import { product, productCommand, productEvent, productProperty } from '../../db/schema/device.ts';
import { productStaticProperty } from '../../db/schema/product.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { readXlsx, sendXlsx, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { latestList } from '../device/index.ts';
import { lockProduct, refreshIngest, uniqueOr } from './product.service.ts';

/**
 * Product model export and import: one sheet, one row per product followed by one row per
 * property, event, command and static property of it. Lists (enumeration values, command
 * parameters) travel as JSON text. Import is all or nothing.
 */

const KINDS = { product: '产品', property: '属性', event: '事件', command: '命令', static: '静态属性' } as const;
type Kind = keyof typeof KINDS;

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
  { header: '类别', width: 10, value: (r) => KINDS[r.kind] },
  { header: '标识符', width: 26, value: (r) => r.identifier },
  { header: '名称', width: 22, value: (r) => r.name },
  { header: '数据类型', width: 12, value: (r) => r.dataType },
  { header: '单位', width: 8, value: (r) => r.unit },
  { header: '枚举值', width: 40, value: (r) => json(r.enumValues) },
  { header: '累计量', width: 8, value: (r) => yes(r.cumulative) },
  { header: '可写', width: 8, value: (r) => yes(r.writable) },
  { header: '最小值', width: 10, value: (r) => r.min },
  { header: '最大值', width: 10, value: (r) => r.max },
  { header: '等级', width: 8, value: (r) => r.level },
  { header: '必填', width: 8, value: (r) => yes(r.required) },
  { header: '请求参数', width: 40, value: (r) => json(r.requestParams) },
  { header: '响应参数', width: 40, value: (r) => json(r.responseParams) },
  { header: '排序', width: 8, value: (r) => r.sort },
  { header: '描述', width: 30, value: (r) => r.description },
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
  const name = products.length === 1 ? `产品模型-${products[0]!.code}` : '产品模型';
  return sendXlsx(reply, name, '产品模型', COLUMNS, rows);
}

// ── Import ────────────────────────────────────────────────────────────────────────────

const text = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object' && 'richText' in v) return (v as { richText: { text: string }[] }).richText.map((t) => t.text).join('');
  if (typeof v === 'object' && 'text' in v) return text((v).text);
  if (typeof v === 'object' && 'result' in v) return text((v).result);
  return JSON.stringify(v);
};
const bool = (v: unknown) => ['是', 'true', '1', 'y', 'yes'].includes(text(v).toLowerCase());
const numOrNull = (v: unknown): number | null | string => {
  const s = text(v);
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : s;
};
const parsed = (v: unknown, column: string, line: number): unknown => {
  const s = text(v);
  if (s === '') return undefined;
  try {
    return JSON.parse(s);
  } catch {
    throw new AppError('INVALID_PARAM', `第${line}行 ${column}: 不是有效的 JSON`);
  }
};

const issueText = (err: z.ZodError) => {
  const i = err.issues[0]!;
  return `${i.path.join('.') || '行'}: ${i.message}`;
};
function check<T>(schema: z.ZodType<T>, input: unknown, line: number): T {
  const r = schema.safeParse(input);
  if (!r.success) throw new AppError('INVALID_PARAM', `第${line}行 ${issueText(r.error)}`);
  return r.data;
}

interface ImportedProduct {
  line: number;
  product: z.infer<typeof productAdd>;
  properties: Omit<z.infer<typeof propertyAdd>, 'productId'>[];
  events: Omit<z.infer<typeof eventAdd>, 'productId'>[];
  commands: Omit<z.infer<typeof commandAdd>, 'productId'>[];
  statics: Omit<z.infer<typeof staticPropertyAdd>, 'productId'>[];
}

/** Reads the uploaded workbook into products, checking every row with the add schemas. */
function parseModel(rows: Record<string, unknown>[], override: { code?: string; name?: string }): ImportedProduct[] {
  const out: ImportedProduct[] = [];
  const kindOf = new Map<string, Kind>((Object.keys(KINDS) as Kind[]).map((k) => [KINDS[k], k]));
  rows.forEach((r, i) => {
    const line = i + 2;
    const kindText = text(r['类别']);
    if (!kindText && !text(r['标识符'])) return;
    const kind = kindOf.get(kindText);
    if (!kind) throw new AppError('INVALID_PARAM', `第${line}行 类别: 须为 ${Object.values(KINDS).join('、')} 之一`);
    const cur = out[out.length - 1];
    if (kind !== 'product' && !cur) throw new AppError('INVALID_PARAM', `第${line}行 类别: 产品行须在其属性、事件、命令之前`);
    const base = { identifier: text(r['标识符']), name: text(r['名称']), sort: numOrNull(r['排序']) ?? 0 };
    switch (kind) {
      case 'product':
        out.push({
          line,
          product: check(productAdd, { code: base.identifier, name: base.name, type: text(r['数据类型']), description: text(r['描述']) || null }, line),
          properties: [], events: [], commands: [], statics: [],
        });
        break;
      case 'property': {
        const v = check(propertyAdd, {
          ...base, productId: 1, dataType: text(r['数据类型']), unit: text(r['单位']), enumValues: parsed(r['枚举值'], '枚举值', line) ?? null,
          cumulative: bool(r['累计量']), writable: bool(r['可写']), min: numOrNull(r['最小值']), max: numOrNull(r['最大值']),
        }, line);
        const { productId: _p, ...rest } = v;
        cur!.properties.push(rest);
        break;
      }
      case 'event': {
        const { productId: _p, ...rest } = check(eventAdd, { ...base, productId: 1, level: numOrNull(r['等级']) ?? 3 }, line);
        cur!.events.push(rest);
        break;
      }
      case 'command': {
        const { productId: _p, ...rest } = check(commandAdd, {
          ...base, productId: 1, requestParams: parsed(r['请求参数'], '请求参数', line) ?? [], responseParams: parsed(r['响应参数'], '响应参数', line) ?? [],
        }, line);
        cur!.commands.push(rest);
        break;
      }
      case 'static': {
        const { productId: _p, ...rest } = check(staticPropertyAdd, {
          ...base, productId: 1, dataType: text(r['数据类型']), unit: text(r['单位']), enumValues: parsed(r['枚举值'], '枚举值', line) ?? null, required: bool(r['必填']),
        }, line);
        cur!.statics.push(rest);
        break;
      }
    }
  });
  if (!out.length) throw new AppError('INVALID_PARAM', 'file: 文件中没有产品');
  if ((override.code || override.name) && out.length !== 1) throw new AppError('INVALID_PARAM', 'code: 文件含多个产品时不能指定新编码或名称');
  for (const p of out) {
    if (override.code) p.product.code = check(productAdd.shape.code, override.code, p.line);
    if (override.name) p.product.name = check(productAdd.shape.name, override.name, p.line);
    for (const [what, list] of [['属性', p.properties], ['事件', p.events], ['命令', p.commands], ['静态属性', p.statics]] as const) {
      const seen = new Set<string>();
      for (const x of list) {
        if (seen.has(x.identifier)) throw new AppError('DUPLICATE', `产品 ${p.product.code} 的${what}标识符 ${x.identifier} 重复`);
        seen.add(x.identifier);
      }
    }
  }
  return out;
}

/**
 * POST /configure/product/import (multipart: file, and optionally code and name to import a
 * single-product file as a new product). Creates the products with their models; an existing
 * code is refused, and nothing is written unless every row is valid.
 */
export async function importModel(ctx: AppContext, req: FastifyRequest): Promise<{ ids: number[]; count: number }> {
  let file: Buffer | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          continue;
        }
        if (!/\.xlsx$/i.test(part.filename)) {
          part.file.resume();
          throw new AppError('FILE_TYPE', '上传文件须为 xlsx');
        }
        file = await part.toBuffer();
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE');
    if ((err as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('INVALID_PARAM', 'file不能为空');
    throw err;
  }
  if (!file?.length) throw new AppError('INVALID_PARAM', 'file不能为空');
  let rows: Record<string, unknown>[];
  try {
    rows = await readXlsx(file);
  } catch {
    throw new AppError('FILE_TYPE', '文件不是有效的 xlsx');
  }
  const models = parseModel(rows, { code: fields.code?.trim() || undefined, name: fields.name?.trim() || undefined });
  const ids = await ctx.db.transaction(async (tx) => {
    const made: number[] = [];
    for (const m of models) {
      const [dup] = await tx.select({ id: product.id }).from(product).where(eq(product.code, m.product.code));
      if (dup) throw new AppError('DUPLICATE', `code: 产品编码 ${m.product.code} 已存在`);
      const [p] = await uniqueOr('产品编码', () => tx.insert(product).values(m.product).returning());
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
  });
  await refreshIngest(ctx);
  return { ids, count: ids.length };
}

// ── Data export ───────────────────────────────────────────────────────────────────────

type LatestRow = Awaited<ReturnType<typeof latestList>>[number];

/** GET /configure/product/export/data: the latest values of the product's devices in the caller's stations. */
export async function exportData(ctx: AppContext, user: AuthUser, productId: number, reply: FastifyReply) {
  const [p] = await ctx.db.select().from(product).where(eq(product.id, productId));
  if (!p) throw new AppError('NOT_FOUND', '产品不存在');
  const props = await ctx.db.select().from(productProperty).where(eq(productProperty.productId, productId)).orderBy(asc(productProperty.sort), asc(productProperty.id));
  const devices = await latestList(ctx, user, { productId });
  const show = (x: TelemetryValue | undefined, prop: (typeof props)[number]) => {
    if (x === undefined) return null;
    if (prop.dataType === 'enum' && typeof x === 'number') return prop.enumValues?.find((e) => e.value === x)?.label ?? x;
    if (typeof x === 'boolean') return x ? '是' : '否';
    return x;
  };
  const columns: XlsxColumn<LatestRow>[] = [
    { header: '设备编码', width: 22, value: (r) => r.code },
    { header: '设备名称', width: 22, value: (r) => r.name },
    { header: '站点', width: 20, value: (r) => r.siteName },
    { header: '状态', width: 10, value: (r) => DEVICE_STATUS_LABELS[r.status].label },
    { header: '数据时间', width: 22, value: (r) => (r.ts ? new Date(r.ts) : null) },
    ...props.map((prop): XlsxColumn<LatestRow> => ({
      header: prop.unit ? `${prop.name}(${prop.unit})` : prop.name,
      width: 14,
      value: (r) => show(r.values[prop.identifier], prop),
    })),
  ];
  return sendXlsx(reply, `产品数据-${p.code}`, '最新数据', columns, devices);
}
