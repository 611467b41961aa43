import { basename } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { DIAGRAM_MAX_BYTES, diagramUploadFields, type DiagramBinding, type DiagramRecord } from '@ess/contract';
import { device, productProperty } from '../../db/schema/device.ts';
import { distributionDiagram } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { inSiteScope } from '../../platform/http/scope.ts';
import { validationTip } from '../../platform/http/server.ts';
import { perApp } from '../../platform/module.ts';
import { isSvg } from '../files/index.ts';
import { SvgSanitiser } from './diagram-svg.ts';
import { siteInScope } from './site.service.ts';
import { svgElementIds } from './svg-scan.ts';

/**
 * A station's distribution diagram: one SVG per station, sanitised once on upload (off the event
 * loop, diagram-svg.ts) and served as stored, with bindings of SVG elements (by id) to a device
 * property whose live value the console shows in the element.
 */

/** Each running application's sanitiser (its worker starts on the first upload). */
export const diagramSanitiser = perApp<SvgSanitiser>('SVG sanitiser');

interface UploadParts {
  fields: Record<string, string>;
  file: { name: string; data: Buffer } | null;
}

const tooLarge = () => new AppError('FILE_TOO_LARGE', `配电图不能超过 ${DIAGRAM_MAX_BYTES / 1024 / 1024} MB`);

/** Reads the multipart body: text fields and at most one part named `file`, bounded in size. */
async function readParts(req: FastifyRequest): Promise<UploadParts> {
  const out: UploadParts = { fields: {}, file: null };
  try {
    for await (const part of req.parts({ limits: { fileSize: DIAGRAM_MAX_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError('INVALID_PARAM', `${part.fieldname}: 不支持的文件字段`);
        }
        const data = await part.toBuffer();
        if (part.file.truncated) throw tooLarge();
        out.file = { name: basename((part.filename || 'diagram.svg').replace(/\\/g, '/')).replace(/\p{Cc}/gu, '').slice(-200) || 'diagram.svg', data };
      } else if (typeof part.value === 'string') {
        out.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
  return out;
}

/** Every binding must name an element of the SVG, a device of the station and a property of its product. */
async function checkBindings(db: DbOrTx, siteId: number, bindings: DiagramBinding[], elementIds: string[]) {
  const ids = new Set(elementIds);
  const deviceIds = [...new Set(bindings.map((b) => b.deviceId))];
  const devices = deviceIds.length
    ? await db.select({ id: device.id, productId: device.productId }).from(device).where(and(inArray(device.id, deviceIds), eq(device.siteId, siteId)))
    : [];
  const productOf = new Map(devices.map((d) => [d.id, d.productId]));
  const productIds = [...new Set(devices.map((d) => d.productId))];
  const props = productIds.length
    ? await db.select({ productId: productProperty.productId, identifier: productProperty.identifier }).from(productProperty).where(inArray(productProperty.productId, productIds))
    : [];
  const known = new Set(props.map((p) => `${p.productId}:${p.identifier}`));
  bindings.forEach((b, i) => {
    if (!ids.has(b.elementId)) throw new AppError('INVALID_PARAM', `bindings.${i}.elementId: 配电图中没有ID为 ${b.elementId} 的元素`);
    const productId = productOf.get(b.deviceId);
    if (productId === undefined) throw new AppError('INVALID_PARAM', `bindings.${i}.deviceId: 设备不属于该站点`);
    if (!known.has(`${productId}:${b.identifier}`)) throw new AppError('INVALID_PARAM', `bindings.${i}.identifier: 设备没有属性 ${b.identifier}`);
  });
}

function toRecord(row: typeof distributionDiagram.$inferSelect, elementIds: string[]): DiagramRecord {
  return { id: row.id, siteId: row.siteId, fileName: row.fileName, svg: row.svg, bindings: row.bindings, elementIds, updatedAt: row.updatedAt.toISOString() };
}

/**
 * Upload (multipart): `siteId`, optional `bindings` (JSON array) and `file` (the SVG). A file
 * replaces the station's diagram, keeping the bindings whose element is still there unless new
 * ones are sent; without a file only the bindings of the existing diagram change.
 */
export async function uploadDiagram(ctx: AppContext, user: AuthUser, req: FastifyRequest): Promise<DiagramRecord> {
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA', '请以 multipart/form-data 上传配电图');
  const { fields, file } = await readParts(req);
  const parsed = diagramUploadFields.safeParse(fields, { reportInput: true });
  if (!parsed.success) throw new AppError('INVALID_PARAM', validationTip(parsed.error, 'body'));
  const { siteId, bindings } = parsed.data;

  let clean: { svg: string; elementIds: string[] } | null = null;
  if (file) {
    if (!file.name.toLowerCase().endsWith('.svg') || !isSvg(file.data)) throw new AppError('FILE_TYPE', '配电图必须是 SVG 文件');
    clean = await diagramSanitiser.require(ctx).sanitise(file.data.toString('utf8'));
  }

  return ctx.db.transaction(async (tx) => {
    await siteInScope(tx, user, siteId);
    const [cur] = await tx
      .select({ id: distributionDiagram.id, fileName: distributionDiagram.fileName, bindings: distributionDiagram.bindings })
      .from(distributionDiagram)
      .where(eq(distributionDiagram.siteId, siteId))
      .for('update');
    if (!clean && !cur) throw new AppError('INVALID_PARAM', 'file不能为空');
    // The stored markup is read only when it stays (a new file replaces it unread).
    const svg = clean?.svg ?? (await tx.select({ svg: distributionDiagram.svg }).from(distributionDiagram).where(eq(distributionDiagram.id, cur!.id)))[0]!.svg;
    const elementIds = clean?.elementIds ?? (await svgElementIds(svg));
    let next = bindings;
    if (!next) {
      const present = new Set(elementIds);
      next = (cur?.bindings ?? []).filter((b) => present.has(b.elementId));
    } else {
      await checkBindings(tx, siteId, next, elementIds);
    }
    // The markup is written only when a new file came, and not read back: it is the largest thing here.
    const values = { siteId, fileName: file?.name ?? cur!.fileName, bindings: next, uploadedBy: user.id, updatedAt: new Date() };
    const [row] = cur
      ? await tx.update(distributionDiagram).set(clean ? { ...values, svg } : values).where(eq(distributionDiagram.id, cur.id)).returning({ id: distributionDiagram.id })
      : await tx.insert(distributionDiagram).values({ ...values, svg }).returning({ id: distributionDiagram.id });
    return { id: row!.id, siteId, fileName: values.fileName, svg, bindings: next, elementIds, updatedAt: values.updatedAt.toISOString() };
  });
}

/** The station's diagram, or null when it has none. */
export async function loadDiagram(ctx: AppContext, user: AuthUser, siteId: number): Promise<DiagramRecord | null> {
  await siteInScope(ctx.db, user, siteId);
  const [row] = await ctx.db.select().from(distributionDiagram).where(eq(distributionDiagram.siteId, siteId));
  return row ? toRecord(row, await svgElementIds(row.svg)) : null;
}

export async function deleteDiagram(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const [row] = await ctx.db
    .select({ id: distributionDiagram.id })
    .from(distributionDiagram)
    .where(and(eq(distributionDiagram.id, id), inSiteScope(distributionDiagram.siteId, ctx.db, user)));
  found(row, '配电图不存在');
  await ctx.db.delete(distributionDiagram).where(eq(distributionDiagram.id, id));
}

/** Drops bindings whose device left the station or whose property is gone (the diagram-check callback). */
export async function pruneBindings(db: DbOrTx, siteId: number): Promise<{ kept: number; removed: DiagramBinding[] } | null> {
  const [row] = await db.select().from(distributionDiagram).where(eq(distributionDiagram.siteId, siteId)).for('update');
  if (!row) return null;
  const elementIds = new Set(await svgElementIds(row.svg));
  const keep: DiagramBinding[] = [];
  const removed: DiagramBinding[] = [];
  for (const b of row.bindings) {
    if (!elementIds.has(b.elementId)) {
      removed.push(b);
      continue;
    }
    try {
      await checkBindings(db, siteId, [b], [...elementIds]);
      keep.push(b);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      removed.push(b);
    }
  }
  if (removed.length) await db.update(distributionDiagram).set({ bindings: keep, updatedAt: new Date() }).where(eq(distributionDiagram.id, row.id));
  return { kept: keep.length, removed };
}
