import { and, asc, count, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ALARM_DICT_IMPORT_MAX_ROWS, ALARM_DICT_SHEET_COLUMNS, ALARM_RULE_KIND_LABELS, ALARM_TYPE_LABELS,
  DEVICE_TYPE_LABELS, THING_MODEL, alarmDictAdd, alarmDictSheetRow,
  type AlarmDictAdd, type AlarmDictEdit, type AlarmDictFilter, type AlarmDictImportResult, type AlarmDictRecord, type AlarmDictSortField, type AlarmLevel,
  type AlarmOperator, type AlarmRuleKind, type AlarmType, type DeviceType, type Page, type PageRequest,
} from '@ess/contract';
import { alarmDict } from '../../db/schema/alarm.ts';
import { product, productEvent, productProperty } from '../../db/schema/device.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { sortedBy, type SortRequest } from '../../platform/http/paging.ts';
import { likeEscaped } from '../../platform/http/scope.ts';
import { SOURCE_LANGUAGE, sendXlsx, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { importSheet } from '../../platform/xlsx/import.ts';
import { readUploadedSheet } from '../../platform/xlsx/upload.ts';
import { UNIQUE_VIOLATION, pgErrorCode } from '../../platform/db/errors.ts';
import { endOrphanAlarms } from './alarm.repository.ts';
import { alarmEngines } from './alarm.runtime.ts';

/**
 * The alarm dictionary (api-catalogue "Alarms" → dictionary): list, page, add, edit, delete, xlsx
 * export and import. Every change reloads the rules of the ingest instances (through the bus) and
 * ends the open alarms no rule watches any more.
 */

const DUPLICATE_TIP = '告警字典项已存在（同一产品或设备类型的同一故障码，或同一属性、运算符和等级）';
const TIER_TIP = '同一属性和运算符的分级阈值中，等级越严重阈值应越严格（上限更高，下限更低）';

type Row = typeof alarmDict.$inferSelect & { productName: string | null; productCode: string | null };

const dictOrder = [asc(alarmDict.deviceType), asc(alarmDict.productId), asc(alarmDict.kind), asc(alarmDict.level), asc(alarmDict.id)];
const dictSortable = {
  kind: alarmDict.kind, clearValue: alarmDict.clearValue, level: alarmDict.level, alarmType: alarmDict.alarmType, description: alarmDict.description,
  enabled: alarmDict.enabled, updatedAt: alarmDict.updatedAt, createdAt: alarmDict.createdAt,
} satisfies Record<AlarmDictSortField, unknown>;

const select = (db: DbOrTx, where: SQL | undefined, sort: SortRequest = {}) =>
  db
    .select({ d: alarmDict, productName: product.name, productCode: product.code })
    .from(alarmDict)
    .leftJoin(product, eq(product.id, alarmDict.productId))
    .where(where)
    .orderBy(...sortedBy(sort, dictSortable, dictOrder));

function filterOf(f: AlarmDictFilter): SQL | undefined {
  return and(
    f.productId ? eq(alarmDict.productId, f.productId) : undefined,
    f.deviceType ? or(eq(alarmDict.deviceType, f.deviceType), sql`${alarmDict.productId} in (select id from product where type = ${f.deviceType})`) : undefined,
    f.kind ? eq(alarmDict.kind, f.kind) : undefined,
    f.level ? eq(alarmDict.level, f.level) : undefined,
    f.alarmType ? eq(alarmDict.alarmType, f.alarmType) : undefined,
    f.enabled !== undefined ? eq(alarmDict.enabled, f.enabled) : undefined,
    f.keyword
      ? or(likeEscaped(alarmDict.eventCode, f.keyword), likeEscaped(alarmDict.identifier, f.keyword), likeEscaped(alarmDict.description, f.keyword))
      : undefined,
  );
}

/** Names and units of what the entries watch: the product's own thing model, or the type's standard one. */
async function labelsOf(db: DbOrTx, rows: Row[]): Promise<(r: Row) => { targetName: string | null; unit: string | null }> {
  const productIds = [...new Set(rows.map((r) => r.productId).filter((id): id is number => id !== null))];
  const [events, props] = productIds.length
    ? await Promise.all([
        db.select({ productId: productEvent.productId, code: productEvent.identifier, name: productEvent.name }).from(productEvent).where(inArray(productEvent.productId, productIds)),
        db
          .select({ productId: productProperty.productId, identifier: productProperty.identifier, name: productProperty.name, unit: productProperty.unit })
          .from(productProperty)
          .where(inArray(productProperty.productId, productIds)),
      ])
    : [[], []];
  const ev = new Map(events.map((e) => [`${e.productId}:${e.code}`, e.name]));
  const pr = new Map(props.map((p) => [`${p.productId}:${p.identifier}`, p]));
  return (r) => {
    if (r.productId !== null) {
      if (r.kind === 'event') return { targetName: ev.get(`${r.productId}:${r.eventCode}`) ?? null, unit: null };
      const p = pr.get(`${r.productId}:${r.identifier}`);
      return { targetName: p?.name ?? null, unit: p?.unit || null };
    }
    const model = r.deviceType ? THING_MODEL[r.deviceType as DeviceType] : undefined;
    if (r.kind === 'event') return { targetName: model?.events.find((e) => e.code === r.eventCode)?.label ?? null, unit: null };
    const p = model?.properties.find((x) => x.identifier === r.identifier);
    return { targetName: p?.label ?? null, unit: p?.unit || null };
  };
}

async function toRecords(db: DbOrTx, raw: Awaited<ReturnType<typeof select>>): Promise<AlarmDictRecord[]> {
  const rows: Row[] = raw.map((r) => ({ ...r.d, productName: r.productName, productCode: r.productCode }));
  const label = await labelsOf(db, rows);
  return rows.map((r) => ({
    id: r.id,
    productId: r.productId,
    productName: r.productName,
    productCode: r.productCode,
    deviceType: r.deviceType as DeviceType | null,
    kind: r.kind as AlarmRuleKind,
    eventCode: r.eventCode,
    identifier: r.identifier,
    ...label(r),
    operator: r.operator as AlarmOperator | null,
    threshold: r.threshold,
    clearValue: r.clearValue,
    level: r.level as AlarmLevel,
    alarmType: r.alarmType as AlarmType,
    description: r.description,
    enabled: r.enabled,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

async function assertFilterProduct(db: DbOrTx, f: AlarmDictFilter) {
  if (f.productId) found((await db.select({ id: product.id }).from(product).where(eq(product.id, f.productId)))[0], '产品不存在');
}

export async function dictList(ctx: AppContext, f: AlarmDictFilter): Promise<AlarmDictRecord[]> {
  await assertFilterProduct(ctx.db, f);
  return toRecords(ctx.db, await select(ctx.db, filterOf(f)).limit(5000));
}

export async function dictPage(ctx: AppContext, req: PageRequest & AlarmDictFilter & SortRequest): Promise<Page<AlarmDictRecord>> {
  await assertFilterProduct(ctx.db, req);
  const where = filterOf(req);
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: count() }).from(alarmDict).where(where);
  const rows = n === 0 ? [] : await select(ctx.db, where, req).limit(req.pageSize).offset((req.current - 1) * req.pageSize);
  return { records: await toRecords(ctx.db, rows), total: n, current: req.current, pageSize: req.pageSize };
}

// ── What an entry may name ────────────────────────────────────────────────────────────

/** Products with their fault codes and numeric properties, to check entries against (one read per call). */
class ModelCatalogue {
  private constructor(
    readonly products: Map<number, { code: string; type: string }>,
    readonly byCode: Map<string, number>,
    private readonly events: Map<number, Set<string>>,
    private readonly numeric: Map<number, Set<string>>,
  ) {}

  static async load(db: DbOrTx): Promise<ModelCatalogue> {
    // One after the other: inside a transaction they share one connection.
    const ps = await db.select({ id: product.id, code: product.code, type: product.type }).from(product);
    const es = await db.select({ productId: productEvent.productId, code: productEvent.identifier }).from(productEvent);
    const props = await db
      .select({ productId: productProperty.productId, identifier: productProperty.identifier })
      .from(productProperty)
      .where(inArray(productProperty.dataType, ['float', 'int']));
    const group = (rows: { productId: number; key: string }[]) => {
      const m = new Map<number, Set<string>>();
      for (const r of rows) (m.get(r.productId) ?? m.set(r.productId, new Set()).get(r.productId)!).add(r.key);
      return m;
    };
    return new ModelCatalogue(
      new Map(ps.map((p) => [p.id, { code: p.code, type: p.type }])),
      new Map(ps.map((p) => [p.code, p.id])),
      group(es.map((e) => ({ productId: e.productId, key: e.code }))),
      group(props.map((p) => ({ productId: p.productId, key: p.identifier }))),
    );
  }

  /** The products an entry applies to. */
  private targets(e: { productId: number | null; deviceType: string | null }): number[] {
    if (e.productId !== null) return [e.productId];
    return [...this.products].filter(([, p]) => p.type === e.deviceType).map(([id]) => id);
  }

  /** Why the entry cannot stand, with the field it concerns; null when it can. */
  problem(e: AlarmDictAdd): { field: keyof AlarmDictAdd; message: string; status: 'NOT_FOUND' | 'RULE_VIOLATION' } | null {
    if (e.productId !== null && !this.products.has(e.productId)) return { field: 'productId', message: '产品不存在', status: 'NOT_FOUND' };
    const byType = e.deviceType ? THING_MODEL[e.deviceType] : undefined;
    const targets = this.targets(e);
    if (e.kind === 'event') {
      const known = targets.some((id) => this.events.get(id)?.has(e.eventCode!)) || !!byType?.events.some((x) => x.code === e.eventCode);
      if (!known) return { field: 'eventCode', message: e.productId !== null ? '该产品的物模型中没有此故障码' : '该设备类型的物模型中没有此故障码', status: 'RULE_VIOLATION' };
      return null;
    }
    const numeric = (t: string | undefined) => t === 'float' || t === 'int';
    const known =
      targets.some((id) => this.numeric.get(id)?.has(e.identifier!)) ||
      !!byType?.properties.some((p) => p.identifier === e.identifier && numeric(p.dataType));
    if (!known) return { field: 'identifier', message: e.productId !== null ? '该产品的物模型中没有此数值属性' : '该设备类型的物模型中没有此数值属性', status: 'RULE_VIOLATION' };
    return null;
  }
}

/**
 * The duplicate-relevant key of an entry: its target and fault code, or property, operator and
 * level (tiers of one property and operator differ by level).
 */
const naturalKey = (e: { productId: number | null; deviceType: string | null; kind: string; eventCode: string | null; identifier: string | null; operator: string | null; level: number }) =>
  `${e.productId ?? 0}|${e.deviceType ?? ''}|${e.kind === 'event' ? `e|${e.eventCode}` : `t|${e.identifier}|${e.operator}|${e.level}`}`;

function sameKey(e: AlarmDictAdd, exceptId?: number): SQL | undefined {
  return and(
    e.productId !== null ? eq(alarmDict.productId, e.productId) : sql`${alarmDict.productId} is null`,
    e.deviceType !== null ? eq(alarmDict.deviceType, e.deviceType) : sql`${alarmDict.deviceType} is null`,
    eq(alarmDict.kind, e.kind),
    e.kind === 'event'
      ? eq(alarmDict.eventCode, e.eventCode!)
      : and(eq(alarmDict.identifier, e.identifier!), eq(alarmDict.operator, e.operator!), eq(alarmDict.level, e.level)),
    exceptId ? ne(alarmDict.id, exceptId) : undefined,
  );
}

/** The entries of the same target, property and operator (a threshold entry's tiers). */
function sameGroup(e: AlarmDictAdd): SQL | undefined {
  return and(
    e.productId !== null ? eq(alarmDict.productId, e.productId) : sql`${alarmDict.productId} is null`,
    e.deviceType !== null ? eq(alarmDict.deviceType, e.deviceType) : sql`${alarmDict.deviceType} is null`,
    eq(alarmDict.kind, 'threshold'),
    eq(alarmDict.identifier, e.identifier!),
    eq(alarmDict.operator, e.operator!),
  );
}

/**
 * Tiers of one target, property and operator must escalate: a more severe level (a smaller
 * number) has a stricter threshold — higher for an upper limit, lower for a lower one — so the
 * most severe tier passed is the one that holds. Checked over the whole (small) dictionary after
 * a write, inside its transaction.
 */
async function assertTiersEscalate(db: DbOrTx): Promise<void> {
  const { rows } = await db.execute<{ id: number }>(sql`
    select a.id from alarm_dict a
    join alarm_dict b on b.kind = 'threshold' and coalesce(b.product_id, 0) = coalesce(a.product_id, 0)
      and coalesce(b.device_type, '') = coalesce(a.device_type, '') and b.identifier = a.identifier and b.operator = a.operator
      and a.level < b.level
    where a.kind = 'threshold'
      and ((a.operator in ('>', '>=') and a.threshold <= b.threshold) or (a.operator in ('<', '<=') and a.threshold >= b.threshold))
    limit 1`);
  if (rows.length) throw new AppError('RULE_VIOLATION', TIER_TIP);
}

async function assertEntry(db: DbOrTx, e: AlarmDictAdd, exceptId?: number): Promise<void> {
  const problem = (await ModelCatalogue.load(db)).problem(e);
  if (problem) throw new AppError(problem.status, problem.message);
  const [dup] = await db.select({ id: alarmDict.id }).from(alarmDict).where(sameKey(e, exceptId)).limit(1);
  if (dup) throw new AppError('DUPLICATE', DUPLICATE_TIP);
}

const onUnique = (err: unknown): never => {
  if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AppError('DUPLICATE', DUPLICATE_TIP);
  throw err;
};

const fieldsOf = (e: AlarmDictAdd) => ({
  productId: e.productId, deviceType: e.deviceType, kind: e.kind, eventCode: e.eventCode, identifier: e.identifier, operator: e.operator,
  threshold: e.threshold, clearValue: e.clearValue, level: e.level, alarmType: e.alarmType, description: e.description, enabled: e.enabled,
});

/**
 * After the dictionary changed: alarms no rule watches any more are ended (and announced), and
 * every ingest instance reloads its rules; this one before the call answers.
 */
export async function afterRulesChanged(ctx: AppContext): Promise<void> {
  // Their `alarm.ended` events are written with them.
  if ((await endOrphanAlarms(ctx.database.sql)).length) ctx.outbox.nudge();
  await ctx.bus.publish({ type: 'reload', what: 'alarm' });
  await alarmEngines.get(ctx)?.reload();
}

export async function addDict(ctx: AppContext, body: AlarmDictAdd): Promise<{ id: number }> {
  const created = await ctx.db
    .transaction(async (tx) => {
      await assertEntry(tx, body);
      const [row] = await tx.insert(alarmDict).values(fieldsOf(body)).returning({ id: alarmDict.id });
      await assertTiersEscalate(tx);
      return { id: row!.id };
    })
    .catch(onUnique);
  await afterRulesChanged(ctx);
  return created;
}

export async function editDict(ctx: AppContext, body: AlarmDictEdit): Promise<void> {
  await ctx.db
    .transaction(async (tx) => {
      found((await tx.select({ id: alarmDict.id }).from(alarmDict).where(eq(alarmDict.id, body.id)))[0], '告警字典项不存在');
      await assertEntry(tx, body, body.id);
      await tx.update(alarmDict).set({ ...fieldsOf(body), updatedAt: new Date() }).where(eq(alarmDict.id, body.id));
      await assertTiersEscalate(tx);
    })
    .catch(onUnique);
  await afterRulesChanged(ctx);
}

/** Deletes an entry; its alarms keep their copies of level, type and description, and the open ones end. */
export async function deleteDict(ctx: AppContext, id: number): Promise<void> {
  const [gone] = await ctx.db.delete(alarmDict).where(eq(alarmDict.id, id)).returning({ id: alarmDict.id });
  found(gone, '告警字典项不存在');
  await afterRulesChanged(ctx);
}

// ── Export and import ─────────────────────────────────────────────────────────────────

const yes = (v: boolean) => (v ? '是' : '否');
const HEADER = Object.fromEntries(ALARM_DICT_SHEET_COLUMNS.map((c) => [c.key, c.header])) as Record<(typeof ALARM_DICT_SHEET_COLUMNS)[number]['key'], string>;

const EXPORT_COLUMNS: XlsxColumn<AlarmDictRecord>[] = [
  { header: HEADER.productCode, width: 20, value: (r) => r.productCode },
  { header: HEADER.deviceType, width: 14, value: (r) => (r.deviceType ? DEVICE_TYPE_LABELS[r.deviceType] : null) },
  { header: HEADER.kind, width: 10, value: (r) => ALARM_RULE_KIND_LABELS[r.kind] },
  { header: HEADER.eventCode, width: 30, value: (r) => r.eventCode },
  { header: HEADER.identifier, width: 24, value: (r) => r.identifier },
  { header: HEADER.operator, width: 8, value: (r) => r.operator },
  { header: HEADER.threshold, width: 10, value: (r) => r.threshold },
  { header: HEADER.clearValue, width: 10, value: (r) => r.clearValue },
  { header: HEADER.level, width: 10, value: (r) => r.level },
  { header: HEADER.alarmType, width: 12, value: (r) => ALARM_TYPE_LABELS[r.alarmType] },
  { header: HEADER.description, width: 30, value: (r) => r.description },
  { header: HEADER.enabled, width: 8, value: (r) => yes(r.enabled) },
];

export async function exportDict(ctx: AppContext, f: AlarmDictFilter, reply: FastifyReply) {
  const rows = await dictList(ctx, f);
  // The dictionary's sheet is also its import template: its headers and labels are the import's keys, in source text.
  return sendXlsx(reply, { fileName: '告警字典', columns: EXPORT_COLUMNS }, rows, SOURCE_LANGUAGE);
}

/**
 * Imports the dictionary sheet (the export's columns; rows by the contract's alarmDictSheetRow):
 * each row adds an entry or, when an entry with the same target and fault code (or property,
 * operator and level; or the only entry of a property and operator the sheet has one row for)
 * exists, updates it. All or nothing: any bad row refuses the file, naming its row and
 * column, and nothing is written.
 */
export async function importDict(ctx: AppContext, req: FastifyRequest): Promise<AlarmDictImportResult> {
  const { sheet } = await readUploadedSheet(ctx, req);
  const result = await importSheet(ctx.db, {
    sheet,
    columns: ALARM_DICT_SHEET_COLUMNS.map((c) => ({ ...c, required: c.key !== 'enabled' })),
    maxRows: ALARM_DICT_IMPORT_MAX_ROWS,
    rowSchema: alarmDictSheetRow,
    check: async (tx, rows, refuse) => {
      const catalogue = await ModelCatalogue.load(tx);
      const entries: AlarmDictAdd[] = [];
      const firstRowOf = new Map<string, number>();
      for (const { row, data } of rows) {
        const err = (k: keyof typeof HEADER, message: string) => refuse(row, HEADER[k], message);
        let productId: number | null = null;
        if (data.productCode) {
          const id = catalogue.byCode.get(data.productCode);
          if (id === undefined) {
            err('productCode', '产品不存在');
            continue;
          }
          productId = id;
        }
        // A product row names its product only; its device type column is informative.
        const { productCode: _code, ...fields } = data;
        const parsed = alarmDictAdd.safeParse({ ...fields, productId, deviceType: productId !== null ? null : data.deviceType });
        if (!parsed.success) {
          for (const issue of parsed.error.issues.slice(0, 3)) {
            const key = String(issue.path[0] ?? 'description');
            err(key === 'productId' ? 'productCode' : key in HEADER ? (key as keyof typeof HEADER) : 'description', issue.message);
          }
          continue;
        }
        const problem = catalogue.problem(parsed.data);
        if (problem) {
          err(problem.field === 'productId' ? 'productCode' : problem.field, problem.message);
          continue;
        }
        const key = naturalKey(parsed.data);
        const prev = firstRowOf.get(key);
        if (prev !== undefined) {
          err(parsed.data.kind === 'event' ? 'eventCode' : 'identifier', `与第${prev}行重复`);
          continue;
        }
        firstRowOf.set(key, row);
        entries.push(parsed.data);
      }
      return entries;
    },
    write: async (tx, entries) => {
      let created = 0;
      let updated = 0;
      // A property and operator with a single row in the sheet and a single entry in the dictionary
      // is the same rule whatever its level (a row may move it to another level); with several
      // tiers on either side, rows match entries by level.
      const groupOf = (e: AlarmDictAdd) => `${e.productId ?? 0}|${e.deviceType ?? ''}|${e.identifier}|${e.operator}`;
      const rowsPerGroup = new Map<string, number>();
      for (const e of entries) if (e.kind === 'threshold') rowsPerGroup.set(groupOf(e), (rowsPerGroup.get(groupOf(e)) ?? 0) + 1);
      for (const entry of entries) {
        let [cur] = await tx.select({ id: alarmDict.id }).from(alarmDict).where(sameKey(entry)).limit(1);
        if (!cur && entry.kind === 'threshold' && rowsPerGroup.get(groupOf(entry)) === 1) {
          const tiers = await tx.select({ id: alarmDict.id }).from(alarmDict).where(sameGroup(entry)).limit(2);
          if (tiers.length === 1) cur = tiers[0];
        }
        if (cur) {
          await tx.update(alarmDict).set({ ...fieldsOf(entry), updatedAt: new Date() }).where(eq(alarmDict.id, cur.id));
          updated++;
        } else {
          await tx.insert(alarmDict).values(fieldsOf(entry));
          created++;
        }
      }
      await assertTiersEscalate(tx);
      return { totalRows: entries.length, created, updated };
    },
  }).catch(onUnique);
  await afterRulesChanged(ctx);
  return result;
}
