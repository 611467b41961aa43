import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import type { FirmwareGrouping, FirmwareTarget, MaintenanceWindow } from '@ess/contract/firmware';
import { device } from './device.ts';
import { site } from './site.ts';
import { company } from './system.ts';

/**
 * Firmware (packages/contract/src/firmware.ts; issue 22; decision 0047): the installation's
 * settings, the companies' public keys, chunked upload sessions, packages (the file beside the
 * files module's under <dataDir>/firmware), rollouts with their groups, one task per device and
 * rollout with its step history, and log captures with their per-device rows.
 */

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const companyId = () => integer('company_id').notNull().references(() => company.id, { onDelete: 'cascade' });
/** Who made a row and when it changed; users are not referenced by key (deleting a user must not fail on rows naming them). */
const made = () => ({ createdBy: integer('created_by'), createdAt: tz('created_at').notNull().defaultNow(), updatedAt: tz('updated_at').notNull().defaultNow() });
const bytes = (name: string) => bigint(name, { mode: 'number' });

/** One row (id 1, written by the migration): the installation's firmware settings. */
export const firmwareSetting = pgTable('firmware_setting', {
  id: smallint('id').primaryKey().default(1),
  maxPackageMb: integer('max_package_mb').notNull().default(256),
  allowUnsigned: boolean('allow_unsigned').notNull().default(true),
  tokenTtlMinutes: integer('token_ttl_minutes').notNull().default(30),
  successThreshold: smallint('success_threshold').notNull().default(50),
  errorThreshold: smallint('error_threshold').notNull().default(50),
  requireApproval: boolean('require_approval').notNull().default(false),
  commandTimeoutSeconds: integer('command_timeout_seconds').notNull().default(30),
  downloadTimeoutMinutes: integer('download_timeout_minutes').notNull().default(30),
  flashTimeoutMinutes: integer('flash_timeout_minutes').notNull().default(20),
  socMin: smallint('soc_min').notNull().default(20),
  socMax: smallint('soc_max').notNull().default(90),
  logTimeoutMinutes: integer('log_timeout_minutes').notNull().default(10),
  updatedBy: integer('updated_by'),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

/** A company's public key (Ed25519 or ECDSA P-256, PEM/SPKI) that verifies package signatures. */
export const firmwareKey = pgTable(
  'firmware_key',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    /** ed25519, ecdsaP256. */
    algorithm: varchar('algorithm', { length: 16 }).notNull(),
    publicKeyPem: text('public_key_pem').notNull(),
    /** SHA-256 of the DER (SPKI), hex. */
    fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    remark: varchar('remark', { length: 200 }),
    ...made(),
  },
  (t) => [uniqueIndex('firmware_key_company_fingerprint_uq').on(t.companyId, t.fingerprint)],
);

/** The description a package is uploaded with (checked at start, applied at finish). */
export interface FirmwareUploadMeta {
  deviceType: string;
  productId: number | null;
  name: string;
  version: string;
  upgradeFrom: string | null;
  releaseNotes: string | null;
  fileName: string;
  sha256: string | null;
  signature: string | null;
}

/** A chunked upload in progress (its bytes in <dataDir>/firmware/.upload-<id>). */
export const firmwareUpload = pgTable(
  'firmware_upload',
  {
    /** The random upload id the client names. */
    id: varchar('id', { length: 64 }).primaryKey(),
    companyId: companyId(),
    userId: integer('user_id').notNull(),
    meta: jsonb('meta').$type<FirmwareUploadMeta>().notNull(),
    size: bytes('size').notNull(),
    received: bytes('received').notNull().default(0),
    /** uploading, finished, aborted. */
    state: varchar('state', { length: 12 }).notNull().default('uploading'),
    packageId: integer('package_id'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    expiresAt: tz('expires_at').notNull(),
  },
  (t) => [index('firmware_upload_expires_idx').on(t.state, t.expiresAt)],
);

/** An upgrade package. */
export const firmwarePackage = pgTable(
  'firmware_package',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    /** A DeviceType of the contract. */
    deviceType: varchar('device_type', { length: 32 }).notNull(),
    /** A product of that type; null: every product of the type. */
    productId: integer('product_id'),
    name: varchar('name', { length: 64 }).notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    /** A semver range of the versions it may upgrade from; null: any. */
    upgradeFrom: varchar('upgrade_from', { length: 200 }),
    releaseNotes: text('release_notes'),
    fileName: varchar('file_name', { length: 200 }).notNull(),
    /** The file's name under <dataDir>/firmware. */
    storageKey: varchar('storage_key', { length: 80 }).notNull().unique(),
    size: bytes('size').notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    signature: text('signature'),
    /** ed25519, ecdsaP256; null: unsigned. */
    signatureAlgorithm: varchar('signature_algorithm', { length: 16 }),
    /** The key that verified it (kept when the key is deleted: null then). */
    keyId: integer('key_id').references(() => firmwareKey.id, { onDelete: 'set null' }),
    /** released, withdrawn. */
    state: varchar('state', { length: 12 }).notNull().default('released'),
    ...made(),
  },
  (t) => [
    uniqueIndex('firmware_package_version_uq').on(t.companyId, t.deviceType, sql`coalesce(${t.productId}, 0)`, t.name, t.version),
    index('firmware_package_type_idx').on(t.deviceType, t.name),
  ],
);

/** A rollout of one package to a target set of devices, in groups. */
export const firmwareRollout = pgTable(
  'firmware_rollout',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    packageId: integer('package_id').notNull().references(() => firmwarePackage.id, { onDelete: 'restrict' }),
    /** pendingApproval, ready, running, paused, finished, stopped, rejected. */
    state: varchar('state', { length: 16 }).notNull(),
    target: jsonb('target').$type<Required<FirmwareTarget>>().notNull(),
    grouping: jsonb('grouping').$type<Required<FirmwareGrouping>>().notNull(),
    successThreshold: smallint('success_threshold').notNull(),
    errorThreshold: smallint('error_threshold').notNull(),
    requireApproval: boolean('require_approval').notNull().default(false),
    approvedBy: integer('approved_by'),
    approvedAt: tz('approved_at'),
    approvalNote: varchar('approval_note', { length: 200 }),
    startAt: tz('start_at'),
    windows: jsonb('windows').$type<MaintenanceWindow[]>().notNull().default([]),
    safeGate: boolean('safe_gate').notNull().default(true),
    startedAt: tz('started_at'),
    finishedAt: tz('finished_at'),
    pauseReason: varchar('pause_reason', { length: 200 }),
    remark: varchar('remark', { length: 200 }),
    /** Bumped by every change of state (the engine's optimistic lock across instances). */
    revision: integer('revision').notNull().default(0),
    ...made(),
  },
  (t) => [index('firmware_rollout_state_idx').on(t.state), index('firmware_rollout_package_idx').on(t.packageId)],
);

/** A group of a rollout: 1 is the canary. */
export const firmwareRolloutGroup = pgTable(
  'firmware_rollout_group',
  {
    id: serial('id').primaryKey(),
    rolloutId: integer('rollout_id').notNull().references(() => firmwareRollout.id, { onDelete: 'cascade' }),
    no: smallint('no').notNull(),
    canary: boolean('canary').notNull().default(false),
    /** waiting, running, succeeded, finished, errorThreshold, cancelled. */
    state: varchar('state', { length: 16 }).notNull().default('waiting'),
    successThreshold: smallint('success_threshold').notNull(),
    errorThreshold: smallint('error_threshold').notNull(),
    startedAt: tz('started_at'),
    finishedAt: tz('finished_at'),
  },
  (t) => [uniqueIndex('firmware_rollout_group_no_uq').on(t.rolloutId, t.no)],
);

/** One device's upgrade within a rollout. */
export const firmwareTask = pgTable(
  'firmware_task',
  {
    id: serial('id').primaryKey(),
    rolloutId: integer('rollout_id').notNull().references(() => firmwareRollout.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').notNull().references(() => firmwareRolloutGroup.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    fromVersion: varchar('from_version', { length: 32 }),
    toVersion: varchar('to_version', { length: 32 }).notNull(),
    reportedVersion: varchar('reported_version', { length: 32 }),
    /** A FirmwareTaskState. */
    state: varchar('state', { length: 16 }).notNull().default('pendingStart'),
    progress: smallint('progress'),
    /** A FirmwareWaitReason while the gate or window holds it. */
    waitReason: varchar('wait_reason', { length: 20 }),
    reason: varchar('reason', { length: 500 }),
    attempts: smallint('attempts').notNull().default(0),
    /** The command sent last (its id, for matching the reply), and when the current step times out. */
    commandId: varchar('command_id', { length: 64 }),
    deadlineAt: tz('deadline_at'),
    issuedAt: tz('issued_at'),
    flashedAt: tz('flashed_at'),
    finishedAt: tz('finished_at'),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('firmware_task_rollout_device_uq').on(t.rolloutId, t.deviceId),
    index('firmware_task_group_state_idx').on(t.groupId, t.state),
    index('firmware_task_device_idx').on(t.deviceId),
    index('firmware_task_deadline_idx').on(t.deadlineAt),
  ],
);

/** A task's history: each state reached (or wait), with its time and reason. */
export const firmwareTaskStep = pgTable(
  'firmware_task_step',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    taskId: integer('task_id').notNull().references(() => firmwareTask.id, { onDelete: 'cascade' }),
    at: tz('at').notNull().defaultNow(),
    state: varchar('state', { length: 16 }).notNull(),
    progress: smallint('progress'),
    waitReason: varchar('wait_reason', { length: 20 }),
    reason: varchar('reason', { length: 500 }),
  },
  (t) => [index('firmware_task_step_task_idx').on(t.taskId, t.id)],
);

/** A log capture: selected devices asked to upload their logs of a time range. */
export const firmwareLogCapture = pgTable(
  'firmware_log_capture',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: varchar('name', { length: 64 }).notNull(),
    fromAt: tz('from_at').notNull(),
    toAt: tz('to_at').notNull(),
    timeoutMinutes: integer('timeout_minutes').notNull(),
    /** running, finished. */
    state: varchar('state', { length: 12 }).notNull().default('running'),
    remark: varchar('remark', { length: 200 }),
    finishedAt: tz('finished_at'),
    ...made(),
  },
  (t) => [index('firmware_log_capture_state_idx').on(t.state)],
);

/** One device of a log capture, with its uploaded file (under <dataDir>/firmware-logs). */
export const firmwareLogDevice = pgTable(
  'firmware_log_device',
  {
    id: serial('id').primaryKey(),
    captureId: integer('capture_id').notNull().references(() => firmwareLogCapture.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => site.id, { onDelete: 'cascade' }),
    /** pending, uploading, uploaded, timeout, failed. */
    state: varchar('state', { length: 12 }).notNull().default('pending'),
    bytes: bytes('bytes'),
    reason: varchar('reason', { length: 500 }),
    storageKey: varchar('storage_key', { length: 80 }),
    contentType: varchar('content_type', { length: 64 }),
    commandId: varchar('command_id', { length: 64 }),
    issuedAt: tz('issued_at'),
    deadlineAt: tz('deadline_at'),
    finishedAt: tz('finished_at'),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('firmware_log_device_uq').on(t.captureId, t.deviceId), index('firmware_log_device_deadline_idx').on(t.state, t.deadlineAt)],
);
