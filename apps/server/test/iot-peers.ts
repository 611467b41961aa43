import { randomBytes } from 'node:crypto';
import { startHttpPeer, type HttpPeer, type PeerAnswer, type PeerRequest } from './http-peer.ts';

/**
 * Local protocol peers of the IoT platforms the adapters speak to (issue 23), each implementing
 * the documented endpoints the adapter calls, with their request checks (JSON bodies, the token
 * header), their paging and their error answers. The test edits `world` to change what the
 * platform holds between syncs.
 */
export interface PeerProduct {
  id: string;
  name: string;
  description?: string;
  /** ThingsBoard: telemetry keys and attribute keys; JetLinks: metadata properties (id, name, type, unit). */
  properties: { id: string; name?: string; type?: string; unit?: string; attribute?: boolean }[];
  /** Alarm types (ThingsBoard) or metadata events (JetLinks). */
  events: { id: string; name?: string; level?: string; fields?: { id: string; type: string }[] }[];
  /** JetLinks functions. */
  functions?: { id: string; name?: string; async?: boolean; inputs: { id: string; type: string; unit?: string }[]; output?: string }[];
}
export interface PeerDevice {
  id: string;
  name: string;
  productId: string;
  online: boolean | null;
}
export interface PeerWorld {
  username: string;
  password: string;
  products: PeerProduct[];
  devices: PeerDevice[];
}
export interface PlatformPeer extends HttpPeer {
  world: PeerWorld;
  /** Requests after sign-in that carried a valid token. */
  authorised: () => number;
}

const json = (r: PeerRequest): Record<string, unknown> | null => {
  if (!String(r.headers['content-type'] ?? '').startsWith('application/json')) return null;
  try {
    return JSON.parse(r.body) as Record<string, unknown>;
  } catch {
    return null;
  }
};
const splitUrl = (url: string) => {
  const u = new URL(url, 'http://peer');
  return { path: u.pathname, q: u.searchParams };
};

/** ThingsBoard CE REST API (api/auth/login, deviceProfiles, deviceProfile/devices/keys, tenant/deviceInfos, device/info). */
export async function startThingsBoardPeer(world: PeerWorld): Promise<PlatformPeer> {
  const tokens = new Set<string>();
  let authorised = 0;
  const err = (status: number, message: string, errorCode: number): PeerAnswer => ({ status, body: { status, message, errorCode, timestamp: Date.now() } });
  const profileOf = (p: PeerProduct) => ({
    id: { entityType: 'DEVICE_PROFILE', id: p.id },
    createdTime: 1700000000000,
    tenantId: { entityType: 'TENANT', id: 'tenant-1' },
    name: p.name,
    description: p.description ?? null,
    type: 'DEFAULT',
    transportType: 'DEFAULT',
    default: false,
    profileData: {
      configuration: { type: 'DEFAULT' },
      alarms: p.events.map((e, i) => ({ id: `alarm-${i}`, alarmType: e.id, createRules: { [e.level ?? 'MAJOR']: { condition: { condition: [] } } }, propagate: false })),
    },
  });
  const deviceOf = (d: PeerDevice) => ({
    id: { entityType: 'DEVICE', id: d.id },
    createdTime: 1700000000000,
    name: d.name,
    type: world.products.find((p) => p.id === d.productId)?.name ?? 'default',
    label: null,
    deviceProfileId: { entityType: 'DEVICE_PROFILE', id: d.productId },
    deviceProfileName: world.products.find((p) => p.id === d.productId)?.name ?? null,
    ...(d.online === null ? {} : { active: d.online }),
  });
  const paged = (q: URLSearchParams, rows: unknown[]): PeerAnswer => {
    const pageSize = Number(q.get('pageSize'));
    const page = Number(q.get('page'));
    if (!q.has('pageSize') || !Number.isInteger(pageSize) || pageSize < 1) return err(400, "Required request parameter 'pageSize' for method parameter type int is not present", 31);
    if (!q.has('page') || !Number.isInteger(page) || page < 0) return err(400, "Required request parameter 'page' for method parameter type int is not present", 31);
    const data = rows.slice(page * pageSize, (page + 1) * pageSize);
    const totalPages = Math.ceil(rows.length / pageSize);
    return { status: 200, body: { data, totalPages, totalElements: rows.length, hasNext: page + 1 < totalPages } };
  };
  const peer = await startHttpPeer((r) => {
    const { path, q } = splitUrl(r.url);
    if (r.method === 'POST' && path === '/api/auth/login') {
      const b = json(r);
      if (!b) return err(400, 'Invalid request body', 31);
      if (b.username !== world.username || b.password !== world.password) return err(401, 'Invalid username or password', 10);
      const token = `eyJ.${randomBytes(8).toString('hex')}.sig`;
      tokens.add(token);
      return { status: 200, body: { token, refreshToken: `refresh.${token}` } };
    }
    const auth = String(r.headers['x-authorization'] ?? '');
    if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7))) return err(401, 'Authentication failed', 10);
    authorised++;
    if (r.method !== 'GET') return err(405, 'Request method not supported', 2);
    if (path === '/api/auth/user') return { status: 200, body: { email: world.username, authority: 'TENANT_ADMIN', firstName: null } };
    if (path === '/api/deviceProfiles') return paged(q, world.products.map(profileOf));
    if (path === '/api/tenant/deviceInfos') return paged(q, world.devices.map(deviceOf));
    const keys = /^\/api\/deviceProfile\/devices\/keys\/(timeseries|attributes)$/.exec(path);
    if (keys) {
      const p = world.products.find((x) => x.id === q.get('deviceProfileId'));
      return { status: 200, body: (p?.properties ?? []).filter((k) => !!k.attribute === (keys[1] === 'attributes')).map((k) => k.id) };
    }
    const one = /^\/api\/deviceProfile\/([^/]+)$/.exec(path);
    if (one) {
      const p = world.products.find((x) => x.id === decodeURIComponent(one[1]!));
      return p ? { status: 200, body: profileOf(p) } : err(404, "Requested item wasn't found!", 32);
    }
    const dev = /^\/api\/device\/info\/([^/]+)$/.exec(path);
    if (dev) {
      const d = world.devices.find((x) => x.id === decodeURIComponent(dev[1]!));
      return d ? { status: 200, body: deviceOf(d) } : err(404, "Requested item wasn't found!", 32);
    }
    return err(404, 'Not found', 32);
  });
  return { ...peer, world, authorised: () => authorised };
}

/** JetLinks REST API (authorize/login, authorize/me, device-product/_query, device-instance/_query, …/detail). */
export async function startJetLinksPeer(world: PeerWorld): Promise<PlatformPeer> {
  const tokens = new Set<string>();
  let authorised = 0;
  const ok = (result: unknown): PeerAnswer => ({ status: 200, body: { message: 'success', result, status: 200, code: 'success', timestamp: Date.now() } });
  const err = (status: number, code: string, message: string): PeerAnswer => ({ status, body: { message, result: null, status, code, timestamp: Date.now() } });
  const valueType = (type: string, unit?: string) => ({ type, ...(unit ? { unit } : {}) });
  const productOf = (p: PeerProduct) => ({
    id: p.id,
    name: p.name,
    describe: p.description ?? null,
    state: 1,
    metadata: JSON.stringify({
      properties: p.properties.map((x) => ({ id: x.id, name: x.name ?? x.id, valueType: valueType(x.type ?? 'float', x.unit), expands: { source: 'device' } })),
      events: p.events.map((e) => ({
        id: e.id, name: e.name ?? e.id, expands: { level: e.level ?? 'warn' },
        valueType: { type: 'object', properties: (e.fields ?? []).map((f) => ({ id: f.id, name: f.id, valueType: valueType(f.type) })) },
      })),
      functions: (p.functions ?? []).map((f) => ({
        id: f.id, name: f.name ?? f.id, async: f.async ?? false,
        inputs: f.inputs.map((i) => ({ id: i.id, name: i.id, valueType: valueType(i.type, i.unit) })), output: f.output ? valueType(f.output) : {},
      })),
      tags: [],
    }),
  });
  const STATE = { online: { text: '在线', value: 'online' }, offline: { text: '离线', value: 'offline' }, notActive: { text: '禁用', value: 'notActive' } };
  const deviceOf = (d: PeerDevice) => ({
    id: d.id, name: d.name, productId: d.productId, productName: world.products.find((p) => p.id === d.productId)?.name ?? null,
    state: d.online === null ? STATE.notActive : d.online ? STATE.online : STATE.offline,
  });
  const paged = (r: PeerRequest, rows: unknown[]): PeerAnswer => {
    const b = json(r);
    if (!b) return err(400, 'illegal_argument', '请求体须为 JSON');
    const pageIndex = Number(b.pageIndex ?? 0);
    const pageSize = Number(b.pageSize ?? 25);
    return ok({ pageIndex, pageSize, total: rows.length, data: rows.slice(pageIndex * pageSize, (pageIndex + 1) * pageSize) });
  };
  const peer = await startHttpPeer((r) => {
    const { path } = splitUrl(r.url);
    if (r.method === 'POST' && path === '/authorize/login') {
      const b = json(r);
      if (!b || typeof b.username !== 'string' || typeof b.password !== 'string') return err(400, 'illegal_argument', '用户名和密码不能为空');
      if (b.username !== world.username || b.password !== world.password) return err(400, 'illegal_argument', '用户名或密码错误');
      const token = randomBytes(16).toString('hex');
      tokens.add(token);
      return ok({ token, userId: 'u1', expires: b.expires ?? 3600000 });
    }
    if (!tokens.has(String(r.headers['x-access-token'] ?? ''))) return err(401, 'unauthorized', '用户未登录');
    authorised++;
    if (r.method === 'GET' && path === '/authorize/me') return ok({ user: { id: 'u1', name: 'Admin', username: world.username } });
    if (r.method === 'POST' && path === '/device-product/_query') return paged(r, world.products.map(productOf));
    if (r.method === 'POST' && path === '/device-instance/_query') return paged(r, world.devices.map(deviceOf));
    const one = /^\/device-product\/([^/]+)$/.exec(path);
    if (r.method === 'GET' && one) {
      const p = world.products.find((x) => x.id === decodeURIComponent(one[1]!));
      return p ? ok(productOf(p)) : err(404, 'not_found', '产品不存在');
    }
    const dev = /^\/device-instance\/([^/]+)\/detail$/.exec(path);
    if (r.method === 'GET' && dev) {
      const d = world.devices.find((x) => x.id === decodeURIComponent(dev[1]!));
      return d ? ok(deviceOf(d)) : err(404, 'not_found', '设备不存在');
    }
    return err(404, 'not_found', 'Not Found');
  });
  return { ...peer, world, authorised: () => authorised };
}
