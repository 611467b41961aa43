import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
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
  /** The session tokens it issued (a test checks none of them reaches a log). */
  issued: () => string[];
  live: PeerLive;
}

/**
 * The platform's live side as the test drives it: what a device sends (telemetry, an event, its
 * connectivity) goes to the subscribed sockets in the platform's documented message format; a
 * command (RPC / function invoke) is answered by `answer` (the device's reply, or the platform's
 * timeout); `drop` cuts every socket (the subscriber must reconnect).
 */
export interface PeerLive {
  push(deviceId: string, values: Record<string, unknown>, ts?: number): void;
  event(deviceId: string, eventId: string, data: unknown, ts?: number): void;
  connectivity(deviceId: string, online: boolean): void;
  drop(): void;
  /** Open sockets that subscribed to something. */
  subscribed(): number;
  /** Sockets ever opened (successfully authorised). */
  opened(): number;
  invocations: { deviceId: string; method: string; params: unknown }[];
  answer: (deviceId: string, method: string, params: unknown) => PeerAnswer;
}

/** JetLinks / topic matching: `*` one level, `**` the rest. */
function topicMatches(pattern: string, topic: string): boolean {
  const p = pattern.split('/');
  const t = topic.split('/');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '**') return true;
    if (i >= t.length || (p[i] !== '*' && p[i] !== t[i])) return false;
  }
  return p.length === t.length;
}

/** Sockets of a peer: authorised at upgrade by `accept` (the path and its token), closed with the peer. */
function socketsOn(peer: HttpPeer, accept: (url: URL) => boolean | 'late', onSocket: (ws: WebSocket, url: URL) => void) {
  const wss = new WebSocketServer({ noServer: true });
  const open = new Set<WebSocket>();
  let opened = 0;
  peer.server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    const ok = accept(url);
    if (ok === false) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws);
      ws.on('close', () => open.delete(ws));
      if (ok === true) opened++;
      onSocket(ws, url);
    });
  });
  return {
    open,
    opened: () => opened,
    drop: () => {
      for (const ws of open) ws.terminate();
    },
    close: async (inner: () => Promise<void>) => {
      for (const ws of open) ws.terminate();
      wss.close();
      await inner();
    },
  };
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
    const rpc = /^\/api\/plugins\/rpc\/twoway\/([^/]+)$/.exec(path);
    if (r.method === 'POST' && rpc) {
      const b = json(r);
      if (!b || typeof b.method !== 'string') return err(400, 'Invalid request body', 31);
      const id = decodeURIComponent(rpc[1]!);
      if (!world.devices.some((d) => d.id === id)) return err(404, "Requested item wasn't found!", 32);
      live.invocations.push({ deviceId: id, method: b.method, params: b.params });
      return live.answer(id, b.method, b.params);
    }
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
  // WebSocket /api/ws/plugins/telemetry?token=<JWT>: { tsSubCmds, historyCmds, attrSubCmds } → updates
  // { subscriptionId, errorCode, errorMsg, data: { key: [[ts, "value"]] } } (the first one: the latest values).
  const latest = new Map<string, Record<string, [number, string]>>();
  const subs = new Map<WebSocket, { cmdId: number; deviceId: string; kind: 'ts' | 'attr' | 'alarm' }[]>();
  // Alarms (the entity-data query API's alarmDataCmds): by device and type, the latest one.
  const alarms = new Map<string, { id: string; type: string; deviceId: string; severity: string; startTs: number; clearTs: number; cleared: boolean }>();
  const alarmOf = (a: NonNullable<ReturnType<typeof alarms.get>>) => ({
    id: { entityType: 'ALARM', id: a.id }, createdTime: a.startTs, type: a.type, originator: { entityType: 'DEVICE', id: a.deviceId }, severity: a.severity,
    status: a.cleared ? 'CLEARED_UNACK' : 'ACTIVE_UNACK', acknowledged: false, cleared: a.cleared, startTs: a.startTs, endTs: a.cleared ? a.clearTs : a.startTs,
    ackTs: 0, clearTs: a.cleared ? a.clearTs : 0, details: {}, entityId: { entityType: 'DEVICE', id: a.deviceId }, latest: {},
  });
  const update = (cmdId: number, data: Record<string, [number, string | boolean][]>) => ({ subscriptionId: cmdId, errorCode: 0, errorMsg: null, data, latestValues: {} });
  const sockets = socketsOn(peer, (url) => url.pathname === '/api/ws/plugins/telemetry' && tokens.has(url.searchParams.get('token') ?? ''), (ws) => {
    ws.on('message', (raw) => {
      let m: {
        tsSubCmds?: { entityId: string; cmdId: number; scope?: string }[];
        attrSubCmds?: { entityId: string; cmdId: number; keys?: string }[];
        alarmDataCmds?: { cmdId: number; query?: { entityFilter?: { type?: string; entityList?: string[] }; pageLink?: { statusList?: string[] } } }[];
      };
      try {
        m = JSON.parse((raw as Buffer).toString('utf8')) as typeof m;
      } catch {
        return;
      }
      const list = subs.get(ws) ?? [];
      for (const c of m.tsSubCmds ?? []) {
        if (!world.devices.some((d) => d.id === c.entityId)) {
          ws.send(JSON.stringify({ subscriptionId: c.cmdId, errorCode: 32, errorMsg: 'Device not found', data: {} }));
          continue;
        }
        list.push({ cmdId: c.cmdId, deviceId: c.entityId, kind: 'ts' });
        const now = Object.fromEntries(Object.entries(latest.get(c.entityId) ?? {}).map(([k, v]) => [k, [v]]));
        ws.send(JSON.stringify(update(c.cmdId, now)));
      }
      for (const c of m.attrSubCmds ?? []) {
        const d = world.devices.find((x) => x.id === c.entityId);
        if (!d) continue;
        list.push({ cmdId: c.cmdId, deviceId: c.entityId, kind: 'attr' });
        if (d.online !== null && (c.keys ?? 'active').split(',').includes('active')) ws.send(JSON.stringify(update(c.cmdId, { active: [[Date.now(), d.online]] })));
      }
      for (const c of m.alarmDataCmds ?? []) {
        const filter = c.query?.entityFilter;
        if (filter?.type !== 'entityList' || !Array.isArray(filter.entityList)) {
          ws.send(JSON.stringify({ cmdId: c.cmdId, cmdUpdateType: 'ALARM_DATA', errorCode: 31, errorMsg: 'Unsupported entity filter', data: null, update: null }));
          continue;
        }
        const ids = filter.entityList.filter((id) => world.devices.some((d) => d.id === id));
        for (const id of ids) list.push({ cmdId: c.cmdId, deviceId: id, kind: 'alarm' });
        const page = [...alarms.values()].filter((a) => ids.includes(a.deviceId) && !a.cleared).map(alarmOf);
        ws.send(JSON.stringify({ cmdId: c.cmdId, cmdUpdateType: 'ALARM_DATA', errorCode: 0, errorMsg: null, data: { data: page, totalPages: 1, totalElements: page.length, hasNext: false }, update: null }));
      }
      subs.set(ws, list);
    });
    ws.on('close', () => subs.delete(ws));
  });
  const sendAlarm = (a: NonNullable<ReturnType<typeof alarms.get>>) => {
    for (const [ws, list] of subs) {
      for (const s of list) if (s.kind === 'alarm' && s.deviceId === a.deviceId) ws.send(JSON.stringify({ cmdId: s.cmdId, cmdUpdateType: 'ALARM_DATA', errorCode: 0, errorMsg: null, data: null, update: [alarmOf(a)] }));
    }
  };
  const send = (deviceId: string, kind: 'ts' | 'attr', data: Record<string, [number, string | boolean][]>) => {
    for (const [ws, list] of subs) for (const s of list) if (s.deviceId === deviceId && s.kind === kind) ws.send(JSON.stringify(update(s.cmdId, data)));
  };
  const live: PeerLive = {
    push(deviceId, values, ts = Date.now()) {
      const l = latest.get(deviceId) ?? {};
      const data: Record<string, [number, string][]> = {};
      for (const [k, v] of Object.entries(values)) {
        l[k] = [ts, String(v)];
        data[k] = [[ts, String(v)]];
      }
      latest.set(deviceId, l);
      send(deviceId, 'ts', data);
    },
    // An alarm of type eventId raised, or cleared with data { cleared: true } (severity from data.severity).
    event(deviceId, eventId, data, ts = Date.now()) {
      const d = (data ?? {}) as { cleared?: boolean; severity?: string };
      const key = `${deviceId}|${eventId}`;
      const before = alarms.get(key);
      const a = d.cleared
        ? before && { ...before, cleared: true, clearTs: ts }
        : { id: `alarm-${randomBytes(4).toString('hex')}`, type: eventId, deviceId, severity: d.severity ?? 'MAJOR', startTs: ts, clearTs: 0, cleared: false };
      if (!a) return;
      alarms.set(key, a);
      sendAlarm(a);
    },
    connectivity(deviceId, online) {
      const d = world.devices.find((x) => x.id === deviceId);
      if (d) d.online = online;
      send(deviceId, 'attr', { active: [[Date.now(), online]] });
    },
    drop: sockets.drop,
    subscribed: () => [...subs.values()].filter((l) => l.length > 0).length,
    opened: sockets.opened,
    invocations: [],
    answer: () => ({ status: 504, body: { status: 504, message: 'Request timeout', errorCode: 33, timestamp: Date.now() } }),
  };
  return { ...peer, world, authorised: () => authorised, issued: () => [...tokens], live, close: () => sockets.close(() => peer.close()) };
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
    const fn = /^\/device\/instance\/([^/]+)\/function\/([^/]+)$/.exec(path);
    if (r.method === 'POST' && fn) {
      const b = json(r);
      if (!b) return err(400, 'illegal_argument', '请求体须为 JSON');
      const id = decodeURIComponent(fn[1]!);
      if (!world.devices.some((d) => d.id === id)) return err(404, 'not_found', '设备不存在');
      live.invocations.push({ deviceId: id, method: decodeURIComponent(fn[2]!), params: b });
      return live.answer(id, decodeURIComponent(fn[2]!), b);
    }
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
  // WebSocket /messaging/{token}: { type: 'sub', topic, id, parameter } → { type: 'result', requestId, topic, payload };
  // a token it does not know: { type: 'authError', message } and the socket closes.
  const subs = new Map<WebSocket, { id: string; topic: string }[]>();
  const sockets = socketsOn(peer, (url) => {
    const m = /^\/messaging\/([^/]+)$/.exec(url.pathname);
    if (!m) return false;
    return tokens.has(decodeURIComponent(m[1]!)) ? true : 'late';
  }, (ws, url) => {
    if (!tokens.has(decodeURIComponent(url.pathname.split('/')[2] ?? ''))) {
      ws.send(JSON.stringify({ message: '认证失败', type: 'authError' }));
      ws.close();
      return;
    }
    ws.on('message', (raw) => {
      let m: { type?: string; topic?: string; id?: string };
      try {
        m = JSON.parse((raw as Buffer).toString('utf8')) as typeof m;
      } catch {
        return;
      }
      const list = subs.get(ws) ?? [];
      if (m.type === 'sub' && m.topic && m.id && !list.some((x) => x.id === m.id)) list.push({ id: m.id, topic: m.topic });
      if (m.type === 'unsub') {
        const i = list.findIndex((x) => x.id === m.id);
        if (i >= 0) list.splice(i, 1);
        ws.send(JSON.stringify({ requestId: m.id, type: 'complete' }));
      }
      subs.set(ws, list);
    });
    ws.on('close', () => subs.delete(ws));
  });
  const publish = (deviceId: string, tail: string, payload: Record<string, unknown>) => {
    const d = world.devices.find((x) => x.id === deviceId);
    if (!d) return;
    const topic = `/device/${d.productId}/${deviceId}/${tail}`;
    for (const [ws, list] of subs) {
      for (const s of list) if (topicMatches(s.topic, topic)) ws.send(JSON.stringify({ payload: { deviceId, ...payload }, requestId: s.id, topic, type: 'result' }));
    }
  };
  const live: PeerLive = {
    push: (deviceId, values, ts = Date.now()) => publish(deviceId, 'message/property/report', { messageType: 'REPORT_PROPERTY', timestamp: ts, properties: values, headers: {} }),
    event: (deviceId, eventId, data, ts = Date.now()) => publish(deviceId, `message/event/${eventId}`, { messageType: 'EVENT', event: eventId, data, timestamp: ts, headers: {} }),
    connectivity(deviceId, online) {
      const d = world.devices.find((x) => x.id === deviceId);
      if (d) d.online = online;
      publish(deviceId, online ? 'online' : 'offline', { messageType: online ? 'ONLINE' : 'OFFLINE', timestamp: Date.now() });
    },
    drop: sockets.drop,
    subscribed: () => [...subs.values()].filter((l) => l.length > 0).length,
    opened: sockets.opened,
    invocations: [],
    answer: () => ({ status: 200, body: { message: '设备未响应', result: null, status: 504, code: 'timeout', timestamp: Date.now() } }),
  };
  return { ...peer, world, authorised: () => authorised, issued: () => [...tokens], live, close: () => sockets.close(() => peer.close()) };
}
