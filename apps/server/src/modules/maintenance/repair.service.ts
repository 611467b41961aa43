import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import {
  ASSIGNEE_ROLE, MAINT_LEVEL_LABELS, REPAIR_DUE_HOURS, REPAIR_EVENTS, REPAIR_NO_PREFIX, REPAIR_OPEN_STATES, REPAIR_SNAPSHOT_MS, REPAIR_SOURCE_LABELS,
  REPAIR_AUTO_DEFAULT as AUTO_DEFAULT, REPAIR_STATE_LABELS, repairMachine,
  type DeviceType, type MaintLevel, type MaintLogRecord, type Page, type RepairAcceptance, type RepairAction, type RepairAdd, type RepairAllocation,
  type RepairCheckIn, type RepairDetail, type RepairEdit, type RepairFilter, type RepairHandle, type RepairRecord, type RepairSource, type RepairState,
  type SourceAction, type TelemetrySnapshot,
} from '@ess/contract';
import { alarm } from '../../db/schema/alarm.ts';
import { device, productProperty } from '../../db/schema/device.ts';
import { inspectionDefect, repairOrder } from '../../db/schema/maintenance.ts';
import { site } from '../../db/schema/site.ts';
import { company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/database.ts';
import { UNIQUE_VIOLATION, pgErrorCode } from '../../platform/db/errors.ts';
import { emit } from '../../platform/events/outbox.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { defineListQuery } from '../../platform/http/paging.ts';
import { inSiteScope, likeEscaped } from '../../platform/http/scope.ts';
import type { StatefulEntity } from '../../platform/state.ts';
import { streamXlsx, type ExportLanguage, type XlsxColumn } from '../../platform/xlsx/xlsx.ts';
import { siteInScope } from '../site/index.ts';
import { deviceHistory } from '../telemetry/index.ts';
import './maintenance.events.ts';
import { actOn, rolesOf } from './maintenance.journal.ts';
import {
  actorName, assertOrderFilter, assigneeFor, deviceOfSite, journalOf, nextId, orderNo, overdueCondition, photosOut, sharedOrderFilters, sitesUnderCompany, storedPhotos,
  writeJournal,
} from './order-common.ts';

/**
 * Repair orders (repairMachine): by hand, from a defect (device and photos carried over) or from an
 * alarm (device, level, description and the device's last hour of telemetry; one order per alarm,
 * DB-unique), dispatched, checked in on site, handled and accepted or rejected. The alarm's state
 * is read live with the order; its start, the check-in and the completion are kept for MTTA/MTTR.
 */

const defectOf = alias(inspectionDefect, 'repair_defect');

const columns = {
  id: repairOrder.id,
  no: repairOrder.no,
  title: repairOrder.title,
  description: repairOrder.description,
  level: repairOrder.level,
  source: repairOrder.source,
  status: repairOrder.status,
  siteId: repairOrder.siteId,
  siteName: site.name,
  siteCode: site.code,
  timeZone: site.timeZone,
  deviceId: repairOrder.deviceId,
  deviceCode: device.code,
  deviceName: device.name,
  deviceType: device.type,
  defectId: repairOrder.defectId,
  defectNo: defectOf.no,
  alarmId: repairOrder.alarmId,
  alarmNo: alarm.no,
  alarmStatus: alarm.status,
  alarmStartedAt: repairOrder.alarmStartedAt,
  alarmEndedAt: alarm.endedAt,
  photos: repairOrder.photos,
  assigneeId: repairOrder.assigneeId,
  assigneeName: repairOrder.assigneeName,
  dueAt: repairOrder.dueAt,
  dispatchedAt: repairOrder.dispatchedAt,
  acceptedAt: repairOrder.acceptedAt,
  checkInAt: repairOrder.checkInAt,
  checkInLongitude: repairOrder.checkInLongitude,
  checkInLatitude: repairOrder.checkInLatitude,
  checkInAddress: repairOrder.checkInAddress,
  workStartAt: repairOrder.workStartAt,
  workEndAt: repairOrder.workEndAt,
  workDone: repairOrder.workDone,
  parts: repairOrder.parts,
  handlePhotos: repairOrder.handlePhotos,
  completedAt: repairOrder.completedAt,
  closedAt: repairOrder.closedAt,
  rejectCount: repairOrder.rejectCount,
  lastRejectReason: repairOrder.lastRejectReason,
  sourceAction: repairOrder.sourceAction,
  note: repairOrder.note,
  createdBy: repairOrder.createdBy,
  createdByName: repairOrder.createdByName,
  createdAt: repairOrder.createdAt,
  updatedAt: repairOrder.updatedAt,
};

const openStates = REPAIR_OPEN_STATES as readonly string[];
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const repairs = defineListQuery({
  table: repairOrder,
  columns,
  joins: [
    { table: site, on: eq(site.id, repairOrder.siteId) },
    { table: device, on: eq(device.id, repairOrder.deviceId), left: true },
    { table: defectOf, on: eq(defectOf.id, repairOrder.defectId), left: true },
    { table: alarm, on: eq(alarm.id, repairOrder.alarmId), left: true },
  ],
  scope: (db, user) => inSiteScope(repairOrder.siteId, db, user),
  filter: (f: RepairFilter & { userId?: number }) => [
    ...sharedOrderFilters(
      {
        siteId: repairOrder.siteId, deviceId: repairOrder.deviceId, status: repairOrder.status, level: repairOrder.level, at: repairOrder.createdAt,
        keyword: [repairOrder.no, repairOrder.title, repairOrder.description, device.name],
      },
      f,
    ),
    f.source ? eq(repairOrder.source, f.source) : undefined,
    f.assigneeId ? eq(repairOrder.assigneeId, f.assigneeId) : undefined,
    f.mine && f.userId ? eq(repairOrder.assigneeId, f.userId) : undefined,
    f.overdue ? overdueCondition(repairOrder.status, repairOrder.dueAt, openStates) : undefined,
    f.alarmId ? eq(repairOrder.alarmId, f.alarmId) : undefined,
    f.defectId ? eq(repairOrder.defectId, f.defectId) : undefined,
  ],
  orderBy: [desc(repairOrder.createdAt), desc(repairOrder.id)],
  sortable: { no: repairOrder.no, level: repairOrder.level, status: repairOrder.status, dueAt: repairOrder.dueAt, createdAt: repairOrder.createdAt },
  toRecord: (r): RepairRecord => {
    const { checkInLongitude, checkInLatitude, checkInAddress, ...rest } = r;
    return {
      ...rest,
      source: r.source as RepairSource,
      status: r.status as RepairState,
      deviceType: r.deviceType as DeviceType | null,
      alarmStatus: r.alarmId === null ? null : ((r.alarmStatus ?? 'ended') as 'active' | 'ended'),
      alarmStartedAt: iso(r.alarmStartedAt),
      alarmEndedAt: iso(r.alarmEndedAt),
      photos: photosOut(r.photos),
      handlePhotos: photosOut(r.handlePhotos),
      overdue: openStates.includes(r.status) && r.dueAt !== null && r.dueAt.getTime() < Date.now(),
      dueAt: iso(r.dueAt),
      dispatchedAt: iso(r.dispatchedAt),
      acceptedAt: iso(r.acceptedAt),
      checkInAt: iso(r.checkInAt),
      checkInLocation: r.checkInAt ? { longitude: checkInLongitude, latitude: checkInLatitude, address: checkInAddress } : null,
      workStartAt: iso(r.workStartAt),
      workEndAt: iso(r.workEndAt),
      completedAt: iso(r.completedAt),
      closedAt: iso(r.closedAt),
      sourceAction: r.sourceAction as SourceAction | null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  },
});

const assertFilter = assertOrderFilter;

export async function repairPage(ctx: AppContext, user: AuthUser, req: RepairFilter & { current: number; pageSize: number }): Promise<Page<RepairRecord>> {
  await assertFilter(ctx.db, user, req);
  return repairs.page(ctx.db, user, { ...req, userId: user.id });
}

export async function repairList(ctx: AppContext, user: AuthUser, f: RepairFilter): Promise<RepairRecord[]> {
  await assertFilter(ctx.db, user, f);
  return repairs.list(ctx.db, user, { ...f, userId: user.id }, 5000);
}

export async function repairInScope(db: DbOrTx, user: AuthUser, id: number): Promise<RepairRecord> {
  const [row] = await repairs.rows(db, and(eq(repairOrder.id, id), inSiteScope(repairOrder.siteId, db, user)));
  return found(row, '维修工单不存在');
}

/** The detail: the order (with its alarm's state now), the telemetry snapshot, the timeline and the caller's roles. */
export async function repairOne(ctx: AppContext, user: AuthUser, id: number): Promise<RepairDetail> {
  const order = await repairInScope(ctx.db, user, id);
  const [snap] = await ctx.db.select({ s: repairOrder.telemetrySnapshot }).from(repairOrder).where(eq(repairOrder.id, id));
  return { ...order, telemetrySnapshot: snap?.s ?? null, timeline: await journalOf(ctx.db, 'repair', id), roles: rolesOf(user, order.assigneeId) };
}

// ── Creation ──────────────────────────────────────────────────────────────────────────

/** At most this many points per property in a snapshot (an hour of 1-second reports is thinned evenly). */
const SNAPSHOT_POINTS = 360;

/**
 * The device's numeric telemetry over the hour before `to`, read through the telemetry module's
 * history (as the company's administrator would see it: automatic creation has no caller).
 */
export async function telemetrySnapshotOf(ctx: AppContext, deviceId: number, to: Date): Promise<TelemetrySnapshot | null> {
  const [d] = await ctx.db
    .select({ productId: device.productId, companyId: site.companyId, path: company.path })
    .from(device)
    .innerJoin(site, eq(site.id, device.siteId))
    .innerJoin(company, eq(company.id, site.companyId))
    .where(eq(device.id, deviceId));
  if (!d) return null;
  const props = await ctx.db
    .select({ identifier: productProperty.identifier })
    .from(productProperty)
    .where(and(eq(productProperty.productId, d.productId), sql`${productProperty.slot} is not null`))
    .orderBy(asc(productProperty.sort), asc(productProperty.id));
  const from = new Date(to.getTime() - REPAIR_SNAPSHOT_MS);
  if (props.length === 0) return { deviceId, from: from.toISOString(), to: to.toISOString(), series: [] };
  const reader = { id: 0, username: 'system', name: 'system', companyId: d.companyId, companyPath: d.path, buildIn: true, allSites: true, sessionId: 0 };
  const h = await deviceHistory(ctx, reader, { deviceId, identifiers: props.map((p) => p.identifier), start: from, end: to, interval: 'raw' });
  return {
    deviceId,
    from: from.toISOString(),
    to: to.toISOString(),
    series: h.series.map((s) => {
      const step = Math.max(1, Math.ceil(s.points.length / SNAPSHOT_POINTS));
      return { identifier: s.identifier, name: s.name, unit: s.unit || null, points: s.points.filter((_, i) => i % step === 0 || i === s.points.length - 1) };
    }),
  };
}

type NewRepair = Omit<typeof repairOrder.$inferInsert, 'id' | 'no'>;

/** Writes an order (numbered), its first journal row and `repair.created` (and `repair.assigned` when given an assignee). */
async function insertRepair(tx: DbOrTx, user: AuthUser | null, timeZone: string, values: NewRepair, note: string | null): Promise<{ id: number; no: string } | null> {
  const id = await nextId(tx, 'repair_order');
  const now = new Date();
  const no = orderNo(REPAIR_NO_PREFIX, id, now, timeZone);
  // Another order of the same alarm wins (one per alarm): nothing is written then.
  const [row] = await tx.insert(repairOrder).values({ ...values, id, no }).onConflictDoNothing().returning({ id: repairOrder.id });
  if (!row) return null;
  const payload = { id, no, siteId: values.siteId, userId: user?.id ?? null, assigneeId: values.assigneeId ?? null, note, alarmId: values.alarmId ?? null };
  await writeJournal(tx, 'repair', id, { action: 'create', from: 'toBeDispatched', to: 'toBeDispatched', note, user });
  await emit(tx, 'repair.created', [{ ...payload, from: null, to: 'toBeDispatched' }]);
  if (values.status === 'pending') {
    await writeJournal(tx, 'repair', id, { action: 'allocate', from: 'toBeDispatched', to: 'pending', note: null, user });
    await emit(tx, 'repair.assigned', [{ ...payload, from: 'toBeDispatched', to: 'pending' }]);
  }
  return { id, no };
}

const alreadyRepaired = (no: string) => `该告警已有维修工单：${no}`;

async function existingOrderOfAlarm(db: DbOrTx, alarmId: number): Promise<string | null> {
  const [o] = await db.select({ no: repairOrder.no }).from(repairOrder).where(eq(repairOrder.alarmId, alarmId));
  return o?.no ?? null;
}

/**
 * A repair order: by hand (a station in scope, a device of it, a description), from a defect
 * (its station, device, level, description and photos; the defect is then under repair, one open
 * order at a time) or from an alarm (its station, device, level and description, the device's
 * last hour of telemetry, the alarm's start; one order per alarm, ever).
 */
export async function addRepair(ctx: AppContext, user: AuthUser, b: RepairAdd): Promise<{ id: number }> {
  if (b.defectId !== null && b.alarmId !== null) throw new AppError('INVALID_PARAM', 'alarmId: 不能同时从缺陷和告警创建');
  // The snapshot is read before the transaction (PGlite has one connection; the history read opens none of its own).
  let snapshot: TelemetrySnapshot | null = null;
  let alarmRow: typeof alarm.$inferSelect | undefined;
  if (b.alarmId !== null) {
    [alarmRow] = await ctx.db.select().from(alarm).where(and(eq(alarm.id, b.alarmId), inSiteScope(alarm.siteId, ctx.db, user)));
    if (!alarmRow) throw new AppError('NOT_FOUND', '告警不存在');
    const existing = await existingOrderOfAlarm(ctx.db, alarmRow.id);
    if (existing) throw new AppError('DUPLICATE', alreadyRepaired(existing));
    snapshot = await telemetrySnapshotOf(ctx, alarmRow.deviceId, new Date());
  }
  const created = await ctx.db.transaction(async (tx) => {
    let siteId: number;
    let deviceId: number | null = null;
    let level = b.level ?? 3;
    let description = b.description;
    let title = b.title;
    let photos = await storedPhotos(tx, user, b.photos);
    let source: RepairSource = 'manual';
    let alarmStartedAt: Date | null = null;
    if (alarmRow) {
      siteId = alarmRow.siteId;
      deviceId = alarmRow.deviceId;
      level = b.level ?? alarmRow.level;
      description = b.description ?? `${alarmRow.description}（${alarmRow.no}）`;
      title ??= alarmRow.description.slice(0, 64);
      source = 'alarm';
      alarmStartedAt = alarmRow.startedAt;
    } else if (b.defectId !== null) {
      const [d] = await tx
        .select()
        .from(inspectionDefect)
        .where(and(eq(inspectionDefect.id, b.defectId), inSiteScope(inspectionDefect.siteId, tx, user)))
        .for('update');
      if (!d) throw new AppError('NOT_FOUND', '缺陷记录不存在');
      if (d.status !== 'open') throw new AppError('RULE_VIOLATION', d.status === 'repairing' ? '该缺陷已有维修工单' : '该缺陷已消除');
      siteId = d.siteId;
      deviceId = d.deviceId;
      level = b.level ?? d.level;
      description = b.description ?? d.description;
      title ??= d.description.slice(0, 64);
      // The defect's photos come along, then any added here (at most 20 in all).
      const merged = [...d.photos, ...photos.filter((p) => !d.photos.some((q) => q.suffix === p.suffix))];
      if (merged.length > 20) throw new AppError('INVALID_PARAM', 'photos: 最多20张图片');
      photos = merged;
      source = 'defect';
    } else {
      siteId = b.siteId!;
    }
    const s = await siteInScope(tx, user, siteId);
    const [zone] = await tx.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, s.id));
    if (!alarmRow && b.deviceId !== null) deviceId = (await deviceOfSite(tx, b.deviceId, s.id)).id;
    if (alarmRow && b.deviceId !== null && b.deviceId !== alarmRow.deviceId) throw new AppError('INVALID_PARAM', 'deviceId: 与告警的设备不一致');
    const assignee = b.assigneeId !== null ? await assigneeFor(tx, b.assigneeId, s.id) : null;
    const now = new Date();
    const dueAt = b.dueAt ?? new Date(now.getTime() + REPAIR_DUE_HOURS[level as MaintLevel] * 3_600_000);
    const values: NewRepair = {
      siteId: s.id, deviceId, level, title: title ?? (description ?? '').slice(0, 64), description, source, status: assignee ? 'pending' : 'toBeDispatched',
      defectId: b.defectId, alarmId: alarmRow?.id ?? null, alarmStartedAt, telemetrySnapshot: snapshot, photos,
      assigneeId: assignee?.id ?? null, assigneeName: assignee?.name ?? null, dispatchedAt: assignee ? now : null, dueAt, note: b.note,
      createdBy: user.id, createdByName: actorName(user),
    };
    const made = await insertRepair(tx, user, zone!.timeZone, values, b.note);
    if (!made) throw new AppError('DUPLICATE', alreadyRepaired((await existingOrderOfAlarm(tx, alarmRow!.id)) ?? ''));
    if (b.defectId !== null) {
      await tx.update(inspectionDefect).set({ status: 'repairing', repairOrderId: made.id, updatedAt: now }).where(eq(inspectionDefect.id, b.defectId));
    }
    return made;
  });
  ctx.outbox.nudge();
  return { id: created.id };
}

/** Edits an open order (one to be accepted, completed or closed is the repairer's and the accepter's record). */
export async function editRepair(ctx: AppContext, user: AuthUser, b: RepairEdit): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const cur = await repairInScope(tx, user, b.id);
    await tx.select({ id: repairOrder.id }).from(repairOrder).where(eq(repairOrder.id, cur.id)).for('update');
    if (!['toBeDispatched', 'pending', 'processing'].includes(cur.status)) throw new AppError('RULE_VIOLATION', `当前状态为「${REPAIR_STATE_LABELS[cur.status]}」，不能编辑`);
    if (b.deviceId !== undefined && b.deviceId !== null) {
      if (cur.alarmId !== null && b.deviceId !== cur.deviceId) throw new AppError('INVALID_PARAM', 'deviceId: 与告警的设备不一致');
      await deviceOfSite(tx, b.deviceId, cur.siteId);
    }
    const photos = b.photos !== undefined ? await storedPhotos(tx, user, b.photos) : undefined;
    await tx
      .update(repairOrder)
      .set({
        ...(b.deviceId !== undefined && cur.alarmId === null ? { deviceId: b.deviceId } : {}),
        ...(b.level !== undefined ? { level: b.level } : {}),
        ...(b.title !== undefined ? { title: b.title } : {}),
        ...(b.description !== undefined ? { description: b.description } : {}),
        ...(photos !== undefined ? { photos } : {}),
        ...(b.dueAt !== undefined ? { dueAt: b.dueAt } : {}),
        ...(b.note !== undefined ? { note: b.note } : {}),
        updatedAt: new Date(),
      })
      .where(eq(repairOrder.id, cur.id));
  });
}

// ── Transitions ───────────────────────────────────────────────────────────────────────

type RepairRow = { id: number; no: string; siteId: number; state: RepairState; assigneeId: number | null; alarmId: number | null; defectId: number | null };
type RepairChanges = Partial<typeof repairOrder.$inferInsert>;

function repairEntity(
  user: AuthUser,
  id: number,
  action: RepairAction,
  apply: (tx: DbOrTx, row: RepairRow) => Promise<RepairChanges>,
  locked: (row: RepairRow) => void,
) {
  const entity: StatefulEntity<RepairState, RepairRow, MaintLogRecord> = {
    lock: async (tx) => {
      const [row] = await tx
        .select({
          id: repairOrder.id, no: repairOrder.no, siteId: repairOrder.siteId, state: repairOrder.status, assigneeId: repairOrder.assigneeId,
          alarmId: repairOrder.alarmId, defectId: repairOrder.defectId,
        })
        .from(repairOrder)
        .where(and(eq(repairOrder.id, id), inSiteScope(repairOrder.siteId, tx, user)))
        .for('update');
      const r = found(row, '维修工单不存在');
      const state = r.state as RepairState;
      const t = repairMachine.transitions[action];
      if (t.who?.includes(ASSIGNEE_ROLE) && t.from.includes(state) && r.assigneeId !== user.id) throw new AppError('RULE_VIOLATION', '只有维修人员可以进行此操作');
      const out = { ...r, state };
      locked(out);
      return out;
    },
    // The state is written with the action's own changes (journal), which every action has.
    write: () => Promise.resolve(),
    journal: async (tx, e) => {
      const changes = await apply(tx, e.row);
      const now = new Date();
      await tx.update(repairOrder).set({ ...changes, status: e.to, updatedAt: now }).where(eq(repairOrder.id, e.row.id));
      // The defect a repair came from follows it: resolved when it passes, open again when it is closed.
      if (e.row.defectId !== null && (e.to === 'completed' || e.to === 'closed')) {
        await tx
          .update(inspectionDefect)
          .set({ status: e.to === 'completed' ? 'resolved' : 'open', ...(e.to === 'closed' ? { repairOrderId: null } : {}), updatedAt: now })
          .where(and(eq(inspectionDefect.id, e.row.defectId), eq(inspectionDefect.repairOrderId, e.row.id)));
      }
      const assigneeId = changes.assigneeId !== undefined ? changes.assigneeId : e.row.assigneeId;
      await emit(tx, REPAIR_EVENTS[action] as 'repair.assigned', [
        { id: e.row.id, no: e.row.no, siteId: e.row.siteId, from: e.from, to: e.to, userId: e.user.id, assigneeId, note: e.note, alarmId: e.row.alarmId },
      ]);
      return writeJournal(tx, 'repair', e.row.id, { action: e.action, from: e.from, to: e.to, note: e.note, user: e.user });
    },
  };
  return entity;
}

const act = (ctx: AppContext, user: AuthUser, id: number, action: RepairAction, note: string | null, apply: (tx: DbOrTx, row: RepairRow) => Promise<RepairChanges>) =>
  actOn(ctx, repairMachine, { user, action, note }, (locked) => repairEntity(user, id, action, apply, locked));

/** Dispatch (only from to be dispatched) to a user who can see the station. */
export async function allocateRepair(ctx: AppContext, user: AuthUser, b: RepairAllocation): Promise<void> {
  await act(ctx, user, b.id, 'allocate', b.note, async (tx, row) => {
    const a = await assigneeFor(tx, b.assigneeId, row.siteId);
    return { assigneeId: a.id, assigneeName: a.name, dispatchedAt: new Date() };
  });
}

/** The repairer on site (only the assignee, only when pending): the time is recorded (the end of MTTA), the location if given. */
export async function checkInRepair(ctx: AppContext, user: AuthUser, b: RepairCheckIn): Promise<void> {
  await act(ctx, user, b.id, 'checkIn', b.note, () => {
    const now = new Date();
    return Promise.resolve({ checkInAt: now, acceptedAt: now, checkInLongitude: b.longitude, checkInLatitude: b.latitude, checkInAddress: b.address });
  });
}

/** The repairer's work (only the assignee, only while processing): work done, parts, photos, start and end (end after start, not in the future). */
export async function handleRepair(ctx: AppContext, user: AuthUser, b: RepairHandle): Promise<void> {
  if (b.endAt.getTime() > Date.now() + 5 * 60_000) throw new AppError('INVALID_PARAM', 'endAt: 结束时间不能晚于当前时间');
  await act(ctx, user, b.id, 'handle', b.note, async (tx) => {
    const photos = await storedPhotos(tx, user, b.photos);
    return { workDone: b.workDone, parts: b.parts, handlePhotos: photos, workStartAt: b.startAt, workEndAt: b.endAt };
  });
}

/**
 * Acceptance inspection (only when to be accepted): passing completes the order (the end of MTTR;
 * the accepter's choice for the source alarm is recorded, the console shields or resets it with
 * the alarm calls); rejecting returns it to the repairer (processing) with the reason.
 */
export async function acceptRepair(ctx: AppContext, user: AuthUser, b: RepairAcceptance): Promise<void> {
  await act(ctx, user, b.id, b.pass ? 'accept' : 'reject', b.reason, async (tx, row) => {
    if (b.pass) {
      if (b.sourceAction !== undefined && b.sourceAction !== 'none' && row.alarmId === null) throw new AppError('INVALID_PARAM', 'sourceAction: 该工单没有来源告警');
      return { completedAt: new Date(), sourceAction: b.sourceAction ?? (row.alarmId !== null ? 'none' : null) };
    }
    const [cur] = await tx.select({ n: repairOrder.rejectCount }).from(repairOrder).where(eq(repairOrder.id, row.id));
    return { rejectCount: (cur?.n ?? 0) + 1, lastRejectReason: b.reason };
  });
}

// ── Devices and export ────────────────────────────────────────────────────────────────

export async function repairDevicePage(
  ctx: AppContext,
  user: AuthUser,
  req: { companyId?: number | undefined; siteId?: number | undefined; deviceType?: string | undefined; keyword?: string | undefined; current: number; pageSize: number },
) {
  await assertFilter(ctx.db, user, req);
  const where = and(
    inSiteScope(device.siteId, ctx.db, user),
    req.companyId ? sitesUnderCompany(device.siteId as never, req.companyId) : undefined,
    req.siteId ? eq(device.siteId, req.siteId) : undefined,
    req.deviceType ? eq(device.type, req.deviceType) : undefined,
    req.keyword ? or(likeEscaped(device.code, req.keyword), likeEscaped(device.name, req.keyword)) : undefined,
    sql`exists (select 1 from ${repairOrder} r where r.device_id = ${device.id})`,
  );
  const [{ n } = { n: 0 }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(device).where(where);
  const rows =
    n === 0
      ? []
      : await ctx.db
          .select({
            deviceId: device.id, deviceCode: device.code, deviceName: device.name, deviceType: device.type, siteId: device.siteId, siteName: site.name,
            repairCount: sql<number>`(select count(*) from ${repairOrder} r where r.device_id = ${device.id})::int`,
            openCount: sql<number>`(select count(*) from ${repairOrder} r where r.device_id = ${device.id} and r.status in ('toBeDispatched', 'pending', 'processing', 'toBeAccepted'))::int`,
            lastRepairAt: sql<string | null>`(select max(r.created_at) from ${repairOrder} r where r.device_id = ${device.id})`,
          })
          .from(device)
          .innerJoin(site, eq(site.id, device.siteId))
          .where(where)
          .orderBy(desc(sql`(select max(r.created_at) from ${repairOrder} r where r.device_id = ${device.id})`), asc(device.id))
          .limit(req.pageSize)
          .offset((req.current - 1) * req.pageSize);
  return {
    records: rows.map((r) => ({ ...r, deviceType: r.deviceType as DeviceType, lastRepairAt: r.lastRepairAt ? new Date(r.lastRepairAt).toISOString() : null })),
    total: n,
    current: req.current,
    pageSize: req.pageSize,
  };
}

export async function exportRepairs(ctx: AppContext, user: AuthUser, f: RepairFilter, lang: ExportLanguage, reply: FastifyReply) {
  await assertFilter(ctx.db, user, f);
  const rows = await repairs.list(ctx.db, user, { ...f, userId: user.id }, 50_000);
  const time = (v: string | null) => (v ? new Date(v) : null);
  const cols: XlsxColumn<RepairRecord>[] = [
    { header: '工单编号', width: 20, value: (r) => r.no },
    { header: '工单名称', width: 24, value: (r) => r.title },
    { header: '来源', width: 12, kind: 'label', value: (r) => REPAIR_SOURCE_LABELS[r.source] },
    { header: '等级', width: 8, kind: 'label', value: (r) => MAINT_LEVEL_LABELS[r.level as MaintLevel] },
    { header: '状态', width: 10, kind: 'label', value: (r) => REPAIR_STATE_LABELS[r.status] },
    { header: '站点', width: 18, value: (r) => r.siteName },
    { header: '设备名称', width: 18, kind: 'name', value: (r) => r.deviceName },
    { header: '告警编号', width: 20, value: (r) => r.alarmNo },
    { header: '维修人员', width: 12, value: (r) => r.assigneeName },
    { header: '创建时间', width: 22, kind: 'instant', value: (r) => time(r.createdAt) },
    { header: '截止时间', width: 22, kind: 'instant', value: (r) => time(r.dueAt) },
    { header: '签到时间', width: 22, kind: 'instant', value: (r) => time(r.checkInAt) },
    { header: '完成时间', width: 22, kind: 'instant', value: (r) => time(r.completedAt) },
    { header: '维修内容', width: 30, value: (r) => r.workDone },
    { header: '驳回次数', width: 8, value: (r) => r.rejectCount },
  ];
  return streamXlsx(reply, { fileName: '维修工单', columns: cols }, rows, lang);
}

// ── Automatic orders from alarms ──────────────────────────────────────────────────────

/**
 * Alarms still open that are at least as severe as their company's rule says (level ≤ maxLevel;
 * the station's company's rule, else the default) and older than its minutes get one repair order
 * each (source autoAlarm). Several instances may run this at once: the partial unique index on
 * repair_order.alarm_id lets one insert win, the others write nothing. Answers how many it made.
 */
export async function createAutomaticRepairs(ctx: AppContext, now = new Date(), batch = 100): Promise<number> {
  const { rows } = await ctx.database.sql.query<{ id: number }>(
    `select a.id
     from alarm a
     join site s on s.id = a.site_id
     left join repair_auto_rule r on r.company_id = s.company_id
     where a.status = 'active'
       and coalesce(r.enabled, $2::boolean)
       and a.level <= coalesce(r.max_level, $3::int)
       and a.started_at <= $1::timestamptz - coalesce(r.open_minutes, $4::int) * interval '1 minute'
       and not exists (select 1 from repair_order o where o.alarm_id = a.id)
     order by a.started_at
     limit $5`,
    [now, AUTO_DEFAULT.enabled, AUTO_DEFAULT.maxLevel, AUTO_DEFAULT.openMinutes, batch],
  );
  let made = 0;
  for (const { id } of rows) {
    const [a] = await ctx.db.select().from(alarm).where(eq(alarm.id, Number(id)));
    if (!a || a.status !== 'active') continue;
    const snapshot = await telemetrySnapshotOf(ctx, a.deviceId, now).catch((err: unknown) => {
      ctx.log.warn({ err, alarmId: a.id }, 'automatic repair order: no telemetry snapshot');
      return null;
    });
    const created = await ctx.db
      .transaction(async (tx) => {
        const [zone] = await tx.select({ timeZone: site.timeZone }).from(site).where(eq(site.id, a.siteId));
        return insertRepair(tx, null, zone!.timeZone, {
          siteId: a.siteId, deviceId: a.deviceId, level: a.level, title: a.description.slice(0, 64), description: `${a.description}（${a.no}）`,
          source: 'autoAlarm', status: 'toBeDispatched', alarmId: a.id, alarmStartedAt: a.startedAt, telemetrySnapshot: snapshot,
          dueAt: new Date(now.getTime() + REPAIR_DUE_HOURS[(Math.min(5, Math.max(1, a.level)) as MaintLevel)] * 3_600_000),
          createdBy: null, createdByName: actorName(null),
        }, null);
      })
      .catch((err: unknown) => {
        // A concurrent instance's order of the same alarm, seen as a unique violation on PostgreSQL's side: not ours to make.
        if (pgErrorCode(err) === UNIQUE_VIOLATION) return null;
        throw err;
      });
    if (created) made += 1;
  }
  if (made) ctx.outbox.nudge();
  return made;
}

