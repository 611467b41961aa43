import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database, Db } from './db/database.ts';
import type { Subscriber } from './events/outbox.ts';
import type { AnyRoute } from './http/route.ts';
import type { Logger } from './logging.ts';

/** What a seed gets: the database before the rest of the platform is up. */
export interface SeedContext {
  config: Config;
  database: Database;
  db: Db;
  log: Logger;
}

/**
 * A domain event a module emits that hooks may attach to (the hooks' trigger catalogue; decision
 * 0041): its type, source-text name and payload schema (from the contract: platform/events/catalogue.ts
 * declares them by type).
 */
export interface ModuleEvent {
  type: string;
  name: string;
  payload: z.ZodObject;
}

/**
 * A server module (one domain) as the application sees it: its routes, its seeds, its background
 * jobs, the domain events it subscribes to, and what it starts and stops. `modules/index.ts` lists
 * the modules; app.ts, OpenAPI and the interface table are built from that list alone, so a new
 * domain adds its folder and one line there.
 */
export interface ServerModule {
  name: string;
  routes?: readonly AnyRoute[];
  /** Run at every start in module-list order, before anything else of the module: idempotent. */
  seeds?: readonly ((s: SeedContext) => Promise<void>)[];
  /** Registers job handlers and periodic work (on every instance; they run where the jobs role is). */
  jobs?: (ctx: AppContext) => void;
  /** The domain events it emits that hooks may attach to (scan builds the trigger catalogue from these). */
  events?: readonly ModuleEvent[];
  /** Domain-event subscribers (dispatched from the outbox on the jobs role). */
  subscribers?: readonly Subscriber[];
  /** Started in module-list order once the platform is up, before the server takes requests. */
  start?: (ctx: AppContext) => Promise<void>;
  /** Stopped in reverse order when the server closes. */
  stop?: (ctx: AppContext) => Promise<void>;
  /**
   * HTTP the endpoint table cannot describe (a device's token-authorised PUT of a file): registered
   * on the server with the api role, after the table's routes. Rare; prefer `routes`.
   */
  http?: (app: FastifyInstance, ctx: AppContext) => Promise<void>;
  /** Rewrites the JSON answers of every route (in module-list order); see ResponsePass. Rare. */
  responsePass?: ResponsePass;
}

/**
 * A module's pass over every answer of the route table before it is sent (the one place business
 * data is served in the caller's language: modules/i18n). Gets the handler's result and returns
 * what to send; runs only for JSON answers (not raw replies).
 */
export type ResponsePass = (ctx: AppContext, route: AnyRoute, req: FastifyRequest, data: unknown) => Promise<unknown>;

/** Declares a module's manifest (exported by its index.ts). */
export function defineModule(m: ServerModule): ServerModule {
  return m;
}

/**
 * State a module keeps per running application (several run in one process in tests): set by
 * its `start`, read by its services and its public functions.
 */
export function perApp<T>(what: string) {
  const values = new WeakMap<AppContext, T>();
  return {
    get: (ctx: AppContext): T | undefined => values.get(ctx),
    require: (ctx: AppContext): T => {
      const v = values.get(ctx);
      if (v === undefined) throw new Error(`${what} is not started on this instance`);
      return v;
    },
    set: (ctx: AppContext, v: T) => void values.set(ctx, v),
    delete: (ctx: AppContext) => void values.delete(ctx),
  };
}
