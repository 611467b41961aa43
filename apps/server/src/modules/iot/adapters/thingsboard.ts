import type { IotDeviceState } from '@ess/contract/iot';
import { thingsboardInvoke, thingsboardSubscribe } from './thingsboard.live.ts';
import { field, jsonCall, list, orNull, text, type JsonAnswer } from './http.ts';
import {
  MAX_PAGES, PAGE_SIZE, PlatformError, type PlatformAdapter, type PlatformCredentials, type PlatformDevice, type PlatformEvent, type PlatformProduct, type PlatformSession,
} from './types.ts';

/**
 * ThingsBoard (CE/PE REST API, https://thingsboard.io/docs/reference/rest-api/): sign in with
 * POST /api/auth/login ({ username, password } → { token, refreshToken }), then every call with
 * `X-Authorization: Bearer <token>`. Products are device profiles (GET /api/deviceProfiles,
 * paged: page, pageSize → { data, totalPages, totalElements, hasNext }); a profile's properties
 * are the telemetry and attribute keys its devices report (GET /api/deviceProfile/devices/keys/
 * timeseries|attributes?deviceProfileId=), its events the alarm types of its alarm rules
 * (profileData.alarms[].alarmType). Devices: GET /api/tenant/deviceInfos (paged; `active` is the
 * connectivity), one: GET /api/device/info/{id}. Errors answer { status, message, errorCode }.
 * ThingsBoard declares no RPC methods, so its products have no commands.
 */
const SEVERITIES = ['CRITICAL', 'MAJOR', 'MINOR', 'WARNING', 'INDETERMINATE'];

function failure(what: string, a: JsonAnswer): PlatformError {
  const message = text(field(a.body, 'message')) ?? `HTTP ${a.status}`;
  if (a.status === 401) return new PlatformError('auth', message);
  if (a.status === 404) return new PlatformError('notFound', message);
  return new PlatformError('protocol', `${what}: ${message}`);
}

function profileEvents(profile: unknown): PlatformEvent[] {
  const alarms = list(field(field(profile, 'profileData'), 'alarms'));
  const events: PlatformEvent[] = [];
  for (const a of alarms) {
    const type = text(field(a, 'alarmType'));
    if (!type || events.some((e) => e.identifier === type)) continue;
    const rules = field(a, 'createRules');
    const level = SEVERITIES.find((s) => field(rules, s) !== undefined) ?? null;
    events.push({ identifier: type, name: type, level, fields: [] });
  }
  return events;
}

function deviceOf(d: unknown): PlatformDevice {
  const id = text(field(field(d, 'id'), 'id'));
  const profileId = text(field(field(d, 'deviceProfileId'), 'id'));
  if (!id || !profileId) throw new PlatformError('protocol', 'device without id or deviceProfileId');
  const active = field(d, 'active');
  const state: IotDeviceState = active === true ? 'online' : active === false ? 'offline' : 'unknown';
  return { externalId: id, name: text(field(d, 'name')) ?? id, productExternalId: profileId, state };
}

export const thingsboardAdapter: PlatformAdapter = {
  platform: 'thingsboard',
  async login(c: PlatformCredentials): Promise<PlatformSession> {
    const a = await jsonCall(`${c.baseUrl}/api/auth/login`, { method: 'POST', body: { username: c.username, password: c.password }, timeoutMs: c.timeoutMs });
    if (a.status !== 200) throw failure('login', a);
    const token = text(field(a.body, 'token'));
    if (!token) throw new PlatformError('protocol', 'login answered no token');
    const headers = { 'X-Authorization': `Bearer ${token}` };
    const get = async (path: string, what: string) => {
      const r = await jsonCall(`${c.baseUrl}${path}`, { method: 'GET', headers, timeoutMs: c.timeoutMs });
      if (r.status !== 200) throw failure(what, r);
      return r.body;
    };
    const paged = async (path: string, what: string) => {
      const rows: unknown[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const sep = path.includes('?') ? '&' : '?';
        const body = await get(`${path}${sep}pageSize=${PAGE_SIZE}&page=${page}&sortProperty=createdTime&sortOrder=ASC`, what);
        const data = field(body, 'data');
        if (!Array.isArray(data)) throw new PlatformError('protocol', `${what}: page without data`);
        rows.push(...(data as unknown[]));
        if (field(body, 'hasNext') !== true) break;
      }
      return rows;
    };
    const keys = async (kind: 'timeseries' | 'attributes', profileId: string) =>
      list(await get(`/api/deviceProfile/devices/keys/${kind}?deviceProfileId=${encodeURIComponent(profileId)}`, `${kind} keys`)).filter((k): k is string => typeof k === 'string');
    const productOf = async (profile: unknown): Promise<PlatformProduct> => {
      const id = text(field(field(profile, 'id'), 'id'));
      if (!id) throw new PlatformError('protocol', 'device profile without id');
      const series = await keys('timeseries', id);
      const attributes = (await keys('attributes', id)).filter((k) => !series.includes(k));
      return {
        externalId: id,
        name: text(field(profile, 'name')) ?? id,
        description: text(field(profile, 'description')),
        properties: [
          ...series.map((k) => ({ identifier: k, name: k, dataType: 'unknown' as const, unit: null, source: 'timeseries' })),
          ...attributes.map((k) => ({ identifier: k, name: k, dataType: 'unknown' as const, unit: null, source: 'attribute' })),
        ],
        events: profileEvents(profile),
        commands: [],
      };
    };
    return {
      subscribe: (devices, sink) => thingsboardSubscribe(c.baseUrl, token, c.timeoutMs, devices, sink),
      invoke: (device, method, params, timeoutMs) => thingsboardInvoke(c.baseUrl, token, device, method, params, timeoutMs),
      async whoami() {
        const u = await get('/api/auth/user', 'current user');
        return text(field(u, 'email')) ?? text(field(u, 'name')) ?? c.username;
      },
      async products() {
        const profiles = await paged('/api/deviceProfiles', 'device profiles');
        const out: PlatformProduct[] = [];
        for (const p of profiles) out.push(await productOf(p));
        return out;
      },
      product: (id) => orNull(async () => productOf(await get(`/api/deviceProfile/${encodeURIComponent(id)}`, 'device profile'))),
      async devices() {
        return (await paged('/api/tenant/deviceInfos', 'devices')).map(deviceOf);
      },
      device: (id) => orNull(async () => deviceOf(await get(`/api/device/info/${encodeURIComponent(id)}`, 'device'))),
    };
  },
};
