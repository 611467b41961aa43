import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { AuthUser } from './auth.ts';

/**
 * Who may call a route: `public` needs nothing, `user` any signed-in user (profile, own
 * notifications, live events), `menu` a role granting a menu that maps to the interface.
 */
export type Access = 'public' | 'user' | 'menu';

/**
 * Declares that the route acts on one company-scoped object, so the route-table test can
 * create such an object in another company (fixture named by `entity` in
 * test/scope-fixtures.ts) and show the call is refused. `input` builds a request that passes
 * validation for that id (sent as the query of a GET, the body of a POST); default `{ id }`.
 */
export interface ScopeProbe {
  entity: string;
  input?: (id: number) => Record<string, unknown>;
}

/** At most `max(config)` requests per `windowMs` from one client address. */
export interface RateLimit {
  max: (config: Config) => number;
  windowMs: number;
}

export interface RouteCall<B, Q, A extends Access> {
  body: B;
  query: Q;
  user: A extends 'public' ? AuthUser | null : AuthUser;
  req: FastifyRequest;
  reply: FastifyReply;
  ctx: AppContext;
}

export interface RouteDef<B = unknown, Q = unknown, A extends Access = Access> {
  method: 'GET' | 'POST';
  /** Catalogue path, relative to /api/manager. */
  path: string;
  access: A;
  /** Short source-text name shown in the interface list. */
  name: string;
  area?: string;
  kind?: string;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  /** The handler writes the reply itself (file downloads, event streams). */
  raw?: boolean;
  multipart?: boolean;
  scope?: ScopeProbe;
  /** Per-address request limit for this route (shared across instances through Redis when configured). */
  rateLimit?: RateLimit;
  handler(call: RouteCall<B, Q, A>): Promise<unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds routes of every payload type
export type AnyRoute = RouteDef<any, any, Access>;

/** Declares a route; the generics carry the contract schemas' output types into the handler. */
export function route<B = undefined, Q = undefined, A extends Access = 'menu'>(def: RouteDef<B, Q, A>): RouteDef<B, Q, A> {
  return def;
}
