import {
  API_BASE, DEFAULT_LOCALE, HTTP_TIMEOUT_MS, IMAGE_CODE_STORAGE_KEY, LOCALE_STORAGE_KEY, TOKEN_STORAGE_KEY,
} from '@ess/contract/constants';
import type { AnyEndpoint, EndpointInput, EndpointRef, EndpointResponse } from '@ess/contract/endpoint';
import { ERRORS, SUCCESS_CODE, type Envelope } from '@ess/contract/errors';
import { fileNameFromDisposition, saveBlob } from './download.ts';
import { trackRequest } from './feedback/loading.ts';
import { toast } from './feedback/toast.ts';
import { t } from './i18n/translate.ts';
import { LOGIN_PATH, navigateTo } from './navigation.ts';
import { stringifyQuery } from './query-string.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'PATCH';
/** product-spec §7 body kinds. `query` sends the data as the query string. */
export type BodyKind = 'query' | 'form' | 'json' | 'text' | 'file' | 'raw' | 'none';

export interface RequestOptions {
  /** Catalogue path relative to /api/manager; may hold `{name}` or `:name` placeholders. */
  url: string;
  method?: Method;
  /** Query data for `query` calls, the body for the others. */
  data?: unknown;
  /** Values for the `{name}` / `:name` placeholders of the path. */
  pathParams?: Record<string, string | number>;
  /** Defaults: `query` for GET, HEAD, DELETE and OPTIONS; `json` otherwise. */
  bodyKind?: BodyKind;
  /** Extra query parameters for calls whose data is a body. */
  query?: Record<string, unknown>;
  /** `blob` saves the response as a file (export and download calls). */
  responseType?: 'json' | 'blob';
  /** File name used when the response's Content-Disposition names none. */
  fileName?: string;
  /** Suppresses error toasts (the call still fails). */
  noMessage?: boolean;
  /** `false` keeps this call out of the full-screen spinner. */
  loading?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A failed call: HTTP status (0 when none arrived), the envelope's code and message. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode: string,
    readonly envelope: Envelope | null,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export interface DownloadResult {
  blob: Blob;
  fileName: string;
}

/** The browser's offset from UTC in minutes, east positive (UTC+8 → 480). */
export function utcZone(date = new Date()): string {
  const offset = -date.getTimezoneOffset();
  return String(offset === 0 ? 0 : offset);
}

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

/** Headers sent on every request (product-spec §7). */
export function commonHeaders(): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: read(() => localStorage, TOKEN_STORAGE_KEY) ?? '',
    'X-Image-Code': read(() => sessionStorage, IMAGE_CODE_STORAGE_KEY) ?? '',
    'UTC-Zone': utcZone(),
  };
  const locale = read(() => localStorage, LOCALE_STORAGE_KEY);
  if (locale && locale !== DEFAULT_LOCALE) headers['Client-Language'] = locale;
  return headers;
}

/** Writes `{name}` and `:name` path placeholders, URL-encoded. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  const value = (name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name} in ${path}`);
    return encodeURIComponent(String(v));
  };
  return path.replace(/\{(\w+)\}/g, (_, name: string) => value(name)).replace(/(?<=\/):(\w+)/g, (_, name: string) => value(name));
}

/** Query string with bracket-style arrays (`ids[]=1&ids[]=2`); null and undefined are left out. */
export function toQuery(data: unknown): string {
  if (data === null || data === undefined || typeof data !== 'object') return '';
  return stringifyQuery(data);
}

/** Thrown where the environment has no FormData (product-spec §8). */
export class FormDataUnsupportedError extends Error {
  constructor() {
    super(t('当前环境不支持 multipart/form-data'));
    this.name = 'FormDataUnsupportedError';
  }
}

/** Multipart body with every field of the data; arrays repeat the field, objects go as JSON. */
export function toFormData(data: unknown): FormData {
  if (typeof FormData === 'undefined') throw new FormDataUnsupportedError();
  if (data instanceof FormData) return data;
  const form = new FormData();
  if (data === null || data === undefined) return form;
  const append = (key: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (v instanceof Blob) form.append(key, v);
    else if (typeof v === 'object') form.append(key, JSON.stringify(v));
    else form.append(key, typeof v === 'string' ? v : JSON.stringify(v));
  };
  for (const [key, v] of Object.entries(data as Record<string, unknown>)) {
    if (Array.isArray(v)) for (const item of v) append(key, item);
    else append(key, v);
  }
  return form;
}

const QUERY_METHODS: Method[] = ['GET', 'HEAD', 'DELETE', 'OPTIONS'];

interface Prepared {
  url: string;
  init: RequestInit & { headers: Record<string, string> };
}

function prepare(o: RequestOptions): Prepared {
  const method = o.method ?? 'GET';
  const kind = o.bodyKind ?? (QUERY_METHODS.includes(method) ? 'query' : 'json');
  const headers: Record<string, string> = { ...commonHeaders(), ...o.headers };
  let path = `${API_BASE}${fillPath(o.url, o.pathParams)}`;
  let body: BodyInit | undefined;
  const extraQuery = toQuery(o.query);
  let query = extraQuery;
  switch (kind) {
    case 'query': {
      const q = toQuery(o.data);
      query = [q, extraQuery].filter(Boolean).join('&');
      break;
    }
    case 'json':
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(o.data ?? {});
      break;
    case 'form':
      // The browser sets the multipart boundary itself.
      body = toFormData(o.data);
      break;
    case 'text':
      headers['Content-Type'] = 'text/plain;charset=UTF-8';
      body = o.data === undefined || o.data === null ? '' : typeof o.data === 'string' ? o.data : JSON.stringify(o.data);
      break;
    case 'file': {
      const file = o.data;
      if (!(file instanceof Blob)) throw new Error('a file call needs a Blob or File as data');
      headers['Content-Type'] = file.type || 'application/octet-stream';
      body = file;
      break;
    }
    case 'raw':
      body = o.data as BodyInit;
      break;
    case 'none':
      break;
  }
  if (query) path += (path.includes('?') ? '&' : '?') + query;
  // HTTP_TIMEOUT_MS is 0 (product-spec §9): no timeout unless the contract changes it.
  const signal = HTTP_TIMEOUT_MS > 0 ? anySignal(o.signal, AbortSignal.timeout(HTTP_TIMEOUT_MS)) : o.signal;
  return { url: path, init: { method, headers, body, credentials: 'include', signal } };
}

function anySignal(a: AbortSignal | undefined, b: AbortSignal): AbortSignal {
  return a ? AbortSignal.any([a, b]) : b;
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && 'errorCode' in v;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Shows the toast of a failed call (product-spec §8) and sends 401s to the login page. */
function report(status: number, envelope: Envelope | null, noMessage: boolean): string {
  // tipMsg is source text (Simplified Chinese) from the error catalogue: show it through the pack.
  const tip = envelope?.tipMsg ? t(envelope.tipMsg) : '';
  if (status === 401) {
    const text = tip || t(ERRORS.UNAUTHENTICATED.tip);
    if (!noMessage) toast('error', text);
    if (window.location.pathname !== LOGIN_PATH) navigateTo(LOGIN_PATH);
    return text;
  }
  if (status === 500) {
    const text = tip || t(ERRORS.SYSTEM_ERROR.tip);
    if (!noMessage) toast('error', text);
    return text;
  }
  if (status >= 200 && status < 300) {
    // HTTP success with an errorCode other than 00000.
    const text = tip || envelope?.errorMsg || t('请求失败');
    if (!noMessage) toast('error', text);
    return text;
  }
  const text = tip || envelope?.errorMsg || t('请求失败（$1）', status || t('网络异常'));
  if (!noMessage) toast('error', text, { align: 'left', pauseOnHover: true });
  return text;
}

function fail(status: number, envelope: Envelope | null, noMessage: boolean): never {
  const text = report(status, envelope, noMessage);
  throw new RequestError(text, status, envelope?.errorCode ?? '', envelope);
}

async function send(o: RequestOptions): Promise<Response> {
  let prepared: Prepared;
  try {
    prepared = prepare(o);
  } catch (e) {
    if (e instanceof FormDataUnsupportedError && o.noMessage !== true) toast('error', e.message);
    throw e;
  }
  const { url, init } = prepared;
  try {
    return await fetch(url, init);
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    return fail(0, null, o.noMessage === true);
  }
}

/**
 * One call to the backend (product-spec §7–§8). Resolves with the envelope's data when its
 * errorCode is 00000; otherwise shows the error toast (unless `noMessage`) and rejects with a
 * RequestError. There is no timeout.
 */
export async function request<T = unknown>(o: RequestOptions): Promise<T> {
  if (o.responseType === 'blob') throw new Error('use download() for blob responses');
  const done = o.loading === false ? () => undefined : trackRequest();
  try {
    const res = await send(o);
    const text = o.method === 'HEAD' ? '' : await res.text();
    const body = parseJson(text);
    const envelope = isEnvelope(body) ? body : null;
    if (res.status !== 200) fail(res.status, envelope, o.noMessage === true);
    if (!envelope) fail(res.status, null, o.noMessage === true);
    if (envelope.errorCode !== SUCCESS_CODE) fail(res.status, envelope, o.noMessage === true);
    return envelope.data as T;
  } finally {
    done();
  }
}

/**
 * An export or download call: the response is read as a blob, saved under the file name of its
 * Content-Disposition header (or `fileName`), and returned. A JSON body is read as the envelope
 * first, so a refused export shows its tipMsg. With no file name at all the call fails with
 * "服务器未设置文件名" (the server did not set a file name).
 */
export async function download(o: Omit<RequestOptions, 'responseType'> & { save?: boolean }): Promise<DownloadResult> {
  const done = o.loading === false ? () => undefined : trackRequest();
  const noMessage = o.noMessage === true;
  try {
    const res = await send({ ...o, method: o.method ?? 'GET' });
    const blob = await res.blob();
    const envelope = await readEnvelope(blob);
    if (envelope) {
      if (res.status !== 200 || envelope.errorCode !== SUCCESS_CODE) fail(res.status, envelope, noMessage);
    }
    if (res.status !== 200) fail(res.status, null, noMessage);
    const fileName = fileNameFromDisposition(res.headers.get('content-disposition')) ?? o.fileName ?? null;
    if (!fileName) {
      const text = t('服务器未设置文件名');
      if (!noMessage) toast('error', text);
      throw new RequestError(text, res.status, '', envelope);
    }
    if (o.save !== false) saveBlob(blob, fileName);
    return { blob, fileName };
  } finally {
    done();
  }
}

async function readEnvelope(blob: Blob): Promise<Envelope | null> {
  // Error bodies of blob calls are JSON; a real file is not read as text beyond its start.
  const type = blob.type.toLowerCase();
  if (type && !type.includes('json') && !type.startsWith('text/')) return null;
  const parsed = parseJson(await blob.text());
  return isEnvelope(parsed) ? parsed : null;
}

/** Options of a contract call: everything but what the endpoint itself declares. */
export type CallOptions = Omit<Partial<RequestOptions>, 'url' | 'method' | 'data' | 'bodyKind' | 'responseType'>;

/** The input may be left out when the endpoint declares none, or every field of it is optional. */
type CallArgs<E extends AnyEndpoint, O> = Record<string, never> extends NonNullable<EndpointInput<E>>
  ? [input?: EndpointInput<E>, options?: O]
  : [input: EndpointInput<E>, options?: O];

/** Where an endpoint's input goes: the query string of a GET or of a POST that declares only a query, else the body. */
function placed(ep: AnyEndpoint): Pick<RequestOptions, 'method' | 'bodyKind'> {
  if (ep.multipart) return { method: ep.method, bodyKind: 'form' };
  if (ep.method === 'POST' && ep.query && !ep.body) return { method: 'POST', bodyKind: 'query' };
  return { method: ep.method };
}

/**
 * One call of a contract endpoint (packages/contract): the input is checked against the
 * endpoint's request type and the answer has its response type, both inferred from the
 * declaration. Otherwise as `request()`: toasts, 401 handling, the spinner.
 */
export function call<E extends AnyEndpoint>(ep: E, ...[input, options]: CallArgs<E, CallOptions>): Promise<EndpointResponse<E>> {
  return request<EndpointResponse<E>>({ ...options, ...placed(ep), url: ep.path, data: input });
}

/**
 * A call by an endpoint reference (method and path, typed by the declaration): for the code that
 * loads before sign-in, which must not load the contract's schemas. Otherwise as `call()`.
 */
export function callRef<E extends AnyEndpoint>(ref: EndpointRef<E>, ...[input, options]: CallArgs<E, CallOptions>): Promise<EndpointResponse<E>> {
  return request<EndpointResponse<E>>({ ...options, method: ref.method, url: ref.path, data: input });
}

/** An export or download endpoint (response FILE): the file is saved and returned, as `download()`. */
export function callFile<E extends AnyEndpoint>(
  ep: E,
  ...[input, options]: CallArgs<E, CallOptions & { save?: boolean; fileName?: string }>
): Promise<DownloadResult> {
  return download({ ...options, ...placed(ep), url: ep.path, data: input });
}
