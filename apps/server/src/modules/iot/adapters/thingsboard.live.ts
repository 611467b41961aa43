import { field, jsonCall, list, text } from './http.ts';
import type { InvokeOutcome, LiveSink, LiveStream, LiveTarget } from './types.ts';
import { openSocket, wsBase } from './ws.ts';

/**
 * ThingsBoard's live side (https://thingsboard.io/docs/user-guide/telemetry/#websocket-api):
 * WebSocket /api/ws/plugins/telemetry?token=<JWT>, one message with `tsSubCmds` (each device's
 * LATEST_TELEMETRY) and `attrSubCmds` (its SERVER_SCOPE `active` attribute, the connectivity),
 * each command with a cmdId; updates come as { subscriptionId: cmdId, errorCode, errorMsg,
 * data: { key: [[ts, value], …] } } (values as text). Alarms: one `alarmDataCmds` entry (the
 * entity-data query API, https://thingsboard.io/docs/user-guide/alarms/) over the devices (entity
 * list), its updates { cmdId, cmdUpdateType: 'ALARM_DATA', data: { data: [alarm…] } (the first:
 * the page of active alarms) | update: [alarm…] }; each alarm is an event of its `type` with
 * { state: ACTIVE | CLEARED, status, severity, message } (a relation's value map on `state`
 * raises or clears the fault). Commands: two-way server-side RPC, POST
 * /api/plugins/rpc/twoway/{deviceId} { method, params, timeout } → the device's answer (200),
 * 408 / 504 when the device did not answer in time.
 */
export async function thingsboardSubscribe(baseUrl: string, token: string, timeoutMs: number, devices: readonly LiveTarget[], sink: LiveSink): Promise<LiveStream> {
  const subs = new Map<number, { device: string; kind: 'ts' | 'attr' }>();
  const tsSubCmds: unknown[] = [];
  const attrSubCmds: unknown[] = [];
  devices.forEach((d, i) => {
    const ts = i * 2 + 1;
    const attr = i * 2 + 2;
    subs.set(ts, { device: d.externalId, kind: 'ts' });
    subs.set(attr, { device: d.externalId, kind: 'attr' });
    tsSubCmds.push({ entityType: 'DEVICE', entityId: d.externalId, scope: 'LATEST_TELEMETRY', cmdId: ts });
    attrSubCmds.push({ entityType: 'DEVICE', entityId: d.externalId, scope: 'SERVER_SCOPE', keys: 'active', cmdId: attr });
  });
  const alarmCmd = devices.length * 2 + 1;
  const known = new Set(devices.map((d) => d.externalId));
  const alarm = (a: unknown) => {
    const type = text(field(a, 'type'));
    const device = text(field(field(a, 'originator'), 'id')) ?? text(field(field(a, 'entityId'), 'id'));
    if (!type || !device || !known.has(device)) return;
    const status = text(field(a, 'status')) ?? '';
    const cleared = field(a, 'cleared') === true || status.startsWith('CLEARED');
    const at = (k: string) => {
      const v = field(a, k);
      return typeof v === 'number' && v > 0 ? v : null;
    };
    const ts = (cleared ? at('clearTs') ?? at('endTs') : at('startTs')) ?? at('createdTime') ?? Date.now();
    sink.event(device, type, ts, { state: cleared ? 'CLEARED' : 'ACTIVE', status, severity: text(field(a, 'severity')), message: text(field(field(a, 'details'), 'message')) });
  };
  const socket = await openSocket(`${wsBase(baseUrl)}/api/ws/plugins/telemetry?token=${encodeURIComponent(token)}`, timeoutMs, (m) => {
    if (field(m, 'cmdUpdateType') === 'ALARM_DATA' && Number(field(m, 'cmdId')) === alarmCmd) {
      const code = Number(field(m, 'errorCode') ?? 0);
      if (code !== 0) {
        socket.end(`alarm subscription refused: ${text(field(m, 'errorMsg')) ?? `error ${code}`}`);
        return;
      }
      for (const a of list(field(field(m, 'data'), 'data'))) alarm(a);
      for (const a of list(field(m, 'update'))) alarm(a);
      return;
    }
    const sub = subs.get(Number(field(m, 'subscriptionId')));
    if (!sub) return;
    const code = Number(field(m, 'errorCode') ?? 0);
    if (code !== 0) {
      socket.end(`subscription refused: ${text(field(m, 'errorMsg')) ?? `error ${code}`}`);
      return;
    }
    const data = field(m, 'data');
    if (!data || typeof data !== 'object') return;
    const points: { key: string; ts: number; value: unknown }[] = [];
    for (const [key, series] of Object.entries(data as Record<string, unknown>)) {
      if (!Array.isArray(series)) continue;
      for (const p of series) {
        if (!Array.isArray(p) || typeof p[0] !== 'number') continue;
        if (sub.kind === 'attr') {
          if (key === 'active') sink.connectivity(sub.device, p[1] === true || p[1] === 'true', p[0]);
        } else points.push({ key, ts: p[0], value: p[1] });
      }
    }
    if (points.length) sink.telemetry(sub.device, points);
  });
  const alarmDataCmds = devices.length === 0 ? [] : [{
    cmdId: alarmCmd,
    query: {
      entityFilter: { type: 'entityList', entityType: 'DEVICE', entityList: devices.map((d) => d.externalId) },
      pageLink: { page: 0, pageSize: 1024, searchPropagatedAlarms: false, statusList: ['ACTIVE'], sortOrder: { key: { type: 'ALARM_FIELD', key: 'createdTime' }, direction: 'DESC' }, timeWindow: 7 * 24 * 3600 * 1000 },
      alarmFields: ['createdTime', 'type', 'severity', 'status', 'originator'].map((key) => ({ type: 'ALARM_FIELD', key })),
      entityFields: [], latestValues: [],
    },
  }];
  socket.send({ tsSubCmds, historyCmds: [], attrSubCmds, alarmDataCmds });
  return socket;
}

export async function thingsboardInvoke(baseUrl: string, token: string, device: LiveTarget, method: string, params: Record<string, unknown>, timeoutMs: number): Promise<InvokeOutcome> {
  const a = await jsonCall(`${baseUrl}/api/plugins/rpc/twoway/${encodeURIComponent(device.externalId)}`, {
    method: 'POST', headers: { 'X-Authorization': `Bearer ${token}` }, body: { method, params, timeout: timeoutMs }, timeoutMs: timeoutMs + 5000,
  });
  if (a.status === 408 || a.status === 504) return { kind: 'timeout' };
  if (a.status !== 200) return { kind: 'answer', ok: false, error: text(field(a.body, 'message')) ?? `HTTP ${a.status}` };
  const body = a.body;
  // A device that answers the console's reply shape with ok: false refused the command.
  if (field(body, 'ok') === false) return { kind: 'answer', ok: false, error: text(field(body, 'error')) ?? 'refused by the device' };
  const inner = field(body, 'result');
  if (field(body, 'ok') === true && inner && typeof inner === 'object' && !Array.isArray(inner)) return { kind: 'answer', ok: true, result: inner as Record<string, unknown> };
  return { kind: 'answer', ok: true, result: body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body } };
}
