import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { constants as zlib } from 'node:zlib';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import qs from 'qs';
import { z, type ZodError } from 'zod';
import { API_BASE, ERRORS, SUCCESS_CODE, type Envelope } from '@ess/contract';
import type { AppContext } from '../context.ts';
import { checkSession, hashToken, tokenFrom, type AuthUser } from './auth.ts';
import { isConnectionError } from '../db/outage.ts';
import { pgErrorCode, QUERY_CANCELED } from '../db/errors.ts';
import { AppError } from './errors.ts';
import { buildOpenApi } from './openapi.ts';
import type { AnyRoute } from './route.ts';
import type { ResponsePass } from '../module.ts';

z.config(z.locales.zhCN());

declare module 'fastify' {
  interface FastifyRequest {
    authUser?: AuthUser | null;
    errorCode?: string;
    /** Set by handlers that wrote their access-log entry themselves (event streams, at open). */
    accessLogged?: boolean;
  }
  interface FastifyContextConfig {
    /** Called before a request over the route's rate limit is refused (the route's `rateLimit.refused`). */
    rateLimitRefused?: (req: FastifyRequest) => Promise<void>;
  }
}

export const ok = <T>(data: T): Envelope<T> => ({ errorCode: SUCCESS_CODE, tipMsg: '', errorMsg: '', data });

function envelope(reply: FastifyReply, status: number, code: string, tip: string, errorMsg = '') {
  reply.request.errorCode = code;
  return reply.status(status).send({ errorCode: code, tipMsg: tip, errorMsg, data: null } satisfies Envelope<null>);
}

/** A tipMsg naming the field: "{field}不能为空" for missing values (product-spec §5). */
export function validationTip(err: ZodError, where: 'body' | 'query'): string {
  const issue = err.issues[0];
  if (!issue) return ERRORS.INVALID_PARAM.tip;
  const field = issue.path.length ? issue.path.join('.') : where === 'body' ? '请求体' : '查询参数';
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) return `${field}不能为空`;
  return `${field}: ${issue.message}`;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * Requests Node refuses before Fastify sees them (request line and headers over Node's 16 KB,
 * a malformed request) are answered with the envelope too; the connection is then closed.
 */
function clientError(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, def] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, ERRORS.HEADERS_TOO_LARGE]
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, ERRORS.UNAVAILABLE]
    : [400, ERRORS.INVALID_PARAM];
  const body = JSON.stringify({ errorCode: def.code, tipMsg: def.tip, errorMsg: '', data: null } satisfies Envelope<null>);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * API answers over 1 KB travel compressed when the client accepts it (br, else gzip). Brotli at
 * quality 4: near gzip's speed with smaller output (its default, 11, is for static files, which are
 * pre-compressed at build time). Event streams are hijacked and stay uncompressed (each event must
 * reach the client at once).
 */
const COMPRESS = {
  threshold: 1024,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
};

export async function buildHttp(ctx: AppContext, routes: AnyRoute[], passes: readonly ResponsePass[] = []): Promise<FastifyInstance> {
  const logger: FastifyBaseLogger = ctx.log;
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    genReqId: (req) => {
      const h = req.headers['x-request-id'];
      return typeof h === 'string' && /^[\w-]{1,64}$/.test(h) ? h : randomUUID();
    },
    routerOptions: {
      querystringParser: (s: string) => qs.parse(s, { arrayLimit: 1000, depth: 3, parameterLimit: 1000 }),
      ignoreTrailingSlash: true,
    },
    trustProxy: ctx.config.trustProxy,
    clientErrorHandler: clientError,
    // Malformed URLs (bad percent-encoding, over-long parameters) answer with the envelope too.
    frameworkErrors: (err, _req, reply) => {
      void envelope(reply, 400, ERRORS.INVALID_PARAM.code, ERRORS.INVALID_PARAM.tip, err.message);
    },
  });

  await registerRateLimit(app, ctx);
  // Not global: only the API's routes compress (registerRoute), so the console's files keep their
  // build-time pre-compression (a small one stays plain) and request bodies are never inflated.
  await app.register(compress, { global: false });
  await app.register(multipart, {
    limits: { fileSize: ctx.config.uploadMaxBytes, files: 20, fields: 50, fieldSize: 64 * 1024 },
  });

  app.setErrorHandler(async (err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) return envelope(reply, err.status, err.code, err.tip, err.detail ?? '');
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return envelope(reply, 400, ERRORS.INVALID_JSON.code, ERRORS.INVALID_JSON.tip);
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
      case 'FST_FILES_LIMIT':
      case 'FST_PARTS_LIMIT':
        return envelope(reply, 413, ERRORS.PAYLOAD_TOO_LARGE.code, ERRORS.PAYLOAD_TOO_LARGE.tip);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
        return envelope(reply, 415, ERRORS.UNSUPPORTED_MEDIA.code, ERRORS.UNSUPPORTED_MEDIA.tip);
      default:
    }
    if (err.statusCode === 429) {
      const refused = req.routeOptions.config.rateLimitRefused;
      if (refused) await refused(req).catch((e: unknown) => req.log.error({ err: e }, 'rate-limit refusal hook failed'));
      return envelope(reply, 429, ERRORS.TOO_MANY_REQUESTS.code, ERRORS.TOO_MANY_REQUESTS.tip);
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return envelope(reply, err.statusCode, ERRORS.INVALID_PARAM.code, ERRORS.INVALID_PARAM.tip, err.message);
    }
    // The database away, or a statement past DB_STATEMENT_TIMEOUT_MS: the service is unavailable
    // for now (503), not broken; the caller may try again.
    if (isConnectionError(err) || pgErrorCode(err) === QUERY_CANCELED) {
      req.log.warn({ err }, 'database unavailable or statement timed out');
      return envelope(reply, 503, ERRORS.UNAVAILABLE.code, ERRORS.UNAVAILABLE.tip);
    }
    req.log.error({ err }, 'unhandled error');
    return envelope(reply, 500, ERRORS.SYSTEM_ERROR.code, ERRORS.SYSTEM_ERROR.tip);
  });

  app.setNotFoundHandler((req, reply) =>
    envelope(reply, 404, ERRORS.ROUTE_NOT_FOUND.code, `${ERRORS.ROUTE_NOT_FOUND.tip}: ${req.method} ${req.url.split('?')[0]}`),
  );

  app.addHook('onResponse', (req, reply, done) => {
    // Hijacked replies (event streams) log themselves when they open; their 'finish' comes
    // only when the server ends the stream, and never when the client goes away.
    if (!req.accessLogged) logAccess(ctx, req, reply.statusCode, reply.elapsedTime);
    done();
  });

  for (const r of routes) registerRoute(app, ctx, r, passes);
  if (routes.length) {
    const doc = buildOpenApi(routes);
    app.get(`${API_BASE}/openapi.json`, (_req, reply) => reply.send(doc));
  }
  return app;
}

/** Queues one access-log entry for an API call (written in batches by AccessLogWriter). */
export function logAccess(ctx: AppContext, req: FastifyRequest, status: number, elapsedMs: number): void {
  const url = req.routeOptions.url;
  if (!url?.startsWith(API_BASE)) return;
  req.accessLogged = true;
  const q = req.url.indexOf('?');
  ctx.accessLog.add({
    requestId: String(req.id),
    userId: req.authUser?.id ?? null,
    companyId: req.authUser?.companyId ?? null,
    username: req.authUser?.username ?? null,
    method: req.method,
    path: req.url.slice(API_BASE.length, q < 0 ? undefined : q).slice(0, 256),
    query: q < 0 ? null : req.url.slice(q + 1, q + 1 + 1000),
    status,
    durationMs: Math.round(elapsedMs),
    ip: req.ip,
    userAgent: (req.headers['user-agent'] ?? '').slice(0, 256) || null,
    errorCode: req.errorCode ?? SUCCESS_CODE,
    createdAt: new Date(),
  });
}

function registerRoute(app: FastifyInstance, ctx: AppContext, r: AnyRoute, passes: readonly ResponsePass[]) {
  const interfaceId = ctx.interfaceIds.get(r.path) ?? null;
  const limit = r.rateLimit;
  app.route({
    method: r.method,
    url: API_BASE + r.path,
    compress: COMPRESS,
    // `max` is read per request, so the limit follows the live configuration. A route that records
    // its refusals is limited once its body is parsed, so the refusal can say what was sent.
    ...(limit
      ? {
          config: {
            rateLimit: { max: () => limit.max(ctx.config), timeWindow: limit.windowMs, ...(limit.refused ? { hook: 'preValidation' as const } : {}) },
            ...(limit.refused ? { rateLimitRefused: (req: FastifyRequest) => limit.refused!(ctx, req) } : {}),
          },
        }
      : {}),
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      let user: AuthUser | null = null;
      const token = tokenFrom(req);
      if (r.access !== 'public' || token) {
        const tokenHash = token ? hashToken(token) : '';
        const check = token
          ? await checkSession(ctx.database, ctx.sessions, tokenHash, r.access === 'menu' ? interfaceId : null, ctx.config.sessionIdleMs)
          : null;
        if (check) {
          user = check.user;
          req.authUser = user;
          if (Date.now() - check.lastSeenAt > 60_000) touchSession(ctx, user.sessionId, tokenHash);
        } else if (r.access !== 'public') {
          throw new AppError('UNAUTHENTICATED');
        }
        if (r.access === 'menu' && check && !check.allowed) throw new AppError('FORBIDDEN');
      }

      let query: unknown = undefined;
      if (r.query) {
        const parsed = r.query.safeParse(req.query ?? {}, { reportInput: true });
        if (!parsed.success) throw new AppError('INVALID_PARAM', validationTip(parsed.error, 'query'));
        query = parsed.data;
      }
      const bad = badText(req.body) ?? badText(req.query);
      if (bad) throw new AppError('INVALID_PARAM', `${bad.path.length ? bad.path.join('.') : '请求体'}: ${bad.problem}`);
      let body: unknown = undefined;
      if (r.body && !r.multipart) {
        const parsed = r.body.safeParse(req.body ?? {}, { reportInput: true });
        if (!parsed.success) throw new AppError('INVALID_PARAM', validationTip(parsed.error, 'body'));
        body = parsed.data;
      }
      let data = await r.handler({ body, query, user, req, reply, ctx });
      if (r.raw) return reply;
      for (const pass of passes) data = await pass(ctx, r, req, data);
      if (r.response && ctx.config.validateResponses) checkResponse(r, data);
      return ok(data ?? null);
    },
  });
}

/**
 * Tests only (VALIDATE_RESPONSES): the answer, as the client will read it after JSON, must match
 * the endpoint's contract response schema; a drift fails the call with a 500 naming the field.
 */
function checkResponse(r: AnyRoute, data: unknown) {
  const wire: unknown = data === undefined ? null : JSON.parse(JSON.stringify(data));
  const parsed = r.response!.safeParse(wire);
  if (parsed.success) return;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; ');
  throw new AppError('SYSTEM_ERROR', undefined, `response of ${r.method} ${r.path} does not match its contract schema: ${issues}`);
}

/**
 * @fastify/rate-limit for the routes that declare `rateLimit` (none globally), keyed by client
 * address. With REDIS_URL the counts live in Redis so every instance shares them; if Redis
 * fails the limit is skipped rather than refusing the call.
 */
async function registerRateLimit(app: FastifyInstance, ctx: AppContext) {
  let redis: Redis | undefined;
  if (ctx.config.redisUrl) {
    redis = new Redis(ctx.config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    redis.on('error', (err) => ctx.log.warn({ err }, 'rate-limit redis error'));
    const client = redis;
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    keyGenerator: (req) => req.ip,
    ...(redis ? { redis, nameSpace: 'ess-rate-limit:' } : {}),
  });
}

/** A UTF-16 surrogate not paired with its other half (a `u` pattern matches a surrogate only when it is alone). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return '不能包含空字符';
  if (LONE_SURROGATE.test(s)) return '不是有效的 Unicode 文本';
  return null;
}

/**
 * Where a string holds U+0000, which PostgreSQL text cannot store, or a lone surrogate (JSON
 * allows "\ud800"), which would be stored as U+FFFD: such input is refused as a bad parameter up
 * front instead of failing in the database or being silently altered there.
 */
function badText(value: unknown, path: string[] = [], depth = 0): { path: string[]; problem: string } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path, problem } : null;
  }
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [k, v] of Object.entries(value)) {
    const keyProblem = textProblem(k);
    if (keyProblem) return { path: [...path, k], problem: keyProblem };
    const found = badText(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

/** Idle-limit bookkeeping: at most one write a minute per session, off the request path. */
function touchSession(ctx: AppContext, sessionId: number, tokenHash: string) {
  ctx.sessions.seen(tokenHash);
  ctx.database.sql
    .query('update session set last_seen_at = now() where id = $1', [sessionId])
    .catch((err: unknown) => ctx.log.warn({ err }, 'session touch failed'));
}

/**
 * Closes the HTTP server: new requests are refused at once, those in progress may finish within
 * `graceMs`; then their connections are cut, so a slow or stalled client (a half-sent upload, a
 * stream that reconnects) cannot hold a shutdown up.
 */
export async function closeHttp(app: FastifyInstance, graceMs: number): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}
