import {
  bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, timestamp, varchar,
} from 'drizzle-orm/pg-core';
import { device } from './device.ts';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Raw telemetry: one row per report, the numeric values in a float8 array ordered by the
 * product's property slots (product_property.slot; NULL where an identifier was not reported).
 * Written only by binary COPY in batches. BRIN on ts for time-range scans and retention; a
 * btree on (device, ts) for one device's history (measured: ~15 % slower COPY, still far above
 * the ingest goal; see bench/ingest).
 */
export const telemetry = pgTable(
  'telemetry',
  {
    deviceId: integer('device_id').notNull(),
    ts: tz('ts').notNull(),
    /** The publisher's per-device sequence number: gaps reveal lost reports. */
    seq: integer('seq'),
    v: doublePrecision('v').array().notNull(),
  },
  (t) => [index('telemetry_ts_brin').using('brin', t.ts), index('telemetry_device_ts_idx').on(t.deviceId, t.ts)],
);

/**
 * Latest values per device, kept in memory by the ingest and written here in batches (binary
 * COPY into a staging table, then one upsert per flush; never a write per message). Also where
 * last-seen lives, from which the online/offline status is derived.
 */
export const deviceLatest = pgTable('device_latest', {
  deviceId: integer('device_id').primaryKey().references(() => device.id, { onDelete: 'cascade' }),
  /** Measurement time of the newest report. */
  ts: tz('ts'),
  seq: integer('seq'),
  /** Numeric and boolean values by the product's property slots, as in telemetry.v. */
  v: doublePrecision('v').array(),
  /** Text values (identifier → text), null when the product has none. */
  text: jsonb('text').$type<Record<string, string>>(),
  /** Receive time of the newest telemetry or online status. */
  lastSeenAt: tz('last_seen_at'),
  /** Receive time of an offline status (the device's own, or its station gateway's last will). */
  offlineAt: tz('offline_at'),
  /** Observed report interval (ms), for the offline timeout. */
  intervalMs: integer('interval_ms'),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

/**
 * Rollups per device and bucket, one array element per property slot: report count, sum
 * (avg = sum / cnt), min, max, and the first and last reported values with their times. For
 * cumulative registers the delta of a bucket is its last minus the previous bucket's last.
 * Each ingest process (`writer`, random per start) writes its own partial aggregate of a bucket
 * and replaces it as the bucket fills, so writes never merge arrays; readers combine the (usually
 * one) partial rows of a bucket. Several instances sharing the stream each add their part.
 */
function rollupTable(name: string) {
  return pgTable(
    name,
    {
      deviceId: integer('device_id').notNull(),
      bucket: tz('bucket').notNull(),
      writer: integer('writer').notNull().default(0),
      cnt: integer('cnt').array().notNull(),
      sum: doublePrecision('sum').array().notNull(),
      min: doublePrecision('min').array().notNull(),
      max: doublePrecision('max').array().notNull(),
      firstTs: tz('first_ts').notNull(),
      first: doublePrecision('first').array().notNull(),
      lastTs: tz('last_ts').notNull(),
      last: doublePrecision('last').array().notNull(),
    },
    (t) => [primaryKey({ columns: [t.deviceId, t.bucket, t.writer] })],
  );
}

/** 5-minute buckets (UTC-aligned, which is local-aligned in every zone). */
export const telemetry5m = rollupTable('telemetry_5m');
/** Station-local hours. */
export const telemetry1h = rollupTable('telemetry_1h');
/** Station-local days. */
export const telemetry1d = rollupTable('telemetry_1d');

/** Fault events as devices publish them: one row per transition (active true, then false). */
export const deviceEvent = pgTable(
  'device_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 64 }).notNull(),
    active: boolean('active').notNull(),
    message: varchar('message', { length: 500 }).notNull().default(''),
    ts: tz('ts').notNull(),
    receivedAt: tz('received_at').notNull().defaultNow(),
  },
  (t) => [index('device_event_device_ts_idx').on(t.deviceId, t.ts), index('device_event_ts_idx').on(t.ts)],
);
