import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DEVICE_EXPORT_MAX_ROWS, DEVICE_IMPORT_MAX_ROWS, DEVICE_SHEET_COLUMNS, PRODUCT_SHEET_COLUMNS,
  deviceSheetRow, productDataSheetRow,
  type DeviceEditBody, type DeviceFilter, type DeviceRecord, type DeviceSheetKey, type DeviceSheetRow, type ImportResult, type ImportRowError,
} from '@ess/contract';
import { cabinet, device, product } from '../../db/schema/device.ts';
import { deviceImport } from '../../db/schema/device-registry.ts';
import { deviceStaticValue, productStaticProperty } from '../../db/schema/product.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import { deviceLatest } from '../../db/schema/telemetry.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { assertSites, inSiteScope, siteIdsInScope } from '../../platform/http/scope.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { SOURCE_LANGUAGE, sendXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { deviceSortColumns, deviceWhere, statusExpr } from './device.repository.ts';
import { exportLanguage } from '../i18n/index.ts';
import { deviceOne } from './device.service.ts';
import { importSheet, inSourceText } from '../../platform/xlsx/import.ts';
import { readUploadedSheet } from '../../platform/xlsx/upload.ts';
import { ingestOf } from '../telemetry/index.ts';

const parentDevice = alias(device, 'parent_device');

/**
 * After a registry change the ingest maps codes anew at once (an unknown code would also trigger
 * a reload, but a changed or disabled one would not). The first load() joins any load in flight,
 * which may have read the tables before this change; the second reads them afresh. Other
 * instances pick the change up on their periodic reload or on the first unknown code.
 */
export async function refreshRegistry(ctx: AppContext): Promise<void> {
  const registry = ingestOf(ctx)?.registry;
  if (!registry) return;
  await registry.load().catch(() => undefined);
  await registry.load();
}

// ── Edit ──────────────────────────────────────────────────────────────────────────────

/** Edits a device of the caller's stations. Its station and product (its telemetry layout) stay. */
export async function deviceEdit(ctx: AppContext, user: AuthUser, b: DeviceEditBody): Promise<DeviceRecord> {
  await ctx.db.transaction(async (tx) => {
    const [d] = await tx
      .select({ id: device.id, siteId: device.siteId })
      .from(device)
      .where(and(eq(device.id, b.id), inSiteScope(device.siteId, tx, user)))
      .for('update');
    if (!d) throw new AppError('NOT_FOUND', '设备不存在');
    const [dup] = await tx.select({ id: device.id }).from(device).where(and(eq(device.code, b.code), ne(device.id, b.id)));
    if (dup) throw new AppError('DUPLICATE', `设备编码 ${b.code} 已存在`);
    if (b.parentId) {
      if (b.parentId === b.id) throw new AppError('RULE_VIOLATION', 'parentId: 上级设备不能是设备自身');
      const [p] = await tx.select({ siteId: device.siteId }).from(device).where(eq(device.id, b.parentId));
      if (!p || p.siteId !== d.siteId) throw new AppError('RULE_VIOLATION', 'parentId: 上级设备须是同一站点的设备');
      // Not under itself: walk up from the new parent.
      const chain = await tx.execute<{ id: number }>(sql`
        with recursive up(id, parent_id, depth) as (
          select ${device.id}, ${device.parentId}, 0 from ${device} where ${device.id} = ${b.parentId}
          union all
          select d.id, d.parent_id, up.depth + 1 from device d join up on d.id = up.parent_id where up.depth < 64
        ) select id from up`);
      if (rowsOf<{ id: number }>(chain).some((r) => Number(r.id) === b.id)) throw new AppError('RULE_VIOLATION', 'parentId: 上级设备不能是自身的下级设备');
    }
    if (b.cabinetId) {
      const [c] = await tx.select({ siteId: cabinet.siteId }).from(cabinet).where(eq(cabinet.id, b.cabinetId));
      if (!c || c.siteId !== d.siteId) throw new AppError('RULE_VIOLATION', 'cabinetId: 储能柜须属于设备所在站点');
    }
    await tx
      .update(device)
      .set({
        code: b.code,
        name: b.name,
        barcode: b.barcode,
        ...(b.parentId !== undefined ? { parentId: b.parentId } : {}),
        ...(b.cabinetId !== undefined ? { cabinetId: b.cabinetId } : {}),
        ...(b.meterPurpose !== undefined ? { meterPurpose: b.meterPurpose } : {}),
        ...(b.ratedPower !== undefined ? { ratedPower: b.ratedPower } : {}),
        ...(b.no !== undefined ? { no: b.no } : {}),
        ...(b.subNo !== undefined ? { subNo: b.subNo } : {}),
        firmwareName: b.firmwareName,
        firmwareVersion: b.firmwareVersion,
        ...(b.disabled !== undefined ? { disabled: b.disabled } : {}),
        ...(b.sort !== undefined ? { sort: b.sort } : {}),
        updatedAt: new Date(),
      })
      .where(eq(device.id, b.id));
  });
  await refreshRegistry(ctx);
  return deviceOne(ctx, user, b.id);
}

/** drizzle's execute answers { rows } on node-postgres and PGlite alike. */
function rowsOf<T>(r: unknown): T[] {
  return (r as { rows: T[] }).rows;
}

// ── Device sheet: export ──────────────────────────────────────────────────────────────

/** The device sheet of a filter, in the list's order, in the caller's language (its import reads it back). */
export async function deviceExport(ctx: AppContext, user: AuthUser, f: DeviceFilter & SortRequest, lang: ExportLanguage, reply: FastifyReply) {
  await assertSites(ctx.db, user, [...(f.siteId ? [f.siteId] : []), ...(f.siteIds ?? [])]);
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  const rows = await ctx.db
    .select({
      siteCode: site.code, code: device.code, name: device.name, productCode: product.code, barcode: device.barcode,
      parentCode: parentDevice.code, meterPurpose: device.meterPurpose, cabinetCode: cabinet.code, ratedPower: device.ratedPower,
      no: device.no, subNo: device.subNo, firmwareName: device.firmwareName, firmwareVersion: device.firmwareVersion,
      disabled: device.disabled, sort: device.sort,
    })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .innerJoin(product, eq(product.id, device.productId))
    .leftJoin(parentDevice, eq(parentDevice.id, device.parentId))
    .leftJoin(cabinet, eq(cabinet.id, device.cabinetId))
    .leftJoin(deviceLatest, eq(deviceLatest.deviceId, device.id))
    .where(deviceWhere(ctx.db, user, f, status))
    .orderBy(...sortedBy(f, deviceSortColumns(status), [asc(site.code), asc(device.sort), asc(device.id)]))
    .limit(DEVICE_EXPORT_MAX_ROWS);
  type Row = (typeof rows)[number];
  const columns: XlsxColumn<Row>[] = DEVICE_SHEET_COLUMNS.map((c) => ({
    header: c.header,
    width: c.key === 'name' || c.key === 'code' || c.key === 'parentCode' ? 24 : 14,
    ...(c.key === 'disabled' ? { kind: 'label' as const } : {}),
    value: (r: Row) => (c.key === 'disabled' ? (r.disabled ? '是' : '否') : r[c.key]),
  }));
  return sendXlsx(reply, { fileName: '设备', columns }, rows, lang);
}

// ── Import history ────────────────────────────────────────────────────────────────────

/**
 * Runs an import (platform/xlsx/import.ts: every row checked, all or nothing) and keeps its
 * history row: the counts of a stored file, the errors of a refused one.
 */
async function withHistory(
  ctx: AppContext,
  user: AuthUser,
  kind: 'device' | 'product',
  fileName: string,
  totalRows: number,
  run: (onRefused: (errors: ImportRowError[], count: number) => Promise<{ historyId: number }>) => Promise<{ created: number; updated: number; siteIds: number[] }>,
): Promise<ImportResult> {
  const t0 = Date.now();
  const base = { companyId: user.companyId, userId: user.id, username: user.username, kind, fileName: fileName.slice(0, 256), totalRows };
  const r = await run(async (errors, count) => {
    const [h] = await ctx.db
      .insert(deviceImport)
      .values({ ...base, status: 'failed', errorCount: count, errors, durationMs: Date.now() - t0 })
      .returning({ id: deviceImport.id });
    return { historyId: h!.id };
  });
  const [h] = await ctx.db
    .insert(deviceImport)
    .values({ ...base, status: 'success', createdCount: r.created, updatedCount: r.updated, siteIds: r.siteIds, durationMs: Date.now() - t0 })
    .returning({ id: deviceImport.id });
  return { historyId: h!.id, totalRows, created: r.created, updated: r.updated };
}

// ── Device sheet: import ──────────────────────────────────────────────────────────────

const HEADER = Object.fromEntries(DEVICE_SHEET_COLUMNS.map((c) => [c.key, c.header])) as Record<DeviceSheetKey, string>;
type ParsedDevice = DeviceSheetRow & { row: number };

/**
 * Imports the device sheet: a row whose code is new creates a device, a row whose code is a
 * device of the same (visible) station updates it. Every row is checked first — station visible,
 * product exists, codes unique, parent and cabinet in the same station, no parent cycle — and the
 * file is refused whole with every error, or written whole in one transaction.
 */
export async function deviceImportFile(ctx: AppContext, user: AuthUser, req: FastifyRequest): Promise<ImportResult> {
  const uploaded = await readUploadedSheet(ctx, req);
  const { fileName } = uploaded;
  // The caller's own export comes back in their language.
  const sheet = inSourceText(uploaded.sheet, DEVICE_SHEET_COLUMNS, await exportLanguage(req), { disabled: ['是', '否'] });
  const result = await withHistory(ctx, user, 'device', fileName, sheet.rows.length, (onRefused) => importSheet(ctx.db, {
    sheet,
    columns: DEVICE_SHEET_COLUMNS,
    maxRows: DEVICE_IMPORT_MAX_ROWS,
    rowSchema: deviceSheetRow,
    onRefused,
    check: async (tx, sheetRows, refuse) => {
      const rows: ParsedDevice[] = sheetRows.map((r) => ({ ...r.data, row: r.row }));
      const err = (r: ParsedDevice, key: DeviceSheetKey, message: string) => refuse(r.row, HEADER[key], message);
      const siteCodes = [...new Set(rows.map((r) => r.siteCode).filter(Boolean))];
      const sites = siteCodes.length
        ? await tx.select({ id: site.id, code: site.code }).from(site).where(and(inArray(site.code, siteCodes), inSiteScope(site.id, tx, user)))
        : [];
      const siteByCode = new Map(sites.map((s) => [s.code, s.id]));
      const productCodes = [...new Set(rows.map((r) => r.productCode).filter(Boolean))];
      const products = productCodes.length
        ? await tx.select({ id: product.id, code: product.code, type: product.type }).from(product).where(inArray(product.code, productCodes))
        : [];
      const productByCode = new Map(products.map((p) => [p.code, p]));
      const codes = [...new Set(rows.flatMap((r) => [r.code, r.parentCode ?? '']).filter(Boolean))];
      const existing = codes.length
        ? await tx.select({ id: device.id, code: device.code, siteId: device.siteId, productId: device.productId, parentId: device.parentId }).from(device).where(inArray(device.code, codes)).for('update')
        : [];
      const existingByCode = new Map(existing.map((d) => [d.code, d]));
      const siteIds = [...siteByCode.values()];
      const cabinets = siteIds.length
        ? await tx.select({ id: cabinet.id, code: cabinet.code, siteId: cabinet.siteId }).from(cabinet).where(inArray(cabinet.siteId, siteIds))
        : [];
      const cabinetByCode = new Map(cabinets.map((c) => [c.code, c]));

      const firstRowOf = new Map<string, number>();
      const inFile = new Map<string, ParsedDevice>();
      for (const r of rows) {
        if (!r.code) continue;
        const seen = firstRowOf.get(r.code);
        if (seen !== undefined) err(r, 'code', `设备编码在文件中重复（第${seen}行）`);
        else {
          firstRowOf.set(r.code, r.row);
          inFile.set(r.code, r);
        }
      }
      for (const r of rows) {
        const siteId = r.siteCode ? siteByCode.get(r.siteCode) : undefined;
        if (r.siteCode && siteId === undefined) err(r, 'siteCode', `站点 ${r.siteCode} 不存在或无权访问`);
        const p = r.productCode ? productByCode.get(r.productCode) : undefined;
        if (r.productCode && !p) err(r, 'productCode', `产品 ${r.productCode} 不存在`);
        const old = existingByCode.get(r.code);
        if (old && siteId !== undefined) {
          if (old.siteId !== siteId) err(r, 'code', `设备编码 ${r.code} 已被其他站点的设备使用`);
          else if (p && old.productId !== p.id) err(r, 'productCode', '已有设备不能更换产品（请用设备更换）');
        }
        if (r.parentCode && siteId !== undefined) {
          const fileParent = inFile.get(r.parentCode);
          const dbParent = existingByCode.get(r.parentCode);
          if (fileParent) {
            if (fileParent.siteCode !== r.siteCode) err(r, 'parentCode', `上级设备 ${r.parentCode} 不在同一站点`);
          } else if (!dbParent) err(r, 'parentCode', `上级设备 ${r.parentCode} 不存在`);
          else if (dbParent.siteId !== siteId) err(r, 'parentCode', `上级设备 ${r.parentCode} 不在同一站点`);
        }
        if (r.cabinetCode && siteId !== undefined) {
          const c = cabinetByCode.get(r.cabinetCode);
          if (!c || c.siteId !== siteId) err(r, 'cabinetCode', `储能柜 ${r.cabinetCode} 不在该站点`);
        }
      }
      // No parent cycles: the file's parents override the stored ones.
      const parentOf = async (code: string): Promise<string | null> => {
        const f = inFile.get(code);
        if (f) return f.parentCode;
        const d = existingByCode.get(code);
        if (!d?.parentId) return null;
        const [p] = await tx.select({ code: device.code }).from(device).where(eq(device.id, d.parentId));
        return p?.code ?? null;
      };
      for (const r of inFile.values()) {
        let up = r.parentCode;
        for (let depth = 0; up && depth < 64; depth++) {
          if (up === r.code) {
            err(r, 'parentCode', '上级设备形成循环');
            break;
          }
          up = await parentOf(up);
        }
      }
      return { rows, siteByCode, productByCode, cabinetByCode, existingByCode, siteIds };
    },
    write: async (tx, { rows, siteByCode, productByCode, cabinetByCode, existingByCode, siteIds }) => {
      // Write: devices first, then their parents by code (parents may come later in the file).
      const ids = new Map<string, number>();
      let created = 0;
      let updated = 0;
      for (const r of rows) {
        const siteId = siteByCode.get(r.siteCode)!;
        const p = productByCode.get(r.productCode)!;
        const cabinetId = r.cabinetCode ? cabinetByCode.get(r.cabinetCode)!.id : null;
        const values = {
          name: r.name, barcode: r.barcode, meterPurpose: r.meterPurpose, cabinetId, ratedPower: r.ratedPower, no: r.no, subNo: r.subNo,
          firmwareName: r.firmwareName, firmwareVersion: r.firmwareVersion, disabled: r.disabled, sort: r.sort,
        };
        const old = existingByCode.get(r.code);
        if (old) {
          await tx.update(device).set({ ...values, updatedAt: new Date() }).where(eq(device.id, old.id));
          ids.set(r.code, old.id);
          updated++;
        } else {
          const [d] = await tx.insert(device).values({ ...values, code: r.code, siteId, productId: p.id, type: p.type }).returning({ id: device.id });
          ids.set(r.code, d!.id);
          created++;
        }
      }
      for (const r of rows) {
        const parentId = r.parentCode ? (ids.get(r.parentCode) ?? existingByCode.get(r.parentCode)!.id) : null;
        await tx.update(device).set({ parentId }).where(eq(device.id, ids.get(r.code)!));
      }
      return { created, updated, siteIds };
    },
  }));
  await refreshRegistry(ctx);
  return result;
}

// ── Device product data (static property values) ─────────────────────────────────────

const staticHeader = (p: { name: string; identifier: string }) => `${p.name}(${p.identifier})`;
const identifierOfHeader = (h: string) => /\(([A-Za-z][A-Za-z0-9_]*)\)$/.exec(h)?.[1] ?? null;

/** The static property values of one product's devices in the caller's stations, one column per property. */
export async function deviceProductExport(ctx: AppContext, user: AuthUser, b: { productId: number; siteId?: number }, reply: FastifyReply) {
  if (b.siteId) await assertSites(ctx.db, user, [b.siteId]);
  const [p] = await ctx.db.select({ id: product.id, name: product.name }).from(product).where(eq(product.id, b.productId));
  if (!p) throw new AppError('NOT_FOUND', '产品不存在');
  const props = await ctx.db
    .select()
    .from(productStaticProperty)
    .where(eq(productStaticProperty.productId, p.id))
    .orderBy(asc(productStaticProperty.sort), asc(productStaticProperty.id));
  const devices = await ctx.db
    .select({ id: device.id, code: device.code, name: device.name, siteCode: site.code })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .where(and(eq(device.productId, p.id), inSiteScope(device.siteId, ctx.db, user), b.siteId ? eq(device.siteId, b.siteId) : undefined))
    .orderBy(asc(site.code), asc(device.sort), asc(device.id))
    .limit(DEVICE_EXPORT_MAX_ROWS);
  const values = devices.length
    ? await ctx.db
        .select({ deviceId: deviceStaticValue.deviceId, propertyId: deviceStaticValue.propertyId, value: deviceStaticValue.value })
        .from(deviceStaticValue)
        .where(inArray(deviceStaticValue.deviceId, devices.map((d) => d.id)))
    : [];
  const byDevice = new Map<number, Map<number, string>>();
  for (const v of values) {
    const m = byDevice.get(v.deviceId) ?? new Map<number, string>();
    m.set(v.propertyId, v.value);
    byDevice.set(v.deviceId, m);
  }
  type Row = (typeof devices)[number];
  const columns: XlsxColumn<Row>[] = [
    ...PRODUCT_SHEET_COLUMNS.map((c) => ({ header: c.header, width: 24, value: (r: Row) => r[c.key] })),
    ...props.map((prop) => ({ header: staticHeader(prop), width: 20, value: (r: Row) => byDevice.get(r.id)?.get(prop.id) ?? null })),
  ];
  // This sheet is also the import template of the static values: its headers are the import's keys, in source text.
  return sendXlsx(reply, { fileName: '$1-设备数据', fileArgs: [p.name], sheet: '设备数据', columns }, devices, SOURCE_LANGUAGE);
}

function checkStaticValue(dataType: string, enumValues: { value: number }[] | null, v: string): string | null {
  switch (dataType) {
    case 'int':
      return /^-?\d{1,15}$/.test(v) ? null : '须为整数';
    case 'float':
      return Number.isFinite(Number(v)) ? null : '须为数字';
    case 'bool':
      return ['true', 'false', '是', '否', '1', '0'].includes(v.toLowerCase()) ? null : '须为“是”或“否”';
    case 'enum':
      return enumValues?.some((e) => String(e.value) === v) ? null : `须为 ${(enumValues ?? []).map((e) => e.value).join('、')} 之一`;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? null : '须为日期 YYYY-MM-DD';
    default:
      return v.length > 256 ? '不能超过256个字符' : null;
  }
}

/**
 * Imports static property values: each row names a device of the caller's stations by code;
 * each "名称(identifier)" column must be a static property of that device's product. An empty
 * cell clears the value (refused for required properties). All or nothing.
 */
export async function deviceProductImportFile(ctx: AppContext, user: AuthUser, req: FastifyRequest): Promise<ImportResult> {
  const { fileName, sheet } = await readUploadedSheet(ctx, req);
  const fixed = new Set<string>(PRODUCT_SHEET_COLUMNS.map((c) => c.header));
  const codeHeader = PRODUCT_SHEET_COLUMNS[0].header;
  const propHeaders = sheet.headers.filter((h) => h && !fixed.has(h));
  const result = await withHistory(ctx, user, 'product', fileName, sheet.rows.length, (onRefused) => importSheet(ctx.db, {
    sheet,
    columns: PRODUCT_SHEET_COLUMNS.map((c, i) => ({ ...c, required: i === 0 })),
    moreColumns: (h) => identifierOfHeader(h) !== null,
    maxRows: DEVICE_IMPORT_MAX_ROWS,
    rowSchema: productDataSheetRow,
    onRefused,
    check: async (tx, rows, refuse) => {
      const codes = [...new Set(rows.map((r) => r.data.code))];
      const devices = codes.length
        ? await tx
            .select({ id: device.id, code: device.code, productId: device.productId, siteId: device.siteId })
            .from(device)
            .where(and(inArray(device.code, codes), inArray(device.siteId, siteIdsInScope(tx, user))))
        : [];
      const byCode = new Map(devices.map((d) => [d.code, d]));
      const productIds = [...new Set(devices.map((d) => d.productId))];
      const props = productIds.length ? await tx.select().from(productStaticProperty).where(inArray(productStaticProperty.productId, productIds)) : [];
      const propOf = new Map(props.map((p) => [`${p.productId}:${p.identifier}`, p]));
      const seen = new Map<string, number>();
      const writes: { deviceId: number; propertyId: number; value: string | null }[] = [];
      for (const r of rows) {
        const code = r.data.code;
        const prev = seen.get(code);
        if (prev !== undefined) {
          refuse(r.row, codeHeader, `设备编码在文件中重复（第${prev}行）`);
          continue;
        }
        seen.set(code, r.row);
        const d = byCode.get(code);
        if (!d) {
          refuse(r.row, codeHeader, `设备 ${code} 不存在或无权访问`);
          continue;
        }
        for (const h of propHeaders) {
          const identifier = identifierOfHeader(h)!;
          const prop = propOf.get(`${d.productId}:${identifier}`);
          const v = r.cells[h] ?? '';
          if (!prop) {
            if (v) refuse(r.row, h, `不是该设备产品的静态属性`);
            continue;
          }
          if (!v) {
            if (prop.required) refuse(r.row, h, `${prop.name}不能为空`);
            else writes.push({ deviceId: d.id, propertyId: prop.id, value: null });
            continue;
          }
          const problem = checkStaticValue(prop.dataType, prop.enumValues, v);
          if (problem) refuse(r.row, h, problem);
          else writes.push({ deviceId: d.id, propertyId: prop.id, value: v });
        }
      }
      return { writes, updated: seen.size, siteIds: [...new Set(devices.map((d) => d.siteId))] };
    },
    write: async (tx, { writes, updated, siteIds }) => {
      for (const w of writes) {
        if (w.value === null) {
          await tx.delete(deviceStaticValue).where(and(eq(deviceStaticValue.deviceId, w.deviceId), eq(deviceStaticValue.propertyId, w.propertyId)));
        } else {
          await tx
            .insert(deviceStaticValue)
            .values({ deviceId: w.deviceId, propertyId: w.propertyId, value: w.value })
            .onConflictDoUpdate({ target: [deviceStaticValue.deviceId, deviceStaticValue.propertyId], set: { value: w.value, updatedAt: new Date() } });
        }
      }
      return { created: 0, updated, siteIds };
    },
  }));
  return result;
}
