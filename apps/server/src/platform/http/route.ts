import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AnyEndpoint, Endpoint, EndpointBody, EndpointQuery, RawResponse, Replyable } from '@ess/contract';
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

/**
 * A route that touches no single company's object, with the reason: its answer is the caller's
 * own (profile, notifications), shared by every company (thing models, regions, language packs),
 * or filtered to the caller's data scope without naming an object.
 */
export interface GlobalScope {
  global: string;
}

/** Every contract route says how it is limited to the caller's companies and stations. */
export type RouteScope = ScopeProbe | GlobalScope;

export const isProbe = (s: RouteScope | undefined): s is ScopeProbe => s !== undefined && 'entity' in s;

/** At most `max(config)` requests per `windowMs` from one client address. */
export interface RateLimit {
  max: (config: Config) => number;
  windowMs: number;
  /** Records a refused request before it is answered 429 (its body is parsed by then). */
  refused?: (ctx: AppContext, req: FastifyRequest) => Promise<void>;
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
  /** The contract's response schema (the envelope's data); absent for raw replies. */
  response?: z.ZodType;
  /** The handler writes the reply itself (file downloads, event streams). */
  raw?: boolean;
  multipart?: boolean;
  scope?: RouteScope;
  /** Per-address request limit for this route (shared across instances through Redis when configured). */
  rateLimit?: RateLimit;
  handler(call: RouteCall<B, Q, A>): Promise<unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds routes of every payload type
export type AnyRoute = RouteDef<any, any, Access>;

/** What the handler of an endpoint must produce: its response type (Dates allowed for ISO strings), or anything for a raw reply. */
export type HandlerResult<E extends AnyEndpoint> = E['response'] extends RawResponse
  ? unknown
  : E['response'] extends z.ZodType
    ? Replyable<z.input<E['response']>>
    : never;

/** How the server serves one contract endpoint: who may call it, its name in the interface list, and the handler. */
export interface RouteOptions<E extends AnyEndpoint, A extends Access> {
  access: A;
  /** Short source-text name shown in the interface list. */
  name: string;
  area?: string;
  kind?: string;
  /** Required: a probe the route-table test runs with another company's object, or `{ global: reason }`. */
  scope: RouteScope;
  rateLimit?: RateLimit;
  handler: (call: RouteCall<EndpointBody<E>, EndpointQuery<E>, A>) => Promise<HandlerResult<E>> | HandlerResult<E>;
}

/**
 * Serves a contract endpoint: the request is parsed with its body/query schemas, the handler's
 * result is checked against its response schema by TypeScript (and validated at run time in tests).
 */
export function route<E extends AnyEndpoint, A extends Access = 'menu'>(endpoint: E, options: RouteOptions<E, A>): AnyRoute {
  const e: Endpoint = endpoint;
  const raw = typeof e.response === 'string';
  const { handler } = options as unknown as { handler: (call: RouteCall<unknown, unknown, Access>) => unknown };
  return {
    method: e.method,
    path: e.path,
    body: e.body,
    query: e.query,
    multipart: e.multipart,
    raw,
    response: typeof e.response === 'string' ? undefined : e.response,
    ...options,
    handler: (call) => Promise.resolve(handler(call)),
  };
}
