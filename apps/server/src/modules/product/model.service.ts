import { and, asc, count, eq, max, ne, or, type AnyColumn, type SQL } from 'drizzle-orm';
import type {
  CommandAdd, CommandEdit, CommandParam, CommandRecord, EventAdd, EventEdit, EventRecord, Page, PageRequest, PropertyAdd, PropertyDataType,
  PropertyEdit, PropertyRecord, StaticDataType, StaticPropertyAdd, StaticPropertyEdit, StaticPropertyRecord,
} from '@ess/contract';
import { product, productCommand, productEvent, productProperty } from '../../db/schema/device.ts';
import { deviceStaticValue, productStaticProperty, productTemplate } from '../../db/schema/product.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { AppError } from '../../platform/http/errors.ts';
import { likeEscaped } from '../../platform/http/scope.ts';
import { deviceCountOf, lockProduct, refreshIngest, uniqueOr } from './product.service.ts';

/**
 * A product's properties, events, commands and static properties. Property slots: a numeric
 * property gets the next never-used position of the product's stored telemetry arrays; deleting
 * one leaves the others where they are; a data type changes only where stored values keep their
 * meaning.
 */

type Filter = { productId?: number; keyword?: string };
type Paged<F> = PageRequest & F;

async function paged<R>(
  db: DbOrTx,
  table: typeof productProperty | typeof productEvent | typeof productCommand | typeof productStaticProperty,
  where: SQL | undefined,
  req: PageRequest,
  fetch: (limit: number, offset: number) => Promise<R[]>,
): Promise<Page<R>> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(table).where(where);
  const records = n === 0 ? [] : await fetch(req.pageSize, (req.current - 1) * req.pageSize);
  return { records, total: n, current: req.current, pageSize: req.pageSize };
}

const keywordOf = (t: { identifier: AnyColumn; name: AnyColumn }, k?: string) =>
  k ? or(likeEscaped(t.identifier, k), likeEscaped(t.name, k)) : undefined;

// ── Properties ────────────────────────────────────────────────────────────────────────

type PropertyFilter = Filter & { dataType?: PropertyDataType };
const propertyWhere = (f: PropertyFilter) =>
  and(
    f.productId ? eq(productProperty.productId, f.productId) : undefined,
    f.dataType ? eq(productProperty.dataType, f.dataType) : undefined,
    keywordOf(productProperty, f.keyword),
  );
const propertyOrder = [asc(productProperty.productId), asc(productProperty.sort), asc(productProperty.id)];
const toProperty = (r: typeof productProperty.$inferSelect): PropertyRecord => ({
  id: r.id, productId: r.productId, identifier: r.identifier, name: r.name, dataType: r.dataType as PropertyDataType, unit: r.unit,
  enumValues: r.enumValues, cumulative: r.cumulative, writable: r.writable, min: r.min, max: r.max, sort: r.sort, slot: r.slot,
});

export async function propertyList(ctx: AppContext, f: PropertyFilter): Promise<PropertyRecord[]> {
  return (await ctx.db.select().from(productProperty).where(propertyWhere(f)).orderBy(...propertyOrder).limit(2000)).map(toProperty);
}
export function propertyPage(ctx: AppContext, req: Paged<PropertyFilter>): Promise<Page<PropertyRecord>> {
  const where = propertyWhere(req);
  return paged(ctx.db, productProperty, where, req, async (limit, offset) =>
    (await ctx.db.select().from(productProperty).where(where).orderBy(...propertyOrder).limit(limit).offset(offset)).map(toProperty));
}
export async function propertyOne(ctx: AppContext, id: number): Promise<PropertyRecord> {
  const [r] = await ctx.db.select().from(productProperty).where(eq(productProperty.id, id));
  if (!r) throw new AppError('NOT_FOUND', '属性不存在');
  return toProperty(r);
}

async function assertIdentifierFree(
  db: DbOrTx,
  table: typeof productProperty | typeof productEvent | typeof productCommand | typeof productStaticProperty,
  productId: number,
  identifier: string,
  exceptId?: number,
) {
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.productId, productId), eq(table.identifier, identifier), exceptId ? ne(table.id, exceptId) : undefined));
  if (row) throw new AppError('DUPLICATE', `identifier: 标识符 ${identifier} 已存在`);
}

/** The next never-used slot of a locked product (deleted properties' slots stay taken). */
async function nextSlot(tx: DbOrTx, p: { id: number; slotCount: number }): Promise<number> {
  const [top] = await tx.select({ slot: max(productProperty.slot) }).from(productProperty).where(eq(productProperty.productId, p.id));
  const slot = Math.max(p.slotCount, top?.slot ?? 0) + 1;
  await tx.update(product).set({ slotCount: slot }).where(eq(product.id, p.id));
  return slot;
}

const NUMERIC_STORAGE = new Set<PropertyDataType>(['float', 'int']);

export async function addProperty(ctx: AppContext, b: PropertyAdd): Promise<{ id: number; slot: number | null }> {
  const out = await ctx.db.transaction(async (tx) => {
    const p = await lockProduct(tx, b.productId);
    await assertIdentifierFree(tx, productProperty, b.productId, b.identifier);
    const slot = b.dataType === 'string' ? null : await nextSlot(tx, p);
    const [row] = await uniqueOr('标识符', () =>
      tx.insert(productProperty).values({ ...b, slot }).returning({ id: productProperty.id, slot: productProperty.slot }),
    );
    return row!;
  });
  await refreshIngest(ctx);
  return out;
}

/**
 * A data type change moves stored meaning, so with devices on the product only float ↔ int is
 * allowed (both stored as the same number); without devices a property may become text (its
 * slot stays taken) or numeric again (a new slot).
 */
export async function editProperty(ctx: AppContext, b: PropertyEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(productProperty).where(eq(productProperty.id, b.id));
    if (!cur) throw new AppError('NOT_FOUND', '属性不存在');
    const p = await lockProduct(tx, cur.productId);
    await assertIdentifierFree(tx, productProperty, cur.productId, b.identifier, b.id);
    let slot = cur.slot;
    const from = cur.dataType as PropertyDataType;
    if (from !== b.dataType) {
      const safe = NUMERIC_STORAGE.has(from) && NUMERIC_STORAGE.has(b.dataType);
      if (!safe && (await deviceCountOf(tx, cur.productId)) > 0) {
        throw new AppError('RULE_VIOLATION', 'dataType: 产品下已有设备及其数据，数据类型只能在浮点数与整数之间修改');
      }
      if (b.dataType === 'string') slot = null;
      else if (slot === null) slot = await nextSlot(tx, p);
    }
    await uniqueOr('标识符', () => tx.update(productProperty).set({ ...b, slot }).where(eq(productProperty.id, b.id)));
    if (cur.identifier !== b.identifier) await renameInTemplates(tx, cur.productId, cur.identifier, b.identifier);
  });
  await refreshIngest(ctx);
}

async function renameInTemplates(tx: DbOrTx, productId: number, from: string, to: string) {
  const rows = await tx.select({ id: productTemplate.id, identifiers: productTemplate.identifiers }).from(productTemplate).where(eq(productTemplate.productId, productId));
  for (const r of rows) {
    if (!r.identifiers.includes(from)) continue;
    await tx.update(productTemplate).set({ identifiers: r.identifiers.map((i) => (i === from ? to : i)) }).where(eq(productTemplate.id, r.id));
  }
}

/** The other properties keep their slots; a property a template shows is refused. */
export async function deleteProperty(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(productProperty).where(eq(productProperty.id, id));
    if (!cur) throw new AppError('NOT_FOUND', '属性不存在');
    await lockProduct(tx, cur.productId);
    const users = (await tx.select({ name: productTemplate.name, identifiers: productTemplate.identifiers }).from(productTemplate).where(eq(productTemplate.productId, cur.productId)))
      .filter((t) => t.identifiers.includes(cur.identifier));
    if (users.length) throw new AppError('RULE_VIOLATION', `属性被产品模板使用（${users.map((t) => t.name).join('、')}），不能删除`);
    await tx.delete(productProperty).where(eq(productProperty.id, id));
  });
  await refreshIngest(ctx);
}

// ── Events ────────────────────────────────────────────────────────────────────────────

type EventFilter = Filter & { level?: number };
const eventWhere = (f: EventFilter) =>
  and(f.productId ? eq(productEvent.productId, f.productId) : undefined, f.level ? eq(productEvent.level, f.level) : undefined, keywordOf(productEvent, f.keyword));
const eventOrder = [asc(productEvent.productId), asc(productEvent.sort), asc(productEvent.id)];
const toEvent = (r: typeof productEvent.$inferSelect): EventRecord => ({ ...r });

export async function eventList(ctx: AppContext, f: EventFilter): Promise<EventRecord[]> {
  return (await ctx.db.select().from(productEvent).where(eventWhere(f)).orderBy(...eventOrder).limit(2000)).map(toEvent);
}
export function eventPage(ctx: AppContext, req: Paged<EventFilter>): Promise<Page<EventRecord>> {
  const where = eventWhere(req);
  return paged(ctx.db, productEvent, where, req, async (limit, offset) =>
    (await ctx.db.select().from(productEvent).where(where).orderBy(...eventOrder).limit(limit).offset(offset)).map(toEvent));
}
export async function eventOne(ctx: AppContext, id: number): Promise<EventRecord> {
  const [r] = await ctx.db.select().from(productEvent).where(eq(productEvent.id, id));
  if (!r) throw new AppError('NOT_FOUND', '事件不存在');
  return toEvent(r);
}
export async function addEvent(ctx: AppContext, b: EventAdd): Promise<{ id: number }> {
  return ctx.db.transaction(async (tx) => {
    await lockProduct(tx, b.productId);
    await assertIdentifierFree(tx, productEvent, b.productId, b.identifier);
    const [row] = await uniqueOr('标识符', () => tx.insert(productEvent).values(b).returning({ id: productEvent.id }));
    return { id: row!.id };
  });
}
export async function editEvent(ctx: AppContext, b: EventEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(productEvent).where(eq(productEvent.id, b.id));
    if (!cur) throw new AppError('NOT_FOUND', '事件不存在');
    await assertIdentifierFree(tx, productEvent, cur.productId, b.identifier, b.id);
    await uniqueOr('标识符', () => tx.update(productEvent).set(b).where(eq(productEvent.id, b.id)));
  });
}
export async function deleteEvent(ctx: AppContext, id: number): Promise<void> {
  const rows = await ctx.db.delete(productEvent).where(eq(productEvent.id, id)).returning({ id: productEvent.id });
  if (!rows.length) throw new AppError('NOT_FOUND', '事件不存在');
}

// ── Commands ──────────────────────────────────────────────────────────────────────────

const commandWhere = (f: Filter) => and(f.productId ? eq(productCommand.productId, f.productId) : undefined, keywordOf(productCommand, f.keyword));
const commandOrder = [asc(productCommand.productId), asc(productCommand.sort), asc(productCommand.id)];
const toCommand = (r: typeof productCommand.$inferSelect): CommandRecord => ({
  ...r,
  requestParams: r.requestParams as CommandParam[],
  responseParams: r.responseParams as CommandParam[],
});

export async function commandList(ctx: AppContext, f: Filter): Promise<CommandRecord[]> {
  return (await ctx.db.select().from(productCommand).where(commandWhere(f)).orderBy(...commandOrder).limit(2000)).map(toCommand);
}
export function commandPage(ctx: AppContext, req: Paged<Filter>): Promise<Page<CommandRecord>> {
  const where = commandWhere(req);
  return paged(ctx.db, productCommand, where, req, async (limit, offset) =>
    (await ctx.db.select().from(productCommand).where(where).orderBy(...commandOrder).limit(limit).offset(offset)).map(toCommand));
}
export async function commandOne(ctx: AppContext, id: number): Promise<CommandRecord> {
  const [r] = await ctx.db.select().from(productCommand).where(eq(productCommand.id, id));
  if (!r) throw new AppError('NOT_FOUND', '命令不存在');
  return toCommand(r);
}
/** The product's command with this identifier (other than excludeId), or null: the form's uniqueness check. */
export async function commandUnique(ctx: AppContext, b: { productId: number; identifier: string; excludeId?: number }): Promise<CommandRecord | null> {
  const [r] = await ctx.db
    .select()
    .from(productCommand)
    .where(and(eq(productCommand.productId, b.productId), eq(productCommand.identifier, b.identifier), b.excludeId ? ne(productCommand.id, b.excludeId) : undefined));
  return r ? toCommand(r) : null;
}
export async function addCommand(ctx: AppContext, b: CommandAdd): Promise<{ id: number }> {
  return ctx.db.transaction(async (tx) => {
    await lockProduct(tx, b.productId);
    await assertIdentifierFree(tx, productCommand, b.productId, b.identifier);
    const [row] = await uniqueOr('标识符', () => tx.insert(productCommand).values(b).returning({ id: productCommand.id }));
    return { id: row!.id };
  });
}
export async function editCommand(ctx: AppContext, b: CommandEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(productCommand).where(eq(productCommand.id, b.id));
    if (!cur) throw new AppError('NOT_FOUND', '命令不存在');
    await assertIdentifierFree(tx, productCommand, cur.productId, b.identifier, b.id);
    await uniqueOr('标识符', () => tx.update(productCommand).set(b).where(eq(productCommand.id, b.id)));
  });
}
export async function deleteCommand(ctx: AppContext, id: number): Promise<void> {
  const rows = await ctx.db.delete(productCommand).where(eq(productCommand.id, id)).returning({ id: productCommand.id });
  if (!rows.length) throw new AppError('NOT_FOUND', '命令不存在');
}

// ── Static properties ─────────────────────────────────────────────────────────────────

const staticWhere = (f: Filter) => and(f.productId ? eq(productStaticProperty.productId, f.productId) : undefined, keywordOf(productStaticProperty, f.keyword));
const staticOrder = [asc(productStaticProperty.productId), asc(productStaticProperty.sort), asc(productStaticProperty.id)];
const toStatic = (r: typeof productStaticProperty.$inferSelect): StaticPropertyRecord => ({
  id: r.id, productId: r.productId, identifier: r.identifier, name: r.name, dataType: r.dataType as StaticDataType, unit: r.unit,
  enumValues: r.enumValues, required: r.required, sort: r.sort,
});

export async function staticList(ctx: AppContext, f: Filter): Promise<StaticPropertyRecord[]> {
  return (await ctx.db.select().from(productStaticProperty).where(staticWhere(f)).orderBy(...staticOrder).limit(2000)).map(toStatic);
}
export function staticPage(ctx: AppContext, req: Paged<Filter>): Promise<Page<StaticPropertyRecord>> {
  const where = staticWhere(req);
  return paged(ctx.db, productStaticProperty, where, req, async (limit, offset) =>
    (await ctx.db.select().from(productStaticProperty).where(where).orderBy(...staticOrder).limit(limit).offset(offset)).map(toStatic));
}
export async function staticOne(ctx: AppContext, id: number): Promise<StaticPropertyRecord> {
  const [r] = await ctx.db.select().from(productStaticProperty).where(eq(productStaticProperty.id, id));
  if (!r) throw new AppError('NOT_FOUND', '静态属性不存在');
  return toStatic(r);
}
export async function addStatic(ctx: AppContext, b: StaticPropertyAdd): Promise<{ id: number }> {
  return ctx.db.transaction(async (tx) => {
    await lockProduct(tx, b.productId);
    await assertIdentifierFree(tx, productStaticProperty, b.productId, b.identifier);
    const [row] = await uniqueOr('标识符', () => tx.insert(productStaticProperty).values(b).returning({ id: productStaticProperty.id }));
    return { id: row!.id };
  });
}
/** Devices' values are text typed by the property: its type changes only while no device has a value. */
export async function editStatic(ctx: AppContext, b: StaticPropertyEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(productStaticProperty).where(eq(productStaticProperty.id, b.id));
    if (!cur) throw new AppError('NOT_FOUND', '静态属性不存在');
    await assertIdentifierFree(tx, productStaticProperty, cur.productId, b.identifier, b.id);
    if (cur.dataType !== b.dataType) {
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(deviceStaticValue).where(eq(deviceStaticValue.propertyId, b.id));
      if (n > 0) throw new AppError('RULE_VIOLATION', `dataType: 已有 ${n} 台设备填写了该属性，不能修改数据类型`);
    }
    await uniqueOr('标识符', () => tx.update(productStaticProperty).set({ ...b, updatedAt: new Date() }).where(eq(productStaticProperty.id, b.id)));
  });
}
export async function deleteStatic(ctx: AppContext, id: number): Promise<void> {
  const rows = await ctx.db.delete(productStaticProperty).where(eq(productStaticProperty.id, id)).returning({ id: productStaticProperty.id });
  if (!rows.length) throw new AppError('NOT_FOUND', '静态属性不存在');
}
