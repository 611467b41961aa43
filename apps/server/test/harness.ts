import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { startApp, type RunningApp } from '../src/app.ts';
import { captcha } from '../src/db/schema/system.ts';
import { loadConfig, type RawConfig } from '../src/platform/config.ts';
import type { Db } from '../src/platform/db/database.ts';
import { createLogger, type Logger } from '../src/platform/logging.ts';
import type { ServerModule } from '../src/platform/module.ts';
import { migratedPgliteImage, migratedPostgresTemplate } from './db-images.ts';

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export type DbTarget = 'pglite' | 'postgres';
/** The databases here: PGlite always; PostgreSQL wherever 127.0.0.1:5432 answers (CI has it). */
export const DB_TARGETS: DbTarget[] = (await reachable(PG_ADMIN_URL)) ? ['pglite', 'postgres'] : ['pglite'];

/**
 * The databases one test file runs its tests on (`describe.each(dbTargets(import.meta.url))`).
 * Without PostgreSQL: PGlite. With it, one of the two per file, the same file always the same one
 * (by its name), so a run exercises both, each with about half of the files, instead of running
 * every file twice (decision 0019). `TEST_DB_TARGETS=both` runs every file on both (before a
 * change to SQL or the database layer); `pglite` or `postgres` runs every file on that one.
 */
export function dbTargets(fileUrl: string): DbTarget[] {
  const wanted = process.env.TEST_DB_TARGETS;
  if (wanted === 'both') return DB_TARGETS;
  if (wanted === 'pglite' || wanted === 'postgres') return DB_TARGETS.includes(wanted) ? [wanted] : [];
  if (DB_TARGETS.length === 1) return DB_TARGETS;
  const name = fileUrl.slice(fileUrl.lastIndexOf('/') + 1);
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return [DB_TARGETS[hash % DB_TARGETS.length]!];
}

/** A fresh PostgreSQL database (migrated, no rows) for one test file; dropped by the returned function. */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ess_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${await migratedPostgresTemplate(PG_ADMIN_URL)}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // A drop waits for a checkpoint of the whole server, which a busy suite can hold up for
    // minutes (CI saw teardown hooks time out at 120 s): waited for up to DROP_WAIT_MS, then left
    // to finish on its own.
    drop: () =>
      within(DROP_WAIT_MS, `dropping the test database ${name}`, async () => {
        const c = new pg.Client({ connectionString: PG_ADMIN_URL });
        await c.connect();
        try {
          await c.query(`drop database if exists ${name} with (force)`);
        } finally {
          await c.end();
        }
      }),
  };
}

const DROP_WAIT_MS = 20_000;

/**
 * Runs `step`, waiting for it at most `ms`: one that takes longer is said on stderr (by `what`)
 * and left to finish by itself, so a teardown hook ends within Vitest's limit. Failures are said too.
 */
async function within(ms: number, what: string, step: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)));
  const done = step().then(
    () => 'done' as const,
    (err: unknown) => {
      process.stderr.write(`teardown: ${what} failed: ${String(err)}\n`);
      return 'failed' as const;
    },
  );
  const outcome = await Promise.race([done, late]);
  clearTimeout(timer);
  if (outcome === 'late') process.stderr.write(`teardown: ${what} still running after ${ms} ms; left to finish by itself\n`);
}

/**
 * What a test file started (a server, a proxy, protocol peers, a database), undone after it in
 * the reverse order: each step waited for at most `stepMs`, a failure or a step that takes longer
 * said on stderr by name (and the next steps run), so the hook ends within Vitest's limit.
 */
export class Teardown {
  private readonly steps: { what: string; run: () => Promise<unknown> }[] = [];

  add(what: string, run: () => Promise<unknown>): void {
    this.steps.push({ what, run });
  }

  async run(stepMs = 45_000): Promise<void> {
    for (const s of this.steps.splice(0).reverse()) await within(stepMs, s.what, s.run);
  }
}

export const ADMIN_PASSWORD = 'Admin12345';

export interface TestApp extends RunningApp {
  api: Api;
  adminToken: string;
  stop: () => Promise<void>;
}

/** Starts the real server on a free port, on PGlite in memory or a fresh PostgreSQL database. */
export async function startTestApp(
  target: DbTarget,
  env: Partial<RawConfig> = {},
  /**
   * PostgreSQL: a database other instances share. PGlite `persistent`: the database kept on disk in
   * the env's DATA_DIR (not in memory), so that a server started again on that directory finds it.
   */
  shared?: { databaseUrl?: string; persistent?: boolean },
  /** The module list to run instead of the application's (a test module added to it). */
  modules?: readonly ServerModule[],
  /** The server's logger (a test that reads the log lines); default silent. */
  logger?: Logger,
): Promise<TestApp> {
  let drop: (() => Promise<void>) | null = null;
  let databaseUrl = shared?.databaseUrl;
  if (target === 'postgres' && !databaseUrl) {
    const fresh = await freshPostgres();
    databaseUrl = fresh.url;
    drop = fresh.drop;
  }
  const config = loadConfig(
    {},
    {
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'ess-test-')), ADMIN_PASSWORD, CAPTCHA_ENABLED: 'false',
      LOG_LEVEL: 'silent', VALIDATE_RESPONSES: 'true', LOGIN_RATE_LIMIT_PER_MINUTE: '100000', ACCESS_LOG_FLUSH_MS: '100', SEED_DEMO: 'false', WEB_DIST: '/nonexistent',
      // The embedded MQTT broker on a free port, so test servers run side by side.
      MQTT_PORT: '0',
      // Passwords hashed cheaply: tests sign in hundreds of times (production keeps 64 MiB, 3 passes).
      PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1',
      // Tests stand behind a pretend proxy to sign in from distinct addresses.
      TRUST_PROXY: 'true',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
  );
  const onDisk = target === 'pglite' && shared?.persistent === true;
  const running = await startApp(config, {
    memoryDb: target === 'pglite' && !onDisk,
    logger: logger ?? createLogger('silent'),
    ...(target === 'pglite' && !(onDisk && existsSync(join(config.dataDir, 'pglite'))) ? { pgliteImage: await migratedPgliteImage() } : {}),
    ...(modules ? { modules } : {}),
  });
  const api = new Api(running.url);
  const adminToken = config.captchaEnabled
    ? await api.login('admin', ADMIN_PASSWORD, await solveCaptcha(api, running.ctx.db))
    : await api.login('admin', ADMIN_PASSWORD);
  return {
    app: running.app,
    ctx: running.ctx,
    url: running.url,
    adminPassword: running.adminPassword,
    close: running.close,
    api,
    adminToken,
    closeStep: running.closeStep,
    stop: async () => {
      // A stop that takes long says where it waits (on stderr; Teardown bounds the wait).
      const slow = setInterval(() => process.stderr.write(`teardown: the server's stop still in its ${running.closeStep()} step\n`), 20_000);
      try {
        await running.close();
      } finally {
        clearInterval(slow);
      }
      if (drop) await drop();
    },
  };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { errorCode: string; tipMsg: string; errorMsg: string; data: T };
  raw: Buffer;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  rawBody?: string | Buffer | FormData;
}

/** A thin client over real HTTP for tests. */
export class Api {
  constructor(readonly base: string) {}

  async call<T = unknown>(method: string, path: string, o: CallOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(`/api/manager${path}`, this.base);
    for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = o.token;
    let body: string | Buffer | FormData | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    const res = await fetch(url, { method, headers, body });
    const raw = Buffer.from(await res.arrayBuffer());
    let parsed: ApiResponse<T>['body'];
    try {
      parsed = JSON.parse(raw.toString('utf8')) as ApiResponse<T>['body'];
    } catch {
      parsed = { errorCode: '', tipMsg: '', errorMsg: '', data: null as T };
    }
    return { status: res.status, headers: res.headers, body: parsed, raw };
  }

  post<T = unknown>(path: string, token: string | null, body: unknown = {}) {
    return this.call<T>('POST', path, { token, body });
  }

  get<T = unknown>(path: string, token: string | null, query?: Record<string, string | number | boolean>) {
    return this.call<T>('GET', path, { token, query });
  }

  /** Signs in (with a solved captcha when it is on) and returns the token; throws with the tipMsg on refusal. */
  async login(username: string, password: string, captcha?: SolvedCaptcha): Promise<string> {
    const headers: Record<string, string> = captcha ? { cookie: captcha.cookie, 'x-image-code': captcha.code } : {};
    const r = await this.call<{ token: string }>('POST', '/basic/user/login', { body: { username, password }, headers });
    if (r.body.errorCode !== '00000') throw new Error(`login ${username} failed: ${r.status} ${r.body.tipMsg}`);
    return r.body.data.token;
  }
}

export interface SolvedCaptcha {
  /** Cookie header value carrying the captcha id. */
  cookie: string;
  code: string;
}

/** Fetches a captcha as a browser would and reads its code from the database (tests only). */
export async function solveCaptcha(api: Api, db: Db): Promise<SolvedCaptcha> {
  const res = await fetch(new URL('/api/manager/basic/captcha', api.base));
  await res.arrayBuffer();
  const id = /ess_captcha=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!id) throw new Error('no captcha cookie');
  const [row] = await db.select().from(captcha).where(eq(captcha.id, id));
  if (!row) throw new Error('captcha not stored');
  return { cookie: `ess_captcha=${id}`, code: row.code };
}
