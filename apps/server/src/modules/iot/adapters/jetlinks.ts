import { IOT_DATA_TYPES, type IotDataType, type IotDeviceState } from '@ess/contract/iot';
import { jetlinksInvoke, jetlinksSubscribe } from './jetlinks.live.ts';
import { field, jsonCall, list, orNull, text, type JsonAnswer } from './http.ts';
import {
  MAX_PAGES, PAGE_SIZE, PlatformError, type PlatformAdapter, type PlatformCredentials, type PlatformDevice, type PlatformParam, type PlatformProduct, type PlatformSession,
} from './types.ts';

/**
 * JetLinks (community/enterprise REST API, https://doc.jetlinks.cn): sign in with POST
 * /authorize/login ({ username, password, expires, tokenType } → result.token), then every call
 * with `X-Access-Token`. Every answer is the envelope { status, code, message, result }; a list
 * is POST …/_query with { pageIndex (0-based), pageSize, sorts } → result { pageIndex, pageSize,
 * total, data }. Products: /device-product/_query, one: GET /device-product/{id}; a product's
 * thing model is its `metadata` (a JSON text: properties, events, functions with inputs and
 * output, each with a valueType). Devices: /device-instance/_query, one: GET
 * /device-instance/{id}/detail; `state.value` is online, offline or notActive.
 */
const TOKEN_LIFETIME_MS = 3_600_000;

function failure(what: string, a: JsonAnswer): PlatformError {
  const message = text(field(a.body, 'message')) ?? `HTTP ${a.status}`;
  const code = text(field(a.body, 'code'));
  if (a.status === 401 || code === 'unauthorized') return new PlatformError('auth', message);
  if (a.status === 404 || code === 'not_found') return new PlatformError('notFound', message);
  // A refused login answers 400 (illegal_argument: wrong user or password).
  if (what === 'login' && a.status >= 400 && a.status < 500) return new PlatformError('auth', message);
  return new PlatformError('protocol', `${what}: ${message}`);
}

/** The envelope's result of a successful call. */
function resultOf(what: string, a: JsonAnswer): unknown {
  const status = field(a.body, 'status');
  if (a.status !== 200 || (status !== undefined && status !== 200)) throw failure(what, a);
  return field(a.body, 'result');
}

const TYPE_ALIASES: Record<string, IotDataType> = { boolean: 'bool', password: 'string', file: 'string', geoPoint: 'object' };
function typeOf(valueType: unknown): IotDataType {
  const t = text(field(valueType, 'type')) ?? 'unknown';
  if (TYPE_ALIASES[t]) return TYPE_ALIASES[t];
  return (IOT_DATA_TYPES as readonly string[]).includes(t) ? (t as IotDataType) : 'unknown';
}
function paramOf(p: unknown): PlatformParam | null {
  const id = text(field(p, 'id'));
  if (!id) return null;
  const vt = field(p, 'valueType');
  return { identifier: id, name: text(field(p, 'name')) ?? id, dataType: typeOf(vt), unit: text(field(vt, 'unit')) };
}
const paramsOf = (l: unknown) => list(l).map(paramOf).filter((p): p is PlatformParam => p !== null);

function productOf(p: unknown): PlatformProduct {
  const id = text(field(p, 'id'));
  if (!id) throw new PlatformError('protocol', 'product without id');
  const raw = field(p, 'metadata');
  let metadata: unknown = {};
  if (typeof raw === 'string' && raw.trim()) {
    try {
      metadata = JSON.parse(raw);
    } catch {
      throw new PlatformError('protocol', `product ${id}: metadata is not JSON`);
    }
  } else if (raw && typeof raw === 'object') metadata = raw;
  return {
    externalId: id,
    name: text(field(p, 'name')) ?? id,
    description: text(field(p, 'describe')),
    properties: paramsOf(field(metadata, 'properties')).map((x) => ({ ...x, source: 'metadata' })),
    events: list(field(metadata, 'events')).flatMap((e) => {
      const id = text(field(e, 'id'));
      if (!id) return [];
      return [{ identifier: id, name: text(field(e, 'name')) ?? id, level: text(field(field(e, 'expands'), 'level')), fields: paramsOf(field(field(e, 'valueType'), 'properties')) }];
    }),
    commands: list(field(metadata, 'functions')).flatMap((f) => {
      const id = text(field(f, 'id'));
      if (!id) return [];
      const output = field(f, 'output');
      const outputs = output && typeOf(output) !== 'unknown' ? (typeOf(output) === 'object' ? paramsOf(field(output, 'properties')) : [{ identifier: 'output', name: 'output', dataType: typeOf(output), unit: text(field(output, 'unit')) }]) : [];
      return [{ identifier: id, name: text(field(f, 'name')) ?? id, async: field(f, 'async') === true, inputs: paramsOf(field(f, 'inputs')), outputs }];
    }),
  };
}

const STATES: Record<string, IotDeviceState> = { online: 'online', offline: 'offline', notActive: 'inactive' };
function deviceOf(d: unknown): PlatformDevice {
  const id = text(field(d, 'id'));
  const productId = text(field(d, 'productId'));
  if (!id || !productId) throw new PlatformError('protocol', 'device without id or productId');
  const state = text(field(field(d, 'state'), 'value')) ?? text(field(d, 'state')) ?? '';
  return { externalId: id, name: text(field(d, 'name')) ?? id, productExternalId: productId, state: STATES[state] ?? 'unknown' };
}

export const jetlinksAdapter: PlatformAdapter = {
  platform: 'jetlinks',
  async login(c: PlatformCredentials): Promise<PlatformSession> {
    const a = await jsonCall(`${c.baseUrl}/authorize/login`, {
      method: 'POST', body: { username: c.username, password: c.password, expires: TOKEN_LIFETIME_MS, tokenType: 'default' }, timeoutMs: c.timeoutMs,
    });
    const token = text(field(resultOf('login', a), 'token'));
    if (!token) throw new PlatformError('protocol', 'login answered no token');
    const headers = { 'X-Access-Token': token };
    const call = async (method: 'GET' | 'POST', path: string, what: string, body?: unknown) =>
      resultOf(what, await jsonCall(`${c.baseUrl}${path}`, { method, headers, body, timeoutMs: c.timeoutMs }));
    const paged = async (path: string, what: string) => {
      const rows: unknown[] = [];
      for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex++) {
        const r = await call('POST', path, what, { pageIndex, pageSize: PAGE_SIZE, sorts: [{ name: 'id', order: 'asc' }] });
        const data = field(r, 'data');
        const total = field(r, 'total');
        if (!Array.isArray(data) || typeof total !== 'number') throw new PlatformError('protocol', `${what}: page without data or total`);
        rows.push(...(data as unknown[]));
        if (data.length === 0 || (pageIndex + 1) * PAGE_SIZE >= total) break;
      }
      return rows;
    };
    return {
      subscribe: (devices, sink) => jetlinksSubscribe(c.baseUrl, token, c.timeoutMs, devices, sink),
      invoke: (device, method, params, timeoutMs) => jetlinksInvoke(c.baseUrl, token, device, method, params, timeoutMs),
      async whoami() {
        const me = await call('GET', '/authorize/me', 'current user');
        return text(field(field(me, 'user'), 'name')) ?? text(field(field(me, 'user'), 'username')) ?? c.username;
      },
      products: async () => (await paged('/device-product/_query', 'products')).map(productOf),
      product: (id) => orNull(async () => productOf(await call('GET', `/device-product/${encodeURIComponent(id)}`, 'product'))),
      devices: async () => (await paged('/device-instance/_query', 'devices')).map(deviceOf),
      device: (id) => orNull(async () => deviceOf(await call('GET', `/device-instance/${encodeURIComponent(id)}/detail`, 'device'))),
    };
  },
};
