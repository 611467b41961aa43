import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from './platform/config.ts';
import type { AppContext } from './platform/context.ts';
import { openDatabase } from './platform/db/database.ts';
import { busChannel, inProcessBus, redisBus } from './platform/events/bus.ts';
import { AccessLogWriter } from './platform/http/access-log.ts';
import { buildHttp, closeHttp } from './platform/http/server.ts';
import { Outbox } from './platform/events/outbox.ts';
import { JobQueue } from './platform/jobs/queue.ts';
import { createLogger, redacted, type Logger } from './platform/logging.ts';
import { openFileLimit, SseHub, totalStreamLimit } from './platform/sse/hub.ts';
import { startEmbeddedBroker } from './platform/mqtt/broker.ts';
import type { ServerModule } from './platform/module.ts';
import { configurePasswordHashing } from './platform/password.ts';
import { seedOnce, syncInterfaces, syncMenus } from './db/seed.ts';
import { modules as allModules } from './modules/index.ts';
import { loadDemo } from './demo/load.ts';
import { AUTH_CHANNEL, CHANGE_CHANNELS, ChangeHub } from './platform/db/change-cache.ts';
import { SessionCache } from './platform/http/session-cache.ts';
import { eventCatalogue } from './platform/events/catalogue.ts';

/** How often the jobs role looks for domain events of other instances and retries that came due. */
const OUTBOX_POLL_MS = 1000;

export interface RunningApp {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  /** The generated administrator password on first start, else null. */
  adminPassword: string | null;
  close: () => Promise<void>;
  /** The step close() is in (or last finished), for saying where a slow stop waits. */
  closeStep: () => string;
}

/**
 * The build names every file under assets/ by a hash of its content, so a browser may keep them
 * for a year without asking again; index.html (and anything else) is revalidated on each load,
 * so a new build is picked up at once.
 */
export function staticCacheControl(root: string, path: string): string {
  return /^assets[\\/]/.test(relative(root, path)) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Opens every platform part, applies migrations and the seed, and listens. */
export async function startApp(
  config: Config,
  opts: {
    memoryDb?: boolean;
    logger?: Logger;
    /** tests: a migrated PGlite image to start the in-memory database from */
    pgliteImage?: Blob;
    /** tests: the module list to run instead of modules/index.ts's */
    modules?: readonly ServerModule[];
  } = {},
): Promise<RunningApp> {
  const log = opts.logger ? redacted(opts.logger) : createLogger(config.logLevel);
  configurePasswordHashing(config.passwordHash);
  // The demo stations (SEED_DEMO) are a module of their own, loaded only when wanted: it is the
  // one part of the server that uses the station simulator.
  const demo = config.seedDemo ? await loadDemo(log) : null;
  const listed = opts.modules ?? allModules;
  const modules: readonly ServerModule[] = demo ? [...listed, demo.demoModule] : listed;
  const routes = modules.flatMap((m) => m.routes ?? []);
  const database = await openDatabase({
    url: config.databaseUrl, dataDir: config.dataDir, memory: opts.memoryDb, image: opts.pgliteImage,
    poolMax: config.dbPoolMax, statementTimeoutMs: config.dbStatementTimeoutMs, channels: CHANGE_CHANNELS,
  });
  const interfaceIds = await syncInterfaces(database.db, routes);
  await syncMenus(database.db);
  const seed = await seedOnce(database, config.adminPassword);
  for (const m of modules) for (const s of m.seeds ?? []) await s({ config, database, db: database.db, log });
  const bus = config.redisUrl ? await redisBus(config.redisUrl, log, busChannel(config.databaseUrl, config.dataDir)) : inProcessBus();
  const sse = new SseHub(bus, config.sseHeartbeatMs, {
    perSession: config.sseMaxStreamsPerSession,
    perUser: config.sseMaxStreamsPerUser,
    total: totalStreamLimit(config.sseMaxStreams, config.sseFdReserve, openFileLimit()),
  });
  const jobs = new JobQueue(database, log, config.roles.has('jobs'));
  const accessLog = new AccessLogWriter(database, log, config.accessLogFlushMs);
  const broker = !config.mqttUrl && config.roles.has('ingest') ? await startEmbeddedBroker(config.mqttPort, config.host) : null;
  if (broker) log.info({ url: broker.url }, 'embedded MQTT broker started');
  const mqtt = { url: config.mqttUrl ?? broker?.url ?? '', embedded: broker };
  const outbox = new Outbox(database, log.child({ part: 'outbox' }), modules.flatMap((m) => m.subscribers ?? []));
  const changes = new ChangeHub();
  const sessions = changes.add(AUTH_CHANNEL, 'sessions', new SessionCache());
  const unlisten = await Promise.all(CHANGE_CHANNELS.map((channel) => database.listen(channel, (signal) => changes.signal(channel, signal))));
  const events = eventCatalogue(modules);
  const ctx: AppContext = { config, database, db: database.db, log, bus, sse, jobs, accessLog, changes, sessions, interfaceIds, mqtt, outbox, events };
  for (const m of modules) m.jobs?.(ctx);
  if (config.roles.has('jobs')) {
    // Events of other instances and retries that came due; this instance's own are nudged.
    jobs.every(OUTBOX_POLL_MS, () => outbox.drain());
    jobs.every(3_600_000, async () => {
      const n = await outbox.prune();
      if (n) log.info({ events: n }, 'domain events pruned');
    });
  }
  const started: ServerModule[] = [];
  const stopModules = async () => {
    for (const m of started.splice(0).reverse()) await m.stop?.(ctx);
  };
  try {
    for (const m of modules) {
      await m.start?.(ctx);
      started.push(m);
    }
  } catch (err) {
    await stopModules().catch(() => undefined);
    await broker?.close();
    throw err;
  }
  await jobs.start();
  if (config.roles.has('jobs')) outbox.start(ctx);
  const app = await buildHttp(ctx, config.roles.has('api') ? routes : [], modules.flatMap((m) => (m.responsePass ? [m.responsePass] : [])));
  if (config.roles.has('api')) for (const m of modules) await m.http?.(app, ctx);
  if (config.roles.has('api') && existsSync(config.webDist)) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      // The build writes .br and .gz copies of its text files (apps/web/vite.config.ts): the one
      // Accept-Encoding asks for is sent, with Vary: accept-encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', staticCacheControl(config.webDist, path));
      },
    });
    // Client-side routes: every non-API GET falls back to the console's index.html.
    app.get('/*', (req, reply) => (req.url.startsWith('/api/') ? reply.callNotFound() : reply.sendFile('index.html')));
  }
  let closeStep = 'running';
  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  return {
    app,
    ctx,
    url: `http://127.0.0.1:${port}`,
    adminPassword: seed.adminPassword,
    close: async () => {
      const step = async (name: string, run: () => Promise<unknown>) => {
        closeStep = name;
        await run();
      };
      sse.closeAll();
      await step('http', () => closeHttp(app, config.shutdownGraceMs));
      await step('outbox', () => outbox.stop());
      await step('modules', () => stopModules());
      await step('broker', async () => broker?.close());
      await step('access log', () => accessLog.close());
      await step('job queue', () => jobs.stop());
      await step('bus', () => bus.close());
      await step('listeners', async () => {
        for (const stop of unlisten) await stop();
      });
      await step('database', () => database.close());
      closeStep = 'closed';
    },
    closeStep: () => closeStep,
  };
}
