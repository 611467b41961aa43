import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from './platform/config.ts';
import type { AppContext } from './platform/context.ts';
import { openDatabase } from './platform/db/database.ts';
import { busChannel, inProcessBus, redisBus } from './platform/events/bus.ts';
import { AccessLogWriter } from './platform/http/access-log.ts';
import { buildHttp } from './platform/http/server.ts';
import { JobQueue } from './platform/jobs/queue.ts';
import { createLogger, type Logger } from './platform/logging.ts';
import { SseHub } from './platform/sse/hub.ts';
import { seedOnce, syncInterfaces, syncMenus } from './db/seed.ts';
import { seedDemoOnce } from './db/demo-seed.ts';
import { syncThingModels } from './modules/device/thing-model.ts';
import { seedAlarmDictionary } from './modules/alarm/alarm.seed.ts';
import { startTelemetry } from './modules/telemetry/runtime.ts';
import { configurePasswordHashing } from './modules/system/auth.service.ts';
import { closeCommandChannel } from './modules/monitor/command.channel.ts';
import { allRoutes } from './modules/index.ts';
import { registerJobs } from './modules/jobs.ts';

export interface RunningApp {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  /** The generated administrator password on first start, else null. */
  adminPassword: string | null;
  close: () => Promise<void>;
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
  opts: { memoryDb?: boolean; logger?: Logger; /** tests: a migrated PGlite image to start the in-memory database from */ pgliteImage?: Blob } = {},
): Promise<RunningApp> {
  const log = opts.logger ?? createLogger(config.logLevel);
  configurePasswordHashing(config.passwordHash);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, memory: opts.memoryDb, image: opts.pgliteImage });
  const interfaceIds = await syncInterfaces(database.db, allRoutes);
  await syncMenus(database.db);
  const seed = await seedOnce(database, config.adminPassword);
  await syncThingModels(database.db);
  await seedAlarmDictionary(database.db);
  if (config.seedDemo) await seedDemoOnce(database.db);
  const bus = config.redisUrl ? await redisBus(config.redisUrl, log, busChannel(config.databaseUrl, config.dataDir)) : inProcessBus();
  const sse = new SseHub(bus, config.sseHeartbeatMs);
  const jobs = new JobQueue(database, log, config.roles.has('jobs'));
  const accessLog = new AccessLogWriter(database, log, config.accessLogFlushMs);
  const telemetry = await startTelemetry(config, database, log, { bus, sse });
  const ctx: AppContext = { config, database, db: database.db, log, bus, sse, jobs, accessLog, interfaceIds, telemetry };
  registerJobs(ctx);
  await jobs.start();
  const app = await buildHttp(ctx, config.roles.has('api') ? allRoutes : []);
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
  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  return {
    app,
    ctx,
    url: `http://127.0.0.1:${port}`,
    adminPassword: seed.adminPassword,
    close: async () => {
      sse.closeAll();
      await app.close();
      await closeCommandChannel(ctx);
      await telemetry.close();
      await accessLog.close();
      await jobs.stop();
      await bus.close();
      await database.close();
    },
  };
}
