import { resolve } from 'node:path';
import { z } from 'zod';
import { runtimePath } from './dist.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8620),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  REDIS_URL: z.string().optional(),
  MQTT_URL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  CAPTCHA_ENABLED: bool.default(true),
  SESSION_IDLE_MINUTES: z.coerce.number().positive().default(120),
  SESSION_MAX_HOURS: z.coerce.number().positive().default(12),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  LOGIN_LOCK_MINUTES: z.coerce.number().positive().default(15),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  UPLOAD_MAX_MB: z.coerce.number().positive().default(20),
  /** What one user may upload in any 24 hours: megabytes and files. */
  UPLOAD_USER_DAILY_MB: z.coerce.number().positive().default(200),
  UPLOAD_USER_DAILY_FILES: z.coerce.number().int().positive().default(200),
  /** All stored uploads together, gigabytes. */
  UPLOAD_TOTAL_GB: z.coerce.number().positive().default(10),
  /** An upload no record references is removed (hourly) once it is this old. */
  UPLOAD_ORPHAN_GRACE_HOURS: z.coerce.number().positive().default(24),
  SSE_HEARTBEAT_MS: z.coerce.number().int().positive().default(30_000),
  /** Live-event streams one session (one browser's tabs) may hold on an instance; a new one closes the oldest. */
  SSE_MAX_STREAMS_PER_SESSION: z.coerce.number().int().positive().default(10),
  /** Live-event streams one user may hold on an instance (all sessions); a new one closes the oldest. */
  SSE_MAX_STREAMS_PER_USER: z.coerce.number().int().positive().default(20),
  /** Live-event streams of one instance in all; 0 = the open-file limit less SSE_FD_RESERVE. */
  SSE_MAX_STREAMS: z.coerce.number().int().min(0).default(0),
  /** File descriptors kept for API calls, the database and files when streams are counted against the open-file limit. */
  SSE_FD_RESERVE: z.coerce.number().int().min(0).default(1024),
  ACCESS_LOG_FLUSH_MS: z.coerce.number().int().positive().default(1000),
  /** false (default), true, or comma-separated addresses/CIDRs of trusted proxies (Fastify trustProxy). */
  TRUST_PROXY: z.string().default('false'),
  ROLES: z.string().default('api,ingest,jobs'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: bool.default(true),
  /** Tests: every answer is checked against its contract response schema; a drift answers 500. */
  VALIDATE_RESPONSES: bool.default(false),
  WEB_DIST: z.string().optional(),
  /** Embedded broker port when MQTT_URL is unset (0 = any free port). */
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(18830),
  /** The ingest's fixed MQTT client id (persistent session); unique per instance. */
  MQTT_CLIENT_ID: z.string().optional(),
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  /** Shared-subscription group of the ingest instances (used with MQTT_URL). */
  MQTT_SHARE_GROUP: z.string().regex(/^[A-Za-z0-9_-]+$/).default('ess-ingest'),
  /** Messages the broker may send the ingest before their acknowledgements (sent once stored) come back (MQTT 5 Receive Maximum). */
  MQTT_RECEIVE_MAXIMUM: z.coerce.number().int().min(100).max(65535).default(20_000),
  INGEST_BATCH_POINTS: z.coerce.number().int().positive().default(5000),
  INGEST_BATCH_MS: z.coerce.number().int().positive().default(25),
  LATEST_FLUSH_MS: z.coerce.number().int().positive().default(1000),
  ROLLUP_FLUSH_MS: z.coerce.number().int().positive().default(10_000),
  /** A filling rollup bucket is written at most this often; complete buckets at the next flush. */
  ROLLUP_SNAPSHOT_MS: z.coerce.number().int().positive().default(300_000),
  /** A device is offline when nothing came for max(this, 3 observed report intervals). */
  DEVICE_OFFLINE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  PRESENCE_SWEEP_MS: z.coerce.number().int().positive().default(5_000),
  TELEMETRY_RAW_RETENTION_DAYS: z.coerce.number().positive().default(3),
  TELEMETRY_5M_RETENTION_DAYS: z.coerce.number().positive().default(93),
  /** on: start the station simulator with the server (npm start); auto: only with the embedded broker and the demo seed. */
  SIMULATOR: z.enum(['on', 'off', 'auto']).default('auto'),
  /** npm start, first start of the demo: days of past readings played by the simulator into the rollups (0 = none). */
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(93).optional(),
  /** How long a control call waits for the device's reply before answering with a timeout. */
  COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** How long a shutdown waits for the HTTP requests in progress before it cuts their connections. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** A newly opened alarm of this level or more severe (1 most severe) pops up in the console. */
  ALARM_POPUP_LEVEL: z.coerce.number().int().min(0).max(5).default(2),
  /** How often each ingest instance reads back open alarms, shields and orphaned alarms. */
  ALARM_SYNC_MS: z.coerce.number().int().positive().default(5000),
  /** argon2id cost of stored passwords (the library's defaults: 64 MiB, 3 passes); tests lower it. */
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(1024).default(65_536),
  PASSWORD_HASH_TIME_COST: z.coerce.number().int().min(1).default(3),
  /** Key of secrets at rest (mail passwords, SMS secrets; platform/secrets.ts): 32 bytes hex/base64 or a passphrase; unset: the documented demo key (warned in production). */
  SECRET_KEY: z.string().min(16).optional(),
  /** Mail and SMS log rows older than this are deleted (daily job). */
  MESSAGE_LOG_RETENTION_DAYS: z.coerce.number().positive().default(180),
  /** How long one SMTP conversation (connect, TLS, AUTH, send) may take. */
  MAIL_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** At most this many messages a minute through one mail account or SMS channel, counted across all instances. */
  MESSAGE_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** The demo's mail account points at a local SMTP catcher on this port (`npm run mail-catcher`). */
  MAIL_CATCHER_PORT: z.coerce.number().int().min(1).max(65535).default(2525),
  /**
   * Where devices reach this server (firmware download and log upload URLs in their commands), e.g.
   * https://ess.example.com behind a proxy; unset: the address the server listens on (0.0.0.0 as 127.0.0.1).
   */
  FIRMWARE_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'FIRMWARE_PUBLIC_URL must be an http(s) URL' }).optional(),
  NODE_ENV: z.string().optional(),
});

export type Config = ReturnType<typeof loadConfig>;

/** Reads the environment once; every setting is documented in the README. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<RawConfig> = {}) {
  const raw = envSchema.parse({ ...pickDefined(env), ...overrides });
  const dataDir = resolve(raw.DATA_DIR);
  return {
    port: raw.PORT,
    host: raw.HOST,
    dataDir,
    databaseUrl: raw.DATABASE_URL,
    dbPoolMax: raw.DB_POOL_MAX,
    dbStatementTimeoutMs: raw.DB_STATEMENT_TIMEOUT_MS,
    redisUrl: raw.REDIS_URL,
    mqttUrl: raw.MQTT_URL,
    adminPassword: raw.ADMIN_PASSWORD,
    captchaEnabled: raw.CAPTCHA_ENABLED,
    sessionIdleMs: raw.SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: raw.SESSION_MAX_HOURS * 3_600_000,
    loginMaxFailures: raw.LOGIN_MAX_FAILURES,
    loginFailureWindowMs: raw.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
    loginLockMs: raw.LOGIN_LOCK_MINUTES * 60_000,
    loginRateLimitPerMinute: raw.LOGIN_RATE_LIMIT_PER_MINUTE,
    uploadMaxBytes: Math.round(raw.UPLOAD_MAX_MB * 1024 * 1024),
    uploadUserDailyBytes: Math.round(raw.UPLOAD_USER_DAILY_MB * 1024 * 1024),
    uploadUserDailyFiles: raw.UPLOAD_USER_DAILY_FILES,
    uploadTotalBytes: Math.round(raw.UPLOAD_TOTAL_GB * 1024 * 1024 * 1024),
    uploadOrphanGraceMs: Math.round(raw.UPLOAD_ORPHAN_GRACE_HOURS * 3_600_000),
    sseHeartbeatMs: raw.SSE_HEARTBEAT_MS,
    sseMaxStreamsPerSession: raw.SSE_MAX_STREAMS_PER_SESSION,
    sseMaxStreamsPerUser: raw.SSE_MAX_STREAMS_PER_USER,
    sseMaxStreams: raw.SSE_MAX_STREAMS,
    sseFdReserve: raw.SSE_FD_RESERVE,
    accessLogFlushMs: raw.ACCESS_LOG_FLUSH_MS,
    trustProxy: parseTrustProxy(raw.TRUST_PROXY),
    roles: new Set(raw.ROLES.split(',').map((r) => r.trim())),
    logLevel: raw.LOG_LEVEL,
    seedDemo: raw.SEED_DEMO,
    validateResponses: raw.VALIDATE_RESPONSES,
    mqttPort: raw.MQTT_PORT,
    mqttClientId: raw.MQTT_CLIENT_ID,
    mqttUsername: raw.MQTT_USERNAME,
    mqttPassword: raw.MQTT_PASSWORD,
    mqttShareGroup: raw.MQTT_SHARE_GROUP,
    mqttReceiveMaximum: raw.MQTT_RECEIVE_MAXIMUM,
    ingestBatchPoints: raw.INGEST_BATCH_POINTS,
    ingestBatchMs: raw.INGEST_BATCH_MS,
    latestFlushMs: raw.LATEST_FLUSH_MS,
    rollupFlushMs: raw.ROLLUP_FLUSH_MS,
    rollupSnapshotMs: raw.ROLLUP_SNAPSHOT_MS,
    deviceOfflineTimeoutMs: raw.DEVICE_OFFLINE_TIMEOUT_MS,
    presenceSweepMs: raw.PRESENCE_SWEEP_MS,
    rawRetentionDays: raw.TELEMETRY_RAW_RETENTION_DAYS,
    fiveMinuteRetentionDays: raw.TELEMETRY_5M_RETENTION_DAYS,
    simulator: raw.SIMULATOR,
    demoHistoryDays: raw.DEMO_HISTORY_DAYS,
    commandTimeoutMs: raw.COMMAND_TIMEOUT_MS,
    shutdownGraceMs: raw.SHUTDOWN_GRACE_MS,
    alarmPopupLevel: raw.ALARM_POPUP_LEVEL,
    alarmSyncMs: raw.ALARM_SYNC_MS,
    secretKey: raw.SECRET_KEY,
    messageLogRetentionDays: raw.MESSAGE_LOG_RETENTION_DAYS,
    mailTimeoutMs: raw.MAIL_TIMEOUT_MS,
    messageRatePerMinute: raw.MESSAGE_RATE_PER_MINUTE,
    mailCatcherPort: raw.MAIL_CATCHER_PORT,
    firmwarePublicUrl: raw.FIRMWARE_PUBLIC_URL?.replace(/\/+$/, ''),
    /** Production mode: NODE_ENV=production or an external database (not the embedded demo). */
    production: raw.NODE_ENV === 'production' || raw.DATABASE_URL !== undefined,
    passwordHash: { memoryCost: raw.PASSWORD_HASH_MEMORY_KIB, timeCost: raw.PASSWORD_HASH_TIME_COST },
    webDist: raw.WEB_DIST ?? runtimePath('../../web/dist', resolve(import.meta.dirname, '../../../web/dist')),
  };
}

export type RawConfig = z.input<typeof envSchema>;

function pickDefined(env: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
}

function parseTrustProxy(v: string): boolean | string {
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  return v;
}
