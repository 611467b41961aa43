import { field, jsonCall, text } from './http.ts';
import type { InvokeOutcome, LiveSink, LiveStream, LiveTarget } from './types.ts';
import { openSocket, wsBase } from './ws.ts';

/**
 * JetLinks' live side (dev-guide/websocket-subs): WebSocket /messaging/{token}; subscriptions
 * { type: 'sub', topic, id, parameter } per product for /device/{productId}/*\/message/property/
 * report, …/message/event/*, …/online and …/offline; pushes { type: 'result', requestId, topic,
 * payload } with the platform's device message (deviceId, timestamp, properties / event + data);
 * a refused token answers { type: 'authError' } and closes. Commands: POST
 * /device/instance/{deviceId}/function/{functionId} with the inputs as the body → the envelope
 * with the output in `result`; a device that did not answer: code `timeout` (or HTTP 504).
 */
const TOPICS = [
  ['report', 'message/property/report'],
  ['event', 'message/event/*'],
  ['online', 'online'],
  ['offline', 'offline'],
] as const;

export async function jetlinksSubscribe(baseUrl: string, token: string, timeoutMs: number, devices: readonly LiveTarget[], sink: LiveSink): Promise<LiveStream> {
  const wanted = new Set(devices.map((d) => d.externalId));
  const products = [...new Set(devices.map((d) => d.productExternalId))];
  const socket = await openSocket(`${wsBase(baseUrl)}/messaging/${encodeURIComponent(token)}`, timeoutMs, (m) => {
    const type = text(field(m, 'type'));
    if (type === 'authError') return socket.end(`authError: ${text(field(m, 'message')) ?? 'token refused'}`);
    if (type === 'error') return socket.end(`subscription error: ${text(field(m, 'message')) ?? 'unknown'}`);
    if (type !== 'result') return;
    const kind = text(field(m, 'requestId'))?.split(':')[0];
    const p = field(m, 'payload');
    const deviceId = text(field(p, 'deviceId'));
    if (!deviceId || !wanted.has(deviceId)) return;
    const ts = typeof field(p, 'timestamp') === 'number' ? (field(p, 'timestamp') as number) : Date.now();
    if (kind === 'report') {
      const props = field(p, 'properties');
      if (props && typeof props === 'object') sink.telemetry(deviceId, Object.entries(props as Record<string, unknown>).map(([key, value]) => ({ key, ts, value })));
    } else if (kind === 'event') {
      const event = text(field(p, 'event'));
      if (event) sink.event(deviceId, event, ts, field(p, 'data'));
    } else if (kind === 'online' || kind === 'offline') sink.connectivity(deviceId, kind === 'online', ts);
  });
  for (const product of products) {
    for (const [kind, tail] of TOPICS) socket.send({ type: 'sub', topic: `/device/${product}/*/${tail}`, id: `${kind}:${product}`, parameter: {} });
  }
  return socket;
}

export async function jetlinksInvoke(baseUrl: string, token: string, device: LiveTarget, method: string, params: Record<string, unknown>, timeoutMs: number): Promise<InvokeOutcome> {
  const a = await jsonCall(`${baseUrl}/device/instance/${encodeURIComponent(device.externalId)}/function/${encodeURIComponent(method)}`, {
    method: 'POST', headers: { 'X-Access-Token': token }, body: params, timeoutMs: timeoutMs + 5000,
  });
  const code = text(field(a.body, 'code'));
  if (a.status === 504 || a.status === 408 || code === 'timeout') return { kind: 'timeout' };
  const status = field(a.body, 'status');
  if (a.status !== 200 || (status !== undefined && status !== 200)) return { kind: 'answer', ok: false, error: text(field(a.body, 'message')) ?? `HTTP ${a.status}` };
  const result = field(a.body, 'result');
  return { kind: 'answer', ok: true, result: { output: result ?? null } };
}
