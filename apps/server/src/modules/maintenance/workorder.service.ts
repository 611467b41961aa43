import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import {
  ASSIGNEE_ROLE, CHECK_TYPES, ITEM_RESULT_LABELS, ITEM_RESULTS, RESULT_REQUIRED, WORK_ORDER_EVENTS, WORK_ORDER_NO_PREFIX, WORK_ORDER_OPEN_STATES,
  WORK_ORDER_ORIGIN_LABELS, WORK_ORDER_STATE_LABELS, workOrderMachine,
  type CheckType, type DeviceType, type ItemResult, type MaintLogRecord, type Page, type ResultInput, type StoredPhoto, type WorkOrderAction,
  type WorkOrderAdd, type WorkOrderAllocation, type WorkOrderClose, type WorkOrderDetail, type WorkOrderEdit, type WorkOrderFilter,
  type WorkOrderHandle, type WorkOrderItemRecord, type WorkOrderLogPage, type WorkOrderOrigin, type WorkOrderRecord, type WorkOrderState,
} from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import {
  inspectionDefect, inspectionItem, inspectionPlan, inspectionWorkOrder, inspectionWorkOrderItem, maintenanceLog,
} from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inCompanyScope, inSiteScope } from '../../platform/http/scope.ts';
import type { StatefulEntity } from '../../platform/state.ts';
import { streamXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { siteInScope } from '../site/index.ts';
import { recordDefect } from './defect.service.ts';
import './maintenance.events.ts';
import { actOn, rolesOf } from './maintenance.journal.ts';
import {
  assertOrderFilter, assigneeFor, deviceOfSite, logRecord, nextId, orderNo, overdueCondition, photosOut, sharedOrderFilters, storedPhotos, writeJournal,
} from './order-common.ts';

/**
 * Inspection work orders (workOrderMachine): the list, the detail (with each item's result), a
 * manual order, allocation, handling (results, defects from failed items, completion) and
 * closing, each through the state-machine helper with its journal row (the work order log), its
 * domain event and the assignee's notice (maintenance.notify.ts).
 */

const counts = {
  itemCount: sql<number>`(select count(*) from ${inspectionWorkOrderItem} i where i.order_id = ${inspectionWorkOrder.id})::int`,
  doneCount: sql<number>`(select count(*) from ${inspectionWorkOrderItem} i where i.order_id = ${inspectionWorkOrder.id} and i.result is not null)::int`,
  failCount: sql<number>`(select count(*) from ${inspectionWorkOrderItem} i where i.order_id = ${inspectionWorkOrder.id} and i.result = 'fail')::int`,
  defectCount: sql<number>`(select count(*) from ${inspectionDefect} d where d.work_order_id = ${inspectionWorkOrder.id})::int`,
};

const columns = {
  id: inspectionWorkOrder.id,
  no: inspectionWorkOrder.no,
  title: inspectionWorkOrder.title,
  origin: inspectionWorkOrder.origin,
  planId: inspectionWorkOrder.planId,
  planName: inspectionPlan.name,
  siteId: inspectionWorkOrder.siteId,
  siteName: site.name,
  siteCode: site.code,
  timeZone: site.timeZone,
  status: inspectionWorkOrder.status,
  scheduledDate: inspectionWorkOrder.scheduledDate,
  startAt: inspectionWorkOrder.startAt,
  dueAt: inspectionWorkOrder.dueAt,
  assigneeId: inspectionWorkOrder.assigneeId,
  assigneeName: inspectionWorkOrder.assigneeName,
  openedAt: inspectionWorkOrder.openedAt,
  startedAt: inspectionWorkOrder.startedAt,
  completedAt: inspectionWorkOrder.completedAt,
  closedAt: inspectionWorkOrder.closedAt,
  ...counts,
  note: inspectionWorkOrder.note,
  createdBy: inspectionWorkOrder.createdBy,
  createdByName: inspectionWorkOrder.createdByName,
  createdAt: inspectionWorkOrder.createdAt,
  updatedAt: inspectionWorkOrder.updatedAt,
};

const openStates = WORK_ORDER_OPEN_STATES as readonly string[];
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const orders = defineListQuery({
  table: inspectionWorkOrder,
  columns,
  joins: [
    { table: site, on: eq(site.id, inspectionWorkOrder.siteId) },
    { table: inspectionPlan, on: eq(inspectionPlan.id, inspectionWorkOrder.planId), left: true },
  ],
  scope: (db, user) => inSiteScope(inspectionWorkOrder.siteId, db, user),
  filter: (f: WorkOrderFilter & { userId?: number }) => [
    ...sharedOrderFilters(
      {
        siteId: inspectionWorkOrder.siteId, status: inspectionWorkOrder.status, at: inspectionWorkOrder.startAt,
        keyword: [inspectionWorkOrder.no, inspectionWorkOrder.title, inspectionPlan.name],
      },
      f,
    ),
    f.planId ? eq(inspectionWorkOrder.planId, f.planId) : undefined,
    f.assigneeId ? eq(inspectionWorkOrder.assigneeId, f.assigneeId) : undefined,
    f.mine && f.userId ? eq(inspectionWorkOrder.assigneeId, f.userId) : undefined,
    f.overdue ? overdueCondition(inspectionWorkOrder.status, inspectionWorkOrder.dueAt, openStates) : undefined,
  ],
  orderBy: [desc(inspectionWorkOrder.startAt), desc(inspectionWorkOrder.id)],
  sortable: {
    no: inspectionWorkOrder.no, status: inspectionWorkOrder.status, startAt: inspectionWorkOrder.startAt, dueAt: inspectionWorkOrder.dueAt,
    createdAt: inspectionWorkOrder.createdAt,
  },
  toRecord: (r): WorkOrderRecord => ({
    ...r,
    origin: r.origin as WorkOrderOrigin,
    status: r.status as WorkOrderState,
    overdue: openStates.includes(r.status) && r.dueAt.getTime() < Date.now(),
    startAt: r.startAt.toISOString(),
    dueAt: r.dueAt.toISOString(),
    openedAt: iso(r.openedAt),
    startedAt: iso(r.startedAt),
    completedAt: iso(r.completedAt),
    closedAt: iso(r.closedAt),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }),
});

const assertFilter = assertOrderFilter;

export async function workOrderPage(ctx: AppContext, user: AuthUser, req: WorkOrderFilter & { current: number; pageSize: number }): Promise<Page<WorkOrderRecord>> {
  await assertFilter(ctx.db, user, req);
  return orders.page(ctx.db, user, { ...req, userId: user.id });
}

const LIST_MAX = 5000;

export async function workOrderList(ctx: AppContext, user: AuthUser, f: WorkOrderFilter): Promise<WorkOrderRecord[]> {
  await assertFilter(ctx.db, user, f);
  return orders.list(ctx.db, user, { ...f, userId: user.id }, LIST_MAX);
}

/** One order the caller may see (404 otherwise). */
export async function workOrderInScope(db: DbOrTx, user: AuthUser, id: number): Promise<WorkOrderRecord> {
  const [row] = await orders.rows(db, and(eq(inspectionWorkOrder.id, id), inSiteScope(inspectionWorkOrder.siteId, db, user)));
  return found(row, '巡检工单不存在');
}

async function orderItems(db: DbOrTx, orderId: number): Promise<WorkOrderItemRecord[]> {
  const rows = await db
    .select({ i: inspectionWorkOrderItem, deviceName: device.name })
    .from(inspectionWorkOrderItem)
    .leftJoin(device, eq(device.id, inspectionWorkOrderItem.deviceId))
    .where(eq(inspectionWorkOrderItem.orderId, orderId))
    .orderBy(asc(inspectionWorkOrderItem.sort), asc(inspectionWorkOrderItem.id));
  return rows.map(({ i, deviceName }) => ({
    id: i.id, itemId: i.itemId, sort: i.sort, name: i.name, checkType: i.checkType as CheckType, deviceType: i.deviceType as DeviceType | null,
    unit: i.unit, min: i.minValue, max: i.maxValue, standard: i.standard, deviceId: i.deviceId, deviceName: deviceName ?? null,
    result: i.result as ItemResult | null, value: i.value, text: i.text, photos: photosOut(i.photos), outOfRange: i.outOfRange, defectId: i.defectId,
    checkedAt: iso(i.checkedAt),
  }));
}

/** The caller's roles toward an order (for the machine's `who`). */

/** The detail: the order, its items with their results, the caller's roles. Reading it marks the order opened (the plan's pause rule). */
export async function workOrderOne(ctx: AppContext, user: AuthUser, id: number): Promise<WorkOrderDetail> {
  const order = await workOrderInScope(ctx.db, user, id);
  if (order.openedAt === null) {
    const now = new Date();
    await ctx.db.update(inspectionWorkOrder).set({ openedAt: now }).where(and(eq(inspectionWorkOrder.id, id), isNull(inspectionWorkOrder.openedAt)));
    order.openedAt = now.toISOString();
  }
  return { ...order, items: await orderItems(ctx.db, id), roles: rolesOf(user, order.assigneeId) };
}

// ── Manual orders and edits ───────────────────────────────────────────────────────────

/** Items the caller's companies own (or the companies above them share down), in the order given. */
async function itemsFor(tx: DbOrTx, user: AuthUser, itemIds: number[]) {
  const rows = await tx
    .select()
    .from(inspectionItem)
    .where(and(inArray(inspectionItem.id, itemIds), inCompanyScope(inspectionItem.companyId, tx, user)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return itemIds.map((id) => {
    const r = byId.get(id);
    if (!r) throw new AppError('NOT_FOUND', `巡检项不存在：${id}`);
    return r;
  });
}

/** Emits the order event of an action (or of creation) in the caller's transaction. */
async function emitOrder(
  tx: DbOrTx,
  type: string,
  o: { id: number; no: string; siteId: number; assigneeId: number | null },
  from: string | null,
  to: string,
  user: AuthUser | null,
  note: string | null,
) {
  await emit(tx, type as 'workorder.created', [{ id: o.id, no: o.no, siteId: o.siteId, from, to, userId: user?.id ?? null, assigneeId: o.assigneeId, note }]);
}

/**
 * A manual order for a station: its items copied from the chosen inspection items; given an
 * assignee it is allocated at once (pending), else it waits to be assigned.
 */
export async function addWorkOrder(ctx: AppContext, user: AuthUser, b: WorkOrderAdd): Promise<{ id: number }> {
  const created = await ctx.db.transaction(async (tx) => {
    const s = await siteInScope(tx, user, b.siteId);
    const [zone] = await tx.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, s.id));
    const items = await itemsFor(tx, user, b.itemIds);
    const assignee = b.assigneeId !== null ? await assigneeFor(tx, b.assigneeId, s.id) : null;
    const id = await nextId(tx, 'inspection_work_order');
    const timeZone = zone!.timeZone;
    const no = orderNo(WORK_ORDER_NO_PREFIX, id, b.startAt, timeZone);
    const status: WorkOrderState = assignee ? 'pending' : 'toBeAssigned';
    await tx.insert(inspectionWorkOrder).values({
      id, no, siteId: s.id, origin: 'manual', title: b.title, status, scheduledDate: localDate(b.startAt, timeZone), startAt: b.startAt, dueAt: b.dueAt,
      assigneeId: assignee?.id ?? null, assigneeName: assignee?.name ?? null, note: b.note, createdBy: user.id, createdByName: user.name || user.username,
    });
    await tx.insert(inspectionWorkOrderItem).values(
      items.map((it, i) => ({
        orderId: id, itemId: it.id, sort: i + 1, name: it.name, checkType: it.checkType, deviceType: it.deviceType, unit: it.unit,
        minValue: it.minValue, maxValue: it.maxValue, standard: it.standard,
      })),
    );
    const o = { id, no, siteId: s.id, assigneeId: assignee?.id ?? null };
    await writeJournal(tx, 'workOrder', id, { action: 'create', from: 'toBeAssigned', to: 'toBeAssigned', note: b.note, user });
    await emitOrder(tx, 'workorder.created', o, null, 'toBeAssigned', user, b.note);
    if (assignee) {
      await writeJournal(tx, 'workOrder', id, { action: 'allocate', from: 'toBeAssigned', to: 'pending', note: null, user });
      await emitOrder(tx, WORK_ORDER_EVENTS.allocate, o, 'toBeAssigned', 'pending', user, null);
    }
    return { id };
  });
  ctx.outbox.nudge();
  return created;
}

const localDate = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** Title, due time and note of an open order (a completed or closed one is history). */
export async function editWorkOrder(ctx: AppContext, user: AuthUser, b: WorkOrderEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await workOrderInScope(tx, user, b.id);
    await tx.select({ id: inspectionWorkOrder.id }).from(inspectionWorkOrder).where(eq(inspectionWorkOrder.id, cur.id)).for('update');
    if (!openStates.includes(cur.status)) throw new AppError('RULE_VIOLATION', `当前状态为「${WORK_ORDER_STATE_LABELS[cur.status]}」，不能编辑`);
    const dueAt = b.dueAt ?? new Date(cur.dueAt);
    if (dueAt.getTime() <= new Date(cur.startAt).getTime()) throw new AppError('INVALID_PARAM', 'dueAt: 截止时间须晚于开始时间');
    await tx
      .update(inspectionWorkOrder)
      .set({
        ...(b.title !== undefined ? { title: b.title } : {}),
        ...(b.dueAt !== undefined ? { dueAt: b.dueAt } : {}),
        ...(b.note !== undefined ? { note: b.note } : {}),
        updatedAt: new Date(),
      })
      .where(eq(inspectionWorkOrder.id, cur.id));
  });
}

// ── Transitions ───────────────────────────────────────────────────────────────────────

type OrderRow = { id: number; no: string; siteId: number; state: WorkOrderState; assigneeId: number | null; openedAt: Date | null };

/**
 * A work order as the state-machine helper reaches it. `apply` does the action's own writes
 * (assignee, results, defects, times) in the same transaction, after the transition was allowed.
 */
function workOrderEntity(
  user: AuthUser,
  id: number,
  apply: (tx: DbOrTx, row: OrderRow, to: WorkOrderState) => Promise<Partial<typeof inspectionWorkOrder.$inferInsert>>,
  locked: (row: OrderRow) => void,
): StatefulEntity<WorkOrderState, OrderRow, MaintLogRecord> {
  let changes: Partial<typeof inspectionWorkOrder.$inferInsert> = {};
  return {
    lock: async (tx) => {
      const [row] = await tx
        .select({
          id: inspectionWorkOrder.id, no: inspectionWorkOrder.no, siteId: inspectionWorkOrder.siteId, state: inspectionWorkOrder.status,
          assigneeId: inspectionWorkOrder.assigneeId, openedAt: inspectionWorkOrder.openedAt,
        })
        .from(inspectionWorkOrder)
        .where(and(eq(inspectionWorkOrder.id, id), inSiteScope(inspectionWorkOrder.siteId, tx, user)))
        .for('update');
      const r = found(row, '巡检工单不存在');
      const lockedRow = { ...r, state: r.state as WorkOrderState };
      locked(lockedRow);
      return lockedRow;
    },
    // The state is written with the action's own changes (journal), which every action has.
    write: () => Promise.resolve(),
    journal: async (tx, e) => {
      changes = await apply(tx, e.row, e.to);
      const now = new Date();
      await tx
        .update(inspectionWorkOrder)
        .set({ ...changes, status: e.to, openedAt: e.row.openedAt ?? now, updatedAt: now })
        .where(eq(inspectionWorkOrder.id, e.row.id));
      const assigneeId = changes.assigneeId !== undefined ? changes.assigneeId : e.row.assigneeId;
      await emitOrder(tx, WORK_ORDER_EVENTS[e.action as WorkOrderAction], { ...e.row, assigneeId }, e.from, e.to, e.user, e.note);
      return writeJournal(tx, 'workOrder', e.row.id, { action: e.action, from: e.from, to: e.to, note: e.note, user: e.user });
    },
  };
}

/** Refuses an action the table keeps for the assignee when the caller is not the order's. */
function assertRole(action: WorkOrderAction, row: OrderRow, user: AuthUser) {
  const who = workOrderMachine.transitions[action].who;
  if (who?.includes(ASSIGNEE_ROLE) && row.assigneeId !== user.id && workOrderMachine.transitions[action].from.includes(row.state)) {
    throw new AppError('RULE_VIOLATION', '只有工单执行人可以处理该工单');
  }
}

const act = (
  ctx: AppContext,
  user: AuthUser,
  id: number,
  action: WorkOrderAction,
  note: string | null,
  apply: (tx: DbOrTx, row: OrderRow, to: WorkOrderState) => Promise<Partial<typeof inspectionWorkOrder.$inferInsert>>,
) =>
  actOn(ctx, workOrderMachine, { user, action, note }, (locked) =>
    workOrderEntity(user, id, apply, (row) => {
      assertRole(action, row, user);
      locked(row);
    }),
  );

/** Allocation (only from to be assigned): the assignee must be able to see the station. */
export async function allocateWorkOrder(ctx: AppContext, user: AuthUser, b: WorkOrderAllocation): Promise<void> {
  await act(ctx, user, b.id, 'allocate', b.note, async (tx, row) => {
    const a = await assigneeFor(tx, b.assigneeId, row.siteId);
    return { assigneeId: a.id, assigneeName: a.name };
  });
}

/** Closing (from to be assigned, pending or processing). */
export async function closeWorkOrder(ctx: AppContext, user: AuthUser, b: WorkOrderClose): Promise<void> {
  await act(ctx, user, b.id, 'close', b.note, () => Promise.resolve({ closedAt: new Date() }));
}

/** What one result records, checked against its item. */
interface CheckedResult {
  result: ItemResult;
  value: number | null;
  text: string | null;
  photos: StoredPhoto[];
  outOfRange: boolean;
  deviceId: number | null;
}

type OrderItemRow = typeof inspectionWorkOrderItem.$inferSelect;

async function checkResult(tx: DbOrTx, user: AuthUser, item: OrderItemRow, r: ResultInput, siteId: number, at: number): Promise<CheckedResult> {
  const field = `results[${at}]`;
  const photos = await storedPhotos(tx, user, r.photos, `${field}.photos`);
  const deviceId = r.deviceId !== null ? (await deviceOfSite(tx, r.deviceId, siteId, `${field}.deviceId`)).id : item.deviceId;
  const type = item.checkType as CheckType;
  let outOfRange = false;
  let result = r.result;
  switch (type) {
    case 'status':
      if (!result) throw new AppError('INVALID_PARAM', `${field}.result: ${RESULT_REQUIRED}`);
      break;
    case 'number':
      if (r.value === null) throw new AppError('INVALID_PARAM', `${field}.value: 请填写测量值`);
      outOfRange = (item.minValue !== null && r.value < item.minValue) || (item.maxValue !== null && r.value > item.maxValue);
      // A number out of range is a failure whatever is stated; in range, pass unless stated.
      result = outOfRange ? 'fail' : (result ?? 'pass');
      break;
    case 'text':
      if (!r.text) throw new AppError('INVALID_PARAM', `${field}.text: 请填写检查记录`);
      result ??= 'pass';
      break;
    case 'photo':
      if (photos.length === 0) throw new AppError('INVALID_PARAM', `${field}.photos: 该项须上传照片`);
      result ??= 'pass';
      break;
  }
  if (!CHECK_TYPES.includes(type) || !ITEM_RESULTS.includes(result)) throw new AppError('INVALID_PARAM', `${field}.result: ${RESULT_REQUIRED}`);
  return { result, value: type === 'number' ? r.value : null, text: r.text, photos, outOfRange, deviceId };
}

/** The defect a failed item records: level 3 unless the value was out of range on a failed item (2). */
function defectText(item: OrderItemRow, c: CheckedResult): string {
  const parts = [`${item.name}：${ITEM_RESULT_LABELS[c.result]}`];
  if (c.value !== null) parts.push(`测量值 ${c.value}${item.unit ?? ''}${c.outOfRange ? `（允许范围 ${item.minValue ?? '-∞'}~${item.maxValue ?? '∞'}）` : ''}`);
  if (c.text) parts.push(c.text);
  if (item.standard) parts.push(`标准：${item.standard}`);
  return parts.join('；').slice(0, 500);
}

/**
 * Handling by the assignee: the results given are recorded (each checked against its item: a
 * status needs its result, a number its value — out of the item's range it fails — a text its
 * text, a photo item a photo); a failed or out-of-range item records a defect at once (one per
 * item, carrying the device and the photos). `complete` submits the order: every item must have
 * its result, and it completes; otherwise it is processing.
 */
export async function handleWorkOrder(ctx: AppContext, user: AuthUser, b: WorkOrderHandle): Promise<void> {
  const ids = b.results.map((r) => r.id);
  if (new Set(ids).size !== ids.length) throw new AppError('INVALID_PARAM', 'results: 检查项重复');
  await act(ctx, user, b.id, b.complete ? 'complete' : 'handle', b.note, async (tx, row) => {
    const items = await tx.select().from(inspectionWorkOrderItem).where(eq(inspectionWorkOrderItem.orderId, row.id));
    const byId = new Map(items.map((i) => [i.id, i]));
    const now = new Date();
    for (const [at, r] of b.results.entries()) {
      const item = byId.get(r.id);
      if (!item) throw new AppError('INVALID_PARAM', `results[${at}].id: 不是该工单的检查项`);
      const c = await checkResult(tx, user, item, r, row.siteId, at);
      let defectId = item.defectId;
      if (c.result === 'fail' && defectId === null) {
        defectId = await recordDefect(tx, user, {
          siteId: row.siteId, deviceId: c.deviceId, level: c.outOfRange ? 2 : 3, description: defectText(item, c), photos: c.photos,
          workOrderId: row.id, workOrderItemId: item.id, foundAt: now,
        });
      }
      await tx
        .update(inspectionWorkOrderItem)
        .set({ result: c.result, value: c.value, text: c.text, photos: c.photos, outOfRange: c.outOfRange, deviceId: c.deviceId, defectId, checkedAt: now, checkedBy: user.id })
        .where(eq(inspectionWorkOrderItem.id, item.id));
      item.result = c.result;
    }
    if (b.complete) {
      const missing = items.filter((i) => i.result === null);
      if (missing.length) throw new AppError('RULE_VIOLATION', `还有${missing.length}项未填写检查结果：${missing.map((i) => i.name).join('、')}`);
    }
    return { ...(row.state === 'pending' ? { startedAt: now } : {}), ...(b.complete ? { completedAt: now } : {}) };
  });
}

// ── The work order log ────────────────────────────────────────────────────────────────

export async function workOrderLogPage(ctx: AppContext, user: AuthUser, req: WorkOrderLogPage): Promise<Page<MaintLogRecord>> {
  await workOrderInScope(ctx.db, user, req.orderId);
  const where = and(eq(maintenanceLog.entity, 'workOrder'), eq(maintenanceLog.entityId, req.orderId));
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(maintenanceLog).where(where);
  const rows = n === 0 ? [] : await ctx.db.select().from(maintenanceLog).where(where).orderBy(asc(maintenanceLog.id)).limit(req.pageSize).offset((req.current - 1) * req.pageSize);
  return { records: rows.map(logRecord), total: n, current: req.current, pageSize: req.pageSize };
}

export async function workOrderLogOne(ctx: AppContext, user: AuthUser, id: number): Promise<MaintLogRecord> {
  const [row] = await ctx.db
    .select({ log: maintenanceLog })
    .from(maintenanceLog)
    .innerJoin(inspectionWorkOrder, eq(inspectionWorkOrder.id, maintenanceLog.entityId))
    .where(and(eq(maintenanceLog.id, id), eq(maintenanceLog.entity, 'workOrder'), inSiteScope(inspectionWorkOrder.siteId, ctx.db, user)));
  return logRecord(found(row, '工单日志不存在').log);
}

// ── Export ────────────────────────────────────────────────────────────────────────────

const EXPORT_MAX = 50_000;

export async function exportWorkOrders(ctx: AppContext, user: AuthUser, f: WorkOrderFilter, lang: ExportLanguage, reply: FastifyReply) {
  await assertFilter(ctx.db, user, f);
  const rows = await orders.list(ctx.db, user, { ...f, userId: user.id }, EXPORT_MAX);
  const time = (v: string | null) => (v ? new Date(v) : null);
  const cols: XlsxColumn<WorkOrderRecord>[] = [
    { header: '工单编号', width: 20, value: (r) => r.no },
    { header: '工单名称', width: 24, value: (r) => r.title },
    { header: '来源', width: 10, kind: 'label', value: (r) => WORK_ORDER_ORIGIN_LABELS[r.origin] },
    { header: '巡检计划', width: 20, value: (r) => r.planName },
    { header: '站点', width: 18, value: (r) => r.siteName },
    { header: '状态', width: 10, kind: 'label', value: (r) => WORK_ORDER_STATE_LABELS[r.status] },
    { header: '执行人', width: 12, value: (r) => r.assigneeName },
    { header: '计划开始时间', width: 22, kind: 'instant', value: (r) => time(r.startAt) },
    { header: '截止时间', width: 22, kind: 'instant', value: (r) => time(r.dueAt) },
    { header: '完成时间', width: 22, kind: 'instant', value: (r) => time(r.completedAt) },
    { header: '检查项数', width: 10, value: (r) => r.itemCount },
    { header: '异常项数', width: 10, value: (r) => r.failCount },
    { header: '缺陷数', width: 10, value: (r) => r.defectCount },
    { header: '备注', width: 30, value: (r) => r.note },
  ];
  return streamXlsx(reply, { fileName: '巡检工单', columns: cols }, rows, lang);
}

/** Conditions other services use. */
export const workOrderOpen: SQL = inArray(inspectionWorkOrder.status, [...openStates]);
