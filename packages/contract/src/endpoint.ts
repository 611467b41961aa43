import { z } from 'zod';

/**
 * Typed endpoints: every backend call is declared once here, in the contract file of its domain —
 * method, catalogue path (relative to /api/manager), request schema and response schema. The
 * server registers its handler against the declaration (the handler's result is type-checked
 * against the response schema, and validated against it in tests), the console calls it with
 * `call(endpoint, input)` and gets the response type inferred, and OpenAPI is generated from the
 * same declarations.
 */

export type HttpMethod = 'GET' | 'POST';

/** The response is not JSON data in the envelope but a file (export, download, captcha image). */
export const FILE = 'file' as const;
/** The response is a server-sent event stream. */
export const STREAM = 'stream' as const;
export type RawResponse = typeof FILE | typeof STREAM;

export interface Endpoint<
  M extends HttpMethod = HttpMethod,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | RawResponse = z.ZodType | RawResponse,
  MP extends boolean = boolean,
> {
  readonly method: M;
  /** Catalogue path, relative to /api/manager. */
  readonly path: string;
  /**
   * The JSON body (POST); with `multipart`, the form's text fields (the handler reads the parts
   * and checks them with it; the caller sends them beside `file`).
   */
  readonly body?: B;
  /** The query string (every GET; a few POSTs take theirs there too). */
  readonly query?: Q;
  /** A multipart/form-data upload (`file` plus fields). */
  readonly multipart?: MP;
  /** The `data` of the envelope, or FILE / STREAM for calls that write their reply themselves. */
  readonly response: R;
}

/** Any declared endpoint (the registry and helpers that hold endpoints of every type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry of endpoints of every payload type
export type AnyEndpoint = Endpoint<HttpMethod, any, any, any, boolean>;

/** Declares an endpoint; the generics keep the exact schemas so both sides infer from them. */
export function endpoint<
  M extends HttpMethod,
  R extends z.ZodType | RawResponse,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  MP extends boolean = false,
>(def: { method: M; path: string; body?: B; query?: Q; multipart?: MP; response: R }): Endpoint<M, B, Q, R, MP> {
  return def;
}

/** The declared schema of an optional field (never when it is not declared). */
type Declared<S> = Extract<S, z.ZodType>;
type Has<S> = [Declared<S>] extends [never] ? false : true;

/** An upload: the file and the form's text fields. */
export type MultipartInput<E extends AnyEndpoint> = { file?: Blob } & (Has<E['body']> extends true ? z.input<Declared<E['body']>> : unknown);

/** What the caller sends: the body's (or else the query's) input type; nothing when neither is declared. */
export type EndpointInput<E extends AnyEndpoint> = NonNullable<E['multipart']> extends true
  ? MultipartInput<E>
  : Has<E['body']> extends true
    ? z.input<Declared<E['body']>>
    : Has<E['query']> extends true
      ? z.input<Declared<E['query']>>
      : Record<string, never> | undefined;

/** What the server's handler receives as its body / query (after parsing). */
export type EndpointBody<E extends AnyEndpoint> = NonNullable<E['multipart']> extends true ? undefined : Has<E['body']> extends true ? z.output<Declared<E['body']>> : undefined;
export type EndpointQuery<E extends AnyEndpoint> = Has<E['query']> extends true ? z.output<Declared<E['query']>> : undefined;

/** The envelope's `data` as the console receives it (after JSON). */
export type EndpointResponse<E extends AnyEndpoint> = E['response'] extends z.ZodType ? z.output<E['response']> : never;

/**
 * What a handler may return for a response of type T: the same value, except that a Date may
 * stand where the wire has an ISO string (JSON turns one into the other).
 */
export type Replyable<T> = T extends string
  ? T | (string extends T ? Date : never)
  : T extends readonly (infer U)[]
    ? readonly Replyable<U>[]
    : T extends object
      ? { [K in keyof T]: Replyable<T[K]> }
      : T;

/**
 * An endpoint named by its method and path alone, typed by its declaration: for code that must
 * not load the contract's schemas (the signed-out console: the login page's size budget). A test
 * checks each reference against the declaration. Written as a plain object with this type (a
 * type-only import), so nothing of the contract's runtime is loaded.
 */
export interface EndpointRef<E extends AnyEndpoint> {
  readonly method: E['method'];
  readonly path: string;
  /** Type only: the declaration the reference stands for. */
  readonly endpoint?: E;
}

// ── Response building blocks ─────────────────────────────────────────────────────────────

/** An instant on the wire: ISO 8601 with offset (what JSON makes of a Date). */
export const isoTime = z.string();
/** Edit, delete and actions that answer only that they succeeded. */
export const done = z.boolean();
/** The page answer of every `query/page` call. */
export const pageOf = <T extends z.ZodType>(record: T) =>
  z.object({ records: z.array(record), total: z.number().int(), current: z.number().int(), pageSize: z.number().int() });
/** An add that answers the new row's id. */
export const created = z.object({ id: z.number().int() });
