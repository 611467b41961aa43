import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { company } from './system.ts';

/**
 * The report centre's stored parts (issue 25 stage 2; decision 0054): schedules that mail a
 * report when due and the history of their runs (one run per schedule and due time: the unique
 * key that lets only one instance send it), and the installation's external report tool (one
 * row; its embedding secret sealed by platform/secrets.ts, never answered).
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const reportSchedule = pgTable(
  'report_schedule',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => company.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 64 }).notNull(),
    template: varchar('template', { length: 16 }).notNull(),
    siteIds: jsonb('site_ids').$type<number[]>().notNull(),
    granularity: varchar('granularity', { length: 8 }).notNull(),
    currency: varchar('currency', { length: 3 }),
    format: varchar('format', { length: 8 }).notNull(),
    /** daily, weekly, monthly. */
    frequency: varchar('frequency', { length: 8 }).notNull(),
    hour: smallint('hour').notNull(),
    /** 1 Monday … 7 Sunday (weekly). */
    weekday: smallint('weekday').notNull(),
    /** 1–28 (monthly). */
    monthDay: smallint('month_day').notNull(),
    timeZone: varchar('time_zone', { length: 64 }).notNull(),
    userIds: jsonb('user_ids').$type<number[]>().notNull(),
    roleIds: jsonb('role_ids').$type<number[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    remark: varchar('remark', { length: 200 }),
    /** The user the report is built as (not a key: deleting the user must not fail on it). */
    ownerId: integer('owner_id'),
    /** When it is due next (null: disabled). An instance claims a run by moving it on. */
    nextRunAt: tz('next_run_at'),
    lastRunAt: tz('last_run_at'),
    createdBy: integer('created_by'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('report_schedule_company_name_uq').on(t.companyId, t.name),
    index('report_schedule_due_idx').on(t.nextRunAt).where(sql`${t.enabled}`),
  ],
);

export interface ReportRunRecipientRow {
  userId: number;
  name: string;
  email: string | null;
  language: string;
  mailId: number | null;
  skipped: string | null;
}

export const reportScheduleRun = pgTable(
  'report_schedule_run',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    scheduleId: integer('schedule_id').notNull().references(() => reportSchedule.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => company.id, { onDelete: 'cascade' }),
    dueAt: tz('due_at').notNull(),
    start: varchar('start', { length: 10 }).notNull(),
    end: varchar('end', { length: 10 }).notNull(),
    /** running, sent, failed. */
    state: varchar('state', { length: 8 }).notNull(),
    recipients: jsonb('recipients').$type<ReportRunRecipientRow[]>().notNull().default([]),
    error: varchar('error', { length: 1000 }),
    startedAt: tz('started_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
    /** A running run is held by the instance running it until then; null or past: cut short, taken up again. */
    leaseUntil: tz('lease_until'),
  },
  (t) => [uniqueIndex('report_schedule_run_due_uq').on(t.scheduleId, t.dueAt), index('report_schedule_run_company_idx').on(t.companyId, t.startedAt)],
);

/** The installation's external report tool (a single row, id 1). */
export const reportEmbed = pgTable('report_embed', {
  id: integer('id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  tool: varchar('tool', { length: 16 }).notNull(),
  siteUrl: varchar('site_url', { length: 300 }).notNull(),
  /** The embedding secret sealed by platform/secrets.ts. */
  secretEnc: text('secret_enc').notNull(),
  siteParam: varchar('site_param', { length: 64 }).notNull().default('site_id'),
  dashboards: jsonb('dashboards').$type<{ id: number; name: string }[]>().notNull().default([]),
  updatedBy: integer('updated_by'),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
