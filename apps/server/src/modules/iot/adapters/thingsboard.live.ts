import { field, jsonCall, text } from './http.ts';
import type { InvokeOutcome, LiveSink, LiveStream, LiveTarget } from './types.ts';
import { openSocket, wsBase } from './ws.ts';

/**
 * ThingsBoard's live side (https://thingsboard.io/docs/user-guide/telemetry/#websocket-api):
 * WebSocket /api/ws/plugins/telemetry?token=<JWT>, one message with `tsSubCmds` (each device's
 * LATEST_TELEMETRY) and `attrSubCmds` (its SERVER_SCOPE `active` attribute, the connectivity),
 * each command with a cmdId; updates come as { subscriptionId: cmdId, errorCode, errorMsg,
 * data: { key: [[ts, value], …] } } (values as text). Commands: two-way server-side RPC, POST
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
  const socket = await openSocket(`${wsBase(baseUrl)}/api/ws/plugins/telemetry?token=${encodeURIComponent(token)}`, timeoutMs, (m) => {
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
  socket.send({ tsSubCmds, historyCmds: [], attrSubCmds });
  return socket;
}

export async function thingsboardInvoke(baseUrl: string, token: string, device: LiveTarget, method: string, params: Record<string, unknown>, timeoutMs: number): Promise<InvokeOutcome> {
  const a = await jsonCall(`${baseUrl}/api/plugins/rpc/twoway/${encodeURIComponent(device.externalId)}`, {
    method: 'POST', headers: { 'X-Authorization': `Bearer ${token}` }, body: { method, params, timeout: timeoutMs }, timeoutMs: timeoutMs + 5000,
  });
  if (a.status === 408 || a.status === 504) return { kind: 'timeout' };
  if (a.status !== 200) return { kind: 'answer', ok: false, error: text(field(a.body, 'message')) ?? `HTTP ${a.status}` };
  const body = a.body;
  return { kind: 'answer', ok: true, result: body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body } };
}
