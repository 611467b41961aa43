import { resolve } from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8620),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().optional(),
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
  SSE_HEARTBEAT_MS: z.coerce.number().int().positive().default(30_000),
  ACCESS_LOG_FLUSH_MS: z.coerce.number().int().positive().default(1000),
  /** false (default), true, or comma-separated addresses/CIDRs of trusted proxies (Fastify trustProxy). */
  TRUST_PROXY: z.string().default('false'),
  ROLES: z.string().default('api,ingest,jobs'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: bool.default(true),
  WEB_DIST: z.string().optional(),
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
    sseHeartbeatMs: raw.SSE_HEARTBEAT_MS,
    accessLogFlushMs: raw.ACCESS_LOG_FLUSH_MS,
    trustProxy: parseTrustProxy(raw.TRUST_PROXY),
    roles: new Set(raw.ROLES.split(',').map((r) => r.trim())),
    logLevel: raw.LOG_LEVEL,
    seedDemo: raw.SEED_DEMO,
    webDist: raw.WEB_DIST ?? resolve(import.meta.dirname, '../../../web/dist'),
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
