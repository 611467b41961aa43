import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DeviceType, TelemetryValue } from '@ess/contract';
import { THING_MODEL } from '@ess/contract';
import type { StationDef } from './fleet.ts';

/**
 * The simulator playing a ThingsBoard platform (decision 0055) for the devices of one station:
 * the subset of ThingsBoard's published REST and WebSocket API (https://thingsboard.io/docs/
 * reference/rest-api/, …/user-guide/telemetry/#websocket-api) an integration reads. One device
 * profile per device type of the station (its telemetry keys: the type's thing-model properties;
 * its alarm rules: the type's fault codes), one device per simulated device (named by its code,
 * labelled by its name). The agent hands it what the devices report (telemetry, faults as
 * alarms, connectivity as the `active` server attribute); a two-way RPC runs the command on the
 * simulated device and answers its reply. Never part of the product: the server does not import it.
 *
 * REST: POST /api/auth/login → JWT; then `X-Authorization: Bearer <JWT>`: GET /api/auth/user,
 * /api/deviceProfiles and /api/tenant/deviceInfos (paged: page, pageSize → data, totalPages,
 * totalElements, hasNext), /api/deviceProfile/{id}, /api/device/info/{id},
 * /api/deviceProfile/devices/keys/timeseries|attributes?deviceProfileId=,
 * /api/plugins/telemetry/DEVICE/{id}/keys/timeseries, /api/plugins/telemetry/DEVICE/{id}/values/timeseries,
 * /api/plugins/telemetry/DEVICE/{id}/values/attributes, POST /api/plugins/rpc/twoway/{id}.
 * WebSocket /api/ws/plugins/telemetry?token=<JWT>: tsSubCmds (LATEST_TELEMETRY), attrSubCmds
 * (`active`), alarmDataCmds (the devices' alarms: ALARM_DATA updates).
 */

/** ThingsBoard's documented demo tenant administrator (the demo's IoT application signs in with it). */
export const DEMO_PLATFORM_USER = 'tenant@thingsboard.org';
export const DEMO_PLATFORM_PASSWORD = 'tenant';
/** Where `npm start` serves it (SIM_IOT_PLATFORM), beside the demo hook's receiver on 8628. */
export const DEMO_PLATFORM_PORT = 8629;
/** The demo station whose devices report through the platform. */
export const DEMO_PLATFORM_STATION = 'BE01';

/** What the platform needs of the simulated station. */
export interface PlatformSource {
  station: StationDef;
  /**
   * Runs a command on a simulated device (the MQTT command body: command, params); its reply, or
   * null when the device is out of touch and does not answer.
   */
  command(deviceCode: string, command: string, params: unknown): Promise<{ ok: boolean; result?: Record<string, unknown>; error?: string } | null>;
}

export interface ThingsBoardPlatform {
  url: string;
  /** A device's telemetry report (pushed to the subscribed sockets, kept as its latest values). */
  telemetry(deviceCode: string, ts: number, values: Record<string, TelemetryValue>): void;
  /** A fault raised or cleared: the device's alarm of that type created or cleared. */
  fault(deviceCode: string, code: string, active: boolean, message: string, ts: number): void;
  /** The device's connectivity (the `active` server attribute). */
  connectivity(deviceCode: string, online: boolean, ts: number): void;
  /** The RPCs it served (device code, method), oldest first. */
  readonly rpcs: readonly { deviceCode: string; method: string }[];
  close(): Promise<void>;
}

export interface PlatformOptions {
  source: PlatformSource;
  port: number;
  host?: string;
  username?: string;
  password?: string;
  /** Wall-clock ms an RPC waits for a device that does not answer (capped by the request's timeout). */
  rpcTimeoutMs?: number;
}

/** Stable ThingsBoard-style UUIDs from a name (the same ids after every restart). */
export function platformId(kind: string, name: string): string {
  const h = createHash('sha1').update(`${kind}:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const SEVERITY = ['CRITICAL', 'CRITICAL', 'MAJOR', 'MINOR', 'WARNING', 'INDETERMINATE'];
const TENANT = { entityType: 'TENANT', id: platformId('tenant', 'demo') };
const CREATED = Date.UTC(2024, 0, 1);

interface Alarm {
  id: string;
  type: string;
  deviceId: string;
  deviceName: string;
  severity: string;
  startTs: number;
  clearTs: number;
  cleared: boolean;
  message: string;
}
interface Sub {
  cmdId: number;
  kind: 'ts' | 'attr' | 'alarm';
  devices: Set<string>;
}

export async function startThingsBoardPlatform(o: PlatformOptions): Promise<ThingsBoardPlatform> {
  const username = o.username ?? DEMO_PLATFORM_USER;
  const password = o.password ?? DEMO_PLATFORM_PASSWORD;
  const station = o.source.station;
  const types = [...new Set(station.devices.map((d) => d.type))];
  const profiles = types.map((type) => ({ type, id: platformId('profile', `${station.code}:${type}`), name: THING_MODEL[type].label }));
  const devices = station.devices.map((d) => ({ def: d, id: platformId('device', d.code), profileId: profiles.find((p) => p.type === d.type)!.id }));
  const byId = new Map(devices.map((d) => [d.id, d]));
  const byCode = new Map(devices.map((d) => [d.def.code, d]));
  const latest = new Map<string, Record<string, [number, string]>>();
  const active = new Map<string, { ts: number; online: boolean }>();
  const alarms = new Map<string, Alarm>(); // by device id + type: the latest alarm of that type
  const tokens = new Set<string>();
  const subs = new Map<WebSocket, Sub[]>();
  const rpcs: { deviceCode: string; method: string }[] = [];

  const profileOf = (p: (typeof profiles)[number]) => ({
    id: { entityType: 'DEVICE_PROFILE', id: p.id }, createdTime: CREATED, tenantId: TENANT, name: p.name, description: `${station.name} · ${p.type}`,
    type: 'DEFAULT', transportType: 'DEFAULT', provisionType: 'DISABLED', default: false,
    profileData: {
      configuration: { type: 'DEFAULT' }, transportConfiguration: { type: 'DEFAULT' },
      alarms: THING_MODEL[p.type].events.map((e) => ({
        id: platformId('alarm-rule', `${p.type}:${e.code}`), alarmType: e.code, propagate: false,
        createRules: { [SEVERITY[e.level] ?? 'MAJOR']: { condition: { condition: [{ key: { type: 'TIME_SERIES', key: 'faultCode' }, valueType: 'STRING' }] } } },
        clearRule: null,
      })),
    },
  });
  const deviceOf = (d: (typeof devices)[number]) => {
    const p = profiles.find((x) => x.id === d.profileId)!;
    const a = active.get(d.id);
    return {
      id: { entityType: 'DEVICE', id: d.id }, createdTime: CREATED, tenantId: TENANT, name: d.def.code, label: d.def.name, type: p.name,
      deviceProfileId: { entityType: 'DEVICE_PROFILE', id: p.id }, deviceProfileName: p.name, customerTitle: null, customerIsPublic: false,
      active: a?.online ?? false,
    };
  };
  const keysOf = (type: DeviceType) => THING_MODEL[type].properties.map((p) => p.identifier);
  const alarmOf = (a: Alarm) => ({
    id: { entityType: 'ALARM', id: a.id }, createdTime: a.startTs, tenantId: TENANT, type: a.type,
    originator: { entityType: 'DEVICE', id: a.deviceId }, originatorName: a.deviceName, severity: a.severity,
    status: a.cleared ? 'CLEARED_UNACK' : 'ACTIVE_UNACK', acknowledged: false, cleared: a.cleared,
    startTs: a.startTs, endTs: a.cleared ? a.clearTs : a.startTs, ackTs: 0, clearTs: a.cleared ? a.clearTs : 0,
    details: { message: a.message }, propagate: false, entityId: { entityType: 'DEVICE', id: a.deviceId }, latest: {},
  });

  const send = (ws: WebSocket, m: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const tsUpdate = (cmdId: number, data: Record<string, [number, string | boolean][]>) => ({
    subscriptionId: cmdId, errorCode: 0, errorMsg: null, data, latestValues: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v[0]?.[0] ?? 0])),
  });
  const fanOut = (deviceId: string, kind: Sub['kind'], message: (cmdId: number) => unknown) => {
    for (const [ws, list] of subs) for (const s of list) if (s.kind === kind && s.devices.has(deviceId)) send(ws, message(s.cmdId));
  };

  // ---- REST
  const err = (status: number, message: string, errorCode: number) => ({ status, body: { status, message, errorCode, timestamp: Date.now() } });
  const paged = (q: URLSearchParams, rows: unknown[]) => {
    const pageSize = Number(q.get('pageSize'));
    const page = Number(q.get('page'));
    if (!q.has('pageSize') || !Number.isInteger(pageSize) || pageSize < 1) return err(400, "Required request parameter 'pageSize' for method parameter type int is not present", 31);
    if (!q.has('page') || !Number.isInteger(page) || page < 0) return err(400, "Required request parameter 'page' for method parameter type int is not present", 31);
    const totalPages = Math.ceil(rows.length / pageSize);
    return { status: 200, body: { data: rows.slice(page * pageSize, (page + 1) * pageSize), totalPages, totalElements: rows.length, hasNext: page + 1 < totalPages } };
  };
  const notFound = () => err(404, "Requested item wasn't found!", 32);

  const rpc = async (deviceId: string, body: Record<string, unknown>) => {
    const d = byId.get(deviceId);
    if (!d) return notFound();
    if (typeof body.method !== 'string' || body.method === '') return err(400, 'Invalid request body', 31);
    rpcs.push({ deviceCode: d.def.code, method: body.method });
    const waitMs = Math.min(Number(body.timeout) > 0 ? Number(body.timeout) : 10_000, o.rpcTimeoutMs ?? 10_000);
    const reply = await o.source.command(d.def.code, body.method, body.params ?? {});
    if (!reply) {
      await new Promise((r) => setTimeout(r, waitMs));
      return err(504, 'Request timeout', 33);
    }
    // Two-way RPC: the device's reply as it sent it.
    return { status: 200, body: reply };
  };

  const route = async (method: string, path: string, q: URLSearchParams, headers: IncomingMessage['headers'], raw: string): Promise<{ status: number; body: unknown }> => {
    const jsonBody = (): Record<string, unknown> | null => {
      if (!String(headers['content-type'] ?? '').startsWith('application/json')) return null;
      try {
        const b = JSON.parse(raw) as unknown;
        return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    };
    if (method === 'POST' && path === '/api/auth/login') {
      const b = jsonBody();
      if (!b) return err(400, 'Invalid request body', 31);
      if (b.username !== username || b.password !== password) return err(401, 'Invalid username or password', 10);
      const token = `${Buffer.from(JSON.stringify({ alg: 'HS512' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: username, scopes: ['TENANT_ADMIN'] })).toString('base64url')}.${randomBytes(16).toString('base64url')}`;
      tokens.add(token);
      return { status: 200, body: { token, refreshToken: randomBytes(16).toString('base64url') } };
    }
    const auth = String(headers['x-authorization'] ?? '');
    if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7))) return err(401, 'Authentication failed', 10);
    const m = (re: RegExp) => re.exec(path);
    let x: RegExpExecArray | null;
    if (method === 'POST' && (x = m(/^\/api\/plugins\/rpc\/twoway\/([^/]+)$/))) {
      const b = jsonBody();
      return b ? rpc(decodeURIComponent(x[1]!), b) : err(400, 'Invalid request body', 31);
    }
    if (method !== 'GET') return err(405, 'Request method not supported', 2);
    if (path === '/api/auth/user') return { status: 200, body: { id: { entityType: 'USER', id: platformId('user', username) }, email: username, authority: 'TENANT_ADMIN', firstName: 'Demo', lastName: 'Tenant', tenantId: TENANT } };
    if (path === '/api/deviceProfiles') return paged(q, profiles.map(profileOf));
    if (path === '/api/tenant/deviceInfos') return paged(q, devices.map(deviceOf));
    if ((x = m(/^\/api\/deviceProfile\/devices\/keys\/(timeseries|attributes)$/))) {
      const p = profiles.find((y) => y.id === q.get('deviceProfileId'));
      if (!p) return { status: 200, body: [] };
      return { status: 200, body: x[1] === 'timeseries' ? keysOf(p.type) : ['active', 'lastActivityTime'] };
    }
    if ((x = m(/^\/api\/deviceProfile\/([^/]+)$/))) {
      const p = profiles.find((y) => y.id === decodeURIComponent(x![1]!));
      return p ? { status: 200, body: profileOf(p) } : notFound();
    }
    if ((x = m(/^\/api\/device\/info\/([^/]+)$/))) {
      const d = byId.get(decodeURIComponent(x[1]!));
      return d ? { status: 200, body: deviceOf(d) } : notFound();
    }
    if ((x = m(/^\/api\/plugins\/telemetry\/DEVICE\/([^/]+)\/(keys\/timeseries|values\/timeseries|values\/attributes)$/))) {
      const d = byId.get(decodeURIComponent(x[1]!));
      if (!d) return notFound();
      if (x[2] === 'keys/timeseries') return { status: 200, body: keysOf(d.def.type) };
      if (x[2] === 'values/attributes') {
        const a = active.get(d.id);
        return { status: 200, body: [{ key: 'active', value: a?.online ?? false, lastUpdateTs: a?.ts ?? CREATED }] };
      }
      const wanted = q.get('keys')?.split(',').filter(Boolean);
      const l = latest.get(d.id) ?? {};
      return { status: 200, body: Object.fromEntries(Object.entries(l).filter(([k]) => !wanted || wanted.includes(k)).map(([k, [ts, value]]) => [k, [{ ts, value }]])) };
    }
    return err(404, 'Not found', 32);
  };

  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://platform');
      route(req.method ?? 'GET', u.pathname, u.searchParams, req.headers, Buffer.concat(chunks).toString('utf8'))
        .catch((e: unknown) => err(500, (e as Error).message, 2))
        .then((a) => {
          res.writeHead(a.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(a.body));
        })
        .catch(() => res.destroy());
    });
  });

  // ---- WebSocket /api/ws/plugins/telemetry?token=<JWT>
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const u = new URL(req.url ?? '/', 'http://platform');
    if (u.pathname !== '/api/ws/plugins/telemetry' || !tokens.has(u.searchParams.get('token') ?? '')) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      subs.set(ws, []);
      ws.on('close', () => subs.delete(ws));
      ws.on('message', (data) => {
        let cmd: Record<string, unknown>;
        try {
          cmd = JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>;
        } catch {
          return;
        }
        subscribe(ws, cmd);
      });
    });
  });

  type Cmd = { cmdId?: unknown; entityId?: unknown; keys?: unknown; unsubscribe?: unknown; query?: { entityFilter?: { entityList?: unknown } } };
  const list = (v: unknown): Cmd[] => (Array.isArray(v) ? (v as Cmd[]) : []);
  const subscribe = (ws: WebSocket, cmd: Record<string, unknown>) => {
    const mine = subs.get(ws);
    if (!mine) return;
    /** One device's subscription (telemetry or attributes): the device, or the platform's refusal sent. */
    const subscribed = (c: Cmd, kind: 'ts' | 'attr') => {
      const cmdId = Number(c.cmdId);
      const d = byId.get(String(c.entityId));
      if (!d) send(ws, { subscriptionId: cmdId, errorCode: 32, errorMsg: 'Device not found', data: {} });
      else mine.push({ cmdId, kind, devices: new Set([d.id]) });
      return d ? { cmdId, d } : null;
    };
    for (const c of list(cmd.tsSubCmds)) {
      const s = subscribed(c, 'ts');
      // The first update: the latest values.
      if (s) send(ws, tsUpdate(s.cmdId, Object.fromEntries(Object.entries(latest.get(s.d.id) ?? {}).map(([k, v]) => [k, [v]]))));
    }
    for (const c of list(cmd.attrSubCmds)) {
      const s = subscribed(c, 'attr');
      const a = s && active.get(s.d.id);
      if (s && a && (typeof c.keys === 'string' ? c.keys : 'active').split(',').includes('active')) send(ws, tsUpdate(s.cmdId, { active: [[a.ts, a.online]] }));
    }
    for (const c of list(cmd.alarmDataCmds)) {
      const cmdId = Number(c.cmdId);
      const wanted = c.query?.entityFilter?.entityList;
      const ids = new Set((Array.isArray(wanted) ? wanted : []).map(String).filter((id) => byId.has(id)));
      mine.push({ cmdId, kind: 'alarm', devices: ids });
      // The first update: the page of the devices' active alarms.
      const page = [...alarms.values()].filter((a) => !a.cleared && ids.has(a.deviceId)).map(alarmOf);
      send(ws, { cmdId, cmdUpdateType: 'ALARM_DATA', errorCode: 0, errorMsg: null, data: { data: page, totalPages: 1, totalElements: page.length, hasNext: false }, update: null, allowedEntities: ids.size, totalEntities: ids.size });
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;

  return {
    url: `http://${o.host ?? '127.0.0.1'}:${address.port}`,
    rpcs,
    telemetry(deviceCode, ts, values) {
      const d = byCode.get(deviceCode);
      if (!d) return;
      const l = latest.get(d.id) ?? {};
      const data: Record<string, [number, string][]> = {};
      for (const [k, v] of Object.entries(values)) {
        // ThingsBoard answers every value as text.
        l[k] = [ts, String(v)];
        data[k] = [[ts, String(v)]];
      }
      latest.set(d.id, l);
      fanOut(d.id, 'ts', (cmdId) => tsUpdate(cmdId, data));
    },
    fault(deviceCode, code, on, message, ts) {
      const d = byCode.get(deviceCode);
      if (!d) return;
      const key = `${d.id}|${code}`;
      const before = alarms.get(key);
      if (on && before && !before.cleared) return;
      if (!on && (!before || before.cleared)) return;
      const level = THING_MODEL[d.def.type].events.find((e) => e.code === code)?.level ?? 2;
      const a: Alarm = on
        ? { id: platformId('alarm', `${key}|${ts}`), type: code, deviceId: d.id, deviceName: d.def.code, severity: SEVERITY[level] ?? 'MAJOR', startTs: ts, clearTs: 0, cleared: false, message }
        : { ...before!, cleared: true, clearTs: ts };
      alarms.set(key, a);
      fanOut(d.id, 'alarm', (cmdId) => ({ cmdId, cmdUpdateType: 'ALARM_DATA', errorCode: 0, errorMsg: null, data: null, update: [alarmOf(a)], allowedEntities: 0, totalEntities: 0 }));
    },
    connectivity(deviceCode, online, ts) {
      const d = byCode.get(deviceCode);
      if (!d) return;
      active.set(d.id, { ts, online });
      fanOut(d.id, 'attr', (cmdId) => tsUpdate(cmdId, { active: [[ts, online]] }));
    },
    close: async () => {
      for (const ws of subs.keys()) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
