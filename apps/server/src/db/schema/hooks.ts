import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { company } from './system.ts';

/**
 * Hooks (packages/contract/src/hooks.ts; issue 21; decision 0041): the trigger catalogue (built
 * from the modules' manifests by "scan"), the companies' parameters (constants, and secrets sealed
 * by platform/secrets.ts), the hooks (a trigger + filter + script + target + limits, with their
 * sealed signing secret and circuit breaker), the deliveries the dispatcher plans (one per hook
 * and event: the unique key that makes planning idempotent; claimed with a lease so they survive
 * a restart), one execution record per attempt, and the installation-wide settings.
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const companyId = () => integer('company_id').notNull().references(() => company.id, { onDelete: 'cascade' });
/** Who made a row and when it changed; users are not referenced by key (deleting a user must not fail on rows naming them). */
const made = () => ({ createdBy: integer('created_by'), createdAt: tz('created_at').notNull().defaultNow(), updatedAt: tz('updated_at').notNull().defaultNow() });

/** The catalogue: one row per domain event type a module declares (or once declared: status gone). */
export const hookTrigger = pgTable(
  'hook_trigger',
  {
    id: serial('id').primaryKey(),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    module: varchar('module', { length: 32 }).notNull(),
    /** Source-text name. */
    name: varchar('name', { length: 64 }).notNull(),
    /** JSON Schema of the payload. */
    payloadSchema: jsonb('payload_schema').notNull(),
    /** active, gone. */
    status: varchar('status', { length: 8 }).notNull().default('active'),
    firstSeenAt: tz('first_seen_at').notNull().defaultNow(),
    lastSeenAt: tz('last_seen_at').notNull().defaultNow(),
    goneAt: tz('gone_at'),
  },
  (t) => [uniqueIndex('hook_trigger_event_type_uq').on(t.eventType)],
);

/** A company's parameter: a constant (value in clear) or a secret (value sealed, never answered). */
export const hookParam = pgTable(
  'hook_param',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    /** constant, secret. */
    kind: varchar('kind', { length: 8 }).notNull(),
    /** A constant's value; null for a secret. */
    value: text('value'),
    /** A secret's value sealed by platform/secrets.ts (purpose "hook.param"); null for a constant. */
    valueEnc: text('value_enc'),
    remark: varchar('remark', { length: 200 }),
    ...made(),
  },
  (t) => [uniqueIndex('hook_param_company_name_uq').on(t.companyId, t.name)],
);

/** A hook ("relate trigger"). */
export const hook = pgTable(
  'hook',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    /** { siteIds, levels, statuses }: each empty = any. */
    filter: jsonb('filter').notNull().default(sql`'{"siteIds":[],"levels":[],"statuses":[]}'::jsonb`),
    /** Null: the Standard Webhooks envelope is sent. */
    script: text('script'),
    method: varchar('method', { length: 8 }).notNull().default('POST'),
    url: varchar('url', { length: 2048 }).notNull(),
    /** [{ name, value }]. */
    headers: jsonb('headers').notNull().default(sql`'[]'::jsonb`),
    /** The signing secret ("whsec_" + base64 of 32 bytes) sealed by platform/secrets.ts (purpose "hook.secret"). */
    secretEnc: text('secret_enc').notNull(),
    /** Its first characters ("whsec_AbCd…"), answered to tell secrets apart. */
    secretHint: varchar('secret_hint', { length: 16 }).notNull(),
    timeoutMs: integer('timeout_ms').notNull().default(10000),
    maxRetries: smallint('max_retries').notNull().default(5),
    backoffMs: integer('backoff_ms').notNull().default(10000),
    active: boolean('active').notNull().default(true),
    /** closed, open. */
    circuit: varchar('circuit', { length: 8 }).notNull().default('closed'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    circuitOpenedAt: tz('circuit_opened_at'),
    /** When an open circuit lets one probe delivery through. */
    circuitProbeAt: tz('circuit_probe_at'),
    /** The user told when the circuit opens (the creator by default). */
    ownerId: integer('owner_id'),
    remark: varchar('remark', { length: 200 }),
    lastDeliveryAt: tz('last_delivery_at'),
    lastDeliveryState: varchar('last_delivery_state', { length: 10 }),
    lastResponseStatus: integer('last_response_status'),
    ...made(),
  },
  (t) => [
    uniqueIndex('hook_company_name_uq').on(t.companyId, t.name),
    index('hook_event_active_idx').on(t.eventType).where(sql`${t.active}`),
  ],
);

/**
 * A planned delivery of one event to one hook (the dispatcher's work item): planned once per
 * (hook, event) — the unique key; tests and replays have no event id. The event's payload is
 * copied so a delivery and its replay outlive the outbox's pruning.
 */
export const hookDelivery = pgTable(
  'hook_delivery',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    hookId: integer('hook_id').notNull().references(() => hook.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull(),
    /** The outbox's domain_event id; null for a test or replay. */
    eventId: bigint('event_id', { mode: 'number' }),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    eventAt: tz('event_at').notNull(),
    payload: jsonb('payload').notNull(),
    /** event, test, replay. */
    origin: varchar('origin', { length: 8 }).notNull().default('event'),
    /** queued, running, retrying, delivered, skipped, failed. */
    state: varchar('state', { length: 10 }).notNull().default('queued'),
    attempts: smallint('attempts').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at').notNull().defaultNow(),
    /** A claim: the worker holding it, until when (expired leases are claimed again after a restart). */
    leasedBy: varchar('leased_by', { length: 64 }),
    leaseUntil: tz('lease_until'),
    lastError: text('last_error'),
    createdAt: tz('created_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
  },
  (t) => [
    uniqueIndex('hook_delivery_hook_event_uq').on(t.hookId, t.eventId),
    index('hook_delivery_due_idx').on(t.nextAttemptAt).where(sql`${t.state} in ('queued', 'retrying', 'running')`),
    index('hook_delivery_created_idx').on(t.createdAt),
  ],
);

/** One run of a hook: one attempt of a delivery (script, request, response). */
export const hookExecRecord = pgTable(
  'hook_exec_record',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    hookId: integer('hook_id').notNull().references(() => hook.id, { onDelete: 'cascade' }),
    /** The hook's name when it ran. */
    hookName: varchar('hook_name', { length: 64 }).notNull(),
    deliveryId: bigint('delivery_id', { mode: 'number' }).references(() => hookDelivery.id, { onDelete: 'set null' }),
    eventId: bigint('event_id', { mode: 'number' }),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    /** event, test, replay. */
    origin: varchar('origin', { length: 8 }).notNull().default('event'),
    attempt: smallint('attempt').notNull().default(1),
    /** running, skipped, delivered, retrying, failed. */
    state: varchar('state', { length: 10 }).notNull().default('running'),
    /** { event, params } with secrets masked. */
    input: jsonb('input'),
    /** The script's answer. */
    output: jsonb('output'),
    /** SHA-256 of the script that ran (replay tells whether the current one differs). */
    scriptHash: varchar('script_hash', { length: 64 }),
    method: varchar('method', { length: 8 }),
    url: varchar('url', { length: 2048 }),
    /** { headers, body (first 64 KB), encoding, bytes, truncated } (signature headers included). */
    request: jsonb('request'),
    responseStatus: integer('response_status'),
    response: jsonb('response'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    nextAttemptAt: tz('next_attempt_at'),
    replayOf: bigint('replay_of', { mode: 'number' }),
    startedAt: tz('started_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
  },
  (t) => [
    index('hook_exec_record_hook_started_idx').on(t.hookId, t.startedAt),
    index('hook_exec_record_company_started_idx').on(t.companyId, t.startedAt),
    index('hook_exec_record_started_idx').on(t.startedAt),
    index('hook_exec_record_delivery_idx').on(t.deliveryId),
  ],
);

/** The installation-wide settings: one row (id 1). */
export const hookSetting = pgTable('hook_setting', {
  id: smallint('id').primaryKey().default(1),
  allowPrivateTargets: boolean('allow_private_targets').notNull().default(false),
  recordMaxAgeDays: integer('record_max_age_days').notNull().default(30),
  recordMaxCount: integer('record_max_count').notNull().default(1000000),
  circuitThreshold: integer('circuit_threshold').notNull().default(5),
  circuitCooldownMinutes: integer('circuit_cooldown_minutes').notNull().default(10),
  updatedBy: integer('updated_by'),
  updatedAt: tz('updated_at'),
});
