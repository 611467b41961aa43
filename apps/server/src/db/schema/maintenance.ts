import type { PlanSchedule, RepairPart, StoredPhoto, TelemetrySnapshot } from '@ess/contract';
import { sql } from 'drizzle-orm';
import {
  bigserial, boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, smallint, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';
import { alarm } from './alarm.ts';
import { device, product } from './device.ts';
import { site } from './site.ts';
import { appUser, company } from './system.ts';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const photos = (name: string) => jsonb(name).$type<StoredPhoto[]>().notNull().default(sql`'[]'::jsonb`);

/**
 * Maintenance (packages/contract/src/maintenance.ts): inspection items, plans and their stations
 * and items, the work orders plans generate (with each item's result), one state journal for
 * plans, work orders and repair orders, defects, repair orders, and the automatic-repair rule.
 * Work orders, defects and repair orders belong to a station (data scope through it); items and
 * plans to a company.
 */

/** What an inspection checks: a name, what it applies to (device type, product, or the station), how it is checked. */
export const inspectionItem = pgTable(
  'inspection_item',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => company.id),
    name: varchar('name', { length: 64 }).notNull(),
    deviceType: varchar('device_type', { length: 32 }),
    productId: integer('product_id').references(() => product.id, { onDelete: 'set null' }),
    /** status, number, text or photo. */
    checkType: varchar('check_type', { length: 16 }).notNull(),
    unit: varchar('unit', { length: 16 }),
    minValue: doublePrecision('min_value'),
    maxValue: doublePrecision('max_value'),
    standard: varchar('standard', { length: 200 }),
    remark: varchar('remark', { length: 200 }),
    createdBy: integer('created_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('inspection_item_name_uq').on(t.companyId, sql`lower(${t.name})`)],
);

/**
 * Inspection plans. `schedule` is the contract's PlanSchedule (kind, its fields, start and end
 * date, time of day, due hours); start and end date are copied to columns for the generator's
 * query. `status` follows planMachine; `stopReason` says why the generator stopped it.
 */
export const inspectionPlan = pgTable(
  'inspection_plan',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => company.id),
    name: varchar('name', { length: 64 }).notNull(),
    /** executing, pending or stopped. */
    status: varchar('status', { length: 16 }).notNull().default('stopped'),
    stopReason: varchar('stop_reason', { length: 16 }),
    schedule: jsonb('schedule').$type<PlanSchedule>().notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date'),
    /** schedule or completion. */
    countFrom: varchar('count_from', { length: 16 }).notNull().default('schedule'),
    /** The assignee group (user ids). */
    assigneeIds: jsonb('assignee_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    /** The owner (creator), told when the plan pauses itself. */
    ownerId: integer('owner_id').references(() => appUser.id, { onDelete: 'set null' }),
    remark: varchar('remark', { length: 200 }),
    lastGeneratedAt: tz('last_generated_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('inspection_plan_company_idx').on(t.companyId), index('inspection_plan_active_idx').on(t.status).where(sql`${t.status} <> 'stopped'`)],
);

/**
 * A plan's stations, with the generator's bookkeeping per station: the latest scheduled date an
 * order was made for (the generator never goes back before it, so a missed run is made once).
 */
export const inspectionPlanSite = pgTable(
  'inspection_plan_site',
  {
    planId: integer('plan_id').notNull().references(() => inspectionPlan.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    lastDueDate: date('last_due_date'),
    lastGeneratedAt: tz('last_generated_at'),
  },
  (t) => [primaryKey({ columns: [t.planId, t.siteId] }), index('inspection_plan_site_site_idx').on(t.siteId)],
);

/** A plan's items, in order. An item a plan uses cannot be deleted (restrict; the service names the plans). */
export const inspectionPlanItem = pgTable(
  'inspection_plan_item',
  {
    planId: integer('plan_id').notNull().references(() => inspectionPlan.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').notNull().references(() => inspectionItem.id, { onDelete: 'restrict' }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.planId, t.itemId] }), index('inspection_plan_item_item_idx').on(t.itemId)],
);

/**
 * Inspection work orders (workOrderMachine). A generated order is unique per plan, station and
 * scheduled date (the partial unique index): two generator instances cannot both make it.
 */
export const inspectionWorkOrder = pgTable(
  'inspection_work_order',
  {
    id: serial('id').primaryKey(),
    no: varchar('no', { length: 32 }).notNull().unique(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').references(() => inspectionPlan.id, { onDelete: 'set null' }),
    /** plan or manual. */
    origin: varchar('origin', { length: 16 }).notNull(),
    title: varchar('title', { length: 64 }).notNull(),
    /** toBeAssigned, pending, processing, completed or closed. */
    status: varchar('status', { length: 16 }).notNull().default('toBeAssigned'),
    /** Station-local date it was scheduled for. */
    scheduledDate: date('scheduled_date').notNull(),
    startAt: tz('start_at').notNull(),
    dueAt: tz('due_at').notNull(),
    assigneeId: integer('assignee_id').references(() => appUser.id, { onDelete: 'set null' }),
    assigneeName: varchar('assignee_name', { length: 64 }),
    /** First opened (detail read or any action); null = never opened (the plan's pause rule). */
    openedAt: tz('opened_at'),
    startedAt: tz('started_at'),
    completedAt: tz('completed_at'),
    closedAt: tz('closed_at'),
    note: varchar('note', { length: 200 }),
    createdBy: integer('created_by'),
    createdByName: varchar('created_by_name', { length: 64 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('inspection_work_order_slot_uq').on(t.planId, t.siteId, t.scheduledDate).where(sql`${t.planId} is not null`),
    index('inspection_work_order_site_due_idx').on(t.siteId, t.dueAt),
    index('inspection_work_order_assignee_idx').on(t.assigneeId, t.status),
    index('inspection_work_order_plan_idx').on(t.planId, t.createdAt),
    index('inspection_work_order_open_idx').on(t.dueAt).where(sql`${t.status} in ('toBeAssigned', 'pending', 'processing')`),
  ],
);

/** One item of a work order: the item as it was when the order was made (a copy), and its result. */
export const inspectionWorkOrderItem = pgTable(
  'inspection_work_order_item',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull().references(() => inspectionWorkOrder.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').references(() => inspectionItem.id, { onDelete: 'set null' }),
    sort: integer('sort').notNull().default(0),
    name: varchar('name', { length: 64 }).notNull(),
    checkType: varchar('check_type', { length: 16 }).notNull(),
    deviceType: varchar('device_type', { length: 32 }),
    unit: varchar('unit', { length: 16 }),
    minValue: doublePrecision('min_value'),
    maxValue: doublePrecision('max_value'),
    standard: varchar('standard', { length: 200 }),
    deviceId: integer('device_id').references(() => device.id, { onDelete: 'set null' }),
    /** pass, flag or fail; null until recorded. */
    result: varchar('result', { length: 8 }),
    value: doublePrecision('value'),
    text: varchar('text', { length: 500 }),
    photos: photos('photos'),
    outOfRange: boolean('out_of_range').notNull().default(false),
    defectId: integer('defect_id'),
    checkedAt: tz('checked_at'),
    checkedBy: integer('checked_by'),
  },
  (t) => [index('inspection_work_order_item_order_idx').on(t.orderId, t.sort)],
);

/**
 * The state journal of plans, work orders and repair orders (`entity` plan, workOrder or repair):
 * who, when, from, to, note. Kept without foreign keys so it outlives users.
 */
export const maintenanceLog = pgTable(
  'maintenance_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entity: varchar('entity', { length: 16 }).notNull(),
    entityId: integer('entity_id').notNull(),
    action: varchar('action', { length: 32 }).notNull(),
    fromState: varchar('from_state', { length: 16 }).notNull(),
    toState: varchar('to_state', { length: 16 }).notNull(),
    note: varchar('note', { length: 200 }),
    /** Null for the generator and automatic actions (username 系统). */
    userId: integer('user_id'),
    username: varchar('username', { length: 64 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
  },
  (t) => [index('maintenance_log_entity_idx').on(t.entity, t.entityId, t.id)],
);

/** Defects found on site, with photos; a defect may raise a repair order. */
export const inspectionDefect = pgTable(
  'inspection_defect',
  {
    id: serial('id').primaryKey(),
    no: varchar('no', { length: 32 }).notNull().unique(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => device.id, { onDelete: 'set null' }),
    level: smallint('level').notNull(),
    description: varchar('description', { length: 500 }).notNull(),
    photos: photos('photos'),
    /** open, repairing or resolved. */
    status: varchar('status', { length: 16 }).notNull().default('open'),
    workOrderId: integer('work_order_id').references(() => inspectionWorkOrder.id, { onDelete: 'set null' }),
    workOrderItemId: integer('work_order_item_id').references(() => inspectionWorkOrderItem.id, { onDelete: 'set null' }),
    repairOrderId: integer('repair_order_id'),
    foundAt: tz('found_at').notNull().defaultNow(),
    foundBy: integer('found_by'),
    foundByName: varchar('found_by_name', { length: 64 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('inspection_defect_site_idx').on(t.siteId, t.foundAt),
    index('inspection_defect_device_idx').on(t.deviceId),
    index('inspection_defect_order_idx').on(t.workOrderId),
    // One defect per failed result of an order, whoever records it.
    uniqueIndex('inspection_defect_result_uq').on(t.workOrderItemId).where(sql`${t.workOrderItemId} is not null`),
  ],
);

/**
 * Repair orders (repairMachine). From an alarm: `alarm_id` is unique (one order per alarm, never
 * two, also with automatic creation on several instances), the alarm's start is copied
 * (`alarm_started_at`: MTTA = accepted_at − it, MTTR = completed_at − it), and the device's last
 * hour of telemetry is kept as a snapshot.
 */
export const repairOrder = pgTable(
  'repair_order',
  {
    id: serial('id').primaryKey(),
    no: varchar('no', { length: 32 }).notNull().unique(),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => device.id, { onDelete: 'set null' }),
    level: smallint('level').notNull(),
    title: varchar('title', { length: 64 }).notNull(),
    description: varchar('description', { length: 500 }),
    /** manual, defect, alarm or autoAlarm. */
    source: varchar('source', { length: 16 }).notNull(),
    /** toBeDispatched, pending, processing, toBeAccepted, completed or closed. */
    status: varchar('status', { length: 16 }).notNull().default('toBeDispatched'),
    defectId: integer('defect_id').references(() => inspectionDefect.id, { onDelete: 'set null' }),
    alarmId: integer('alarm_id').references(() => alarm.id, { onDelete: 'set null' }),
    alarmStartedAt: tz('alarm_started_at'),
    telemetrySnapshot: jsonb('telemetry_snapshot').$type<TelemetrySnapshot>(),
    photos: photos('photos'),
    assigneeId: integer('assignee_id').references(() => appUser.id, { onDelete: 'set null' }),
    assigneeName: varchar('assignee_name', { length: 64 }),
    dueAt: tz('due_at'),
    dispatchedAt: tz('dispatched_at'),
    /** The repairer took the order (check-in): the end of MTTA. */
    acceptedAt: tz('accepted_at'),
    checkInAt: tz('check_in_at'),
    checkInLongitude: doublePrecision('check_in_longitude'),
    checkInLatitude: doublePrecision('check_in_latitude'),
    checkInAddress: varchar('check_in_address', { length: 256 }),
    workStartAt: tz('work_start_at'),
    workEndAt: tz('work_end_at'),
    workDone: varchar('work_done', { length: 500 }),
    parts: jsonb('parts').$type<RepairPart[]>().notNull().default(sql`'[]'::jsonb`),
    handlePhotos: photos('handle_photos'),
    /** Acceptance passed: the end of MTTR. */
    completedAt: tz('completed_at'),
    closedAt: tz('closed_at'),
    rejectCount: integer('reject_count').notNull().default(0),
    lastRejectReason: varchar('last_reject_reason', { length: 200 }),
    /** none, shield or reset: what the accepter chose for the source alarm. */
    sourceAction: varchar('source_action', { length: 8 }),
    note: varchar('note', { length: 200 }),
    createdBy: integer('created_by'),
    createdByName: varchar('created_by_name', { length: 64 }).notNull(),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('repair_order_alarm_uq').on(t.alarmId).where(sql`${t.alarmId} is not null`),
    index('repair_order_site_idx').on(t.siteId, t.createdAt),
    index('repair_order_device_idx').on(t.deviceId),
    index('repair_order_assignee_idx').on(t.assigneeId, t.status),
    index('repair_order_defect_idx').on(t.defectId),
  ],
);

/** Automatic repair orders from alarms, per company (contract repairAutoRule). */
export const repairAutoRule = pgTable('repair_auto_rule', {
  companyId: integer('company_id').primaryKey().references(() => company.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  maxLevel: smallint('max_level').notNull().default(2),
  openMinutes: integer('open_minutes').notNull().default(10),
  updatedBy: integer('updated_by'),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
