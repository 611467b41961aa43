/**
 * One publisher process of bench/ingest: publishes telemetry reports (QoS 1, ts = publish time)
 * for its devices at the rate the parent asks, round-robin, each device's seq counting up.
 */
import { connectAsync } from 'mqtt';

export interface PublisherDevice {
  site: string;
  code: string;
}

export type ToPublisher =
  | { type: 'init'; url: string; devices: PublisherDevice[]; identifiers: string[] }
  | { type: 'stage'; reportsPerSecond: number; seconds: number }
  | { type: 'exit' };

export type FromPublisher = { type: 'ready' } | { type: 'stageDone'; published: number; acked: number; skippedTicks: number };

const send = (m: FromPublisher) => process.send?.(m);

let devices: PublisherDevice[] = [];
let identifiers: string[] = [];
let client: Awaited<ReturnType<typeof connectAsync>> | null = null;
const seq = new Map<string, number>();
let next = 0;
let published = 0;
let acked = 0;
/** Unacknowledged publishes allowed before a tick is skipped (the broker is behind). */
const WINDOW = 20_000;

/**
 * Per device, the JSON of its values, rebuilt every few reports so values move the way
 * measurements do; the envelope ({ ts, seq, values }) is concatenated around it, which keeps the
 * publishers (on the same 2 cores as the server) cheap.
 */
const cached = new Map<string, { json: string; uses: number }>();
function valuesJson(code: string): string {
  let c = cached.get(code);
  if (!c || c.uses >= 8) {
    const values = Object.fromEntries(identifiers.map((id, i) => [id, Math.round((i * 7.3 + code.length * 3.1 + Math.random() * 50) * 100) / 100]));
    c = { json: JSON.stringify(values), uses: 0 };
    cached.set(code, c);
  }
  c.uses++;
  return c.json;
}

function publishOne(): void {
  const d = devices[next]!;
  next = (next + 1) % devices.length;
  const s = (seq.get(d.code) ?? 0) + 1;
  seq.set(d.code, s);
  const payload = `{"ts":${Date.now()},"seq":${s},"values":${valuesJson(d.code)}}`;
  published++;
  client!.publish(`ess/${d.site}/${d.code}/telemetry`, payload, { qos: 1 }, (err) => {
    if (!err) acked++;
  });
}

async function stage(reportsPerSecond: number, seconds: number): Promise<void> {
  const p0 = published;
  const a0 = acked;
  let skippedTicks = 0;
  const tickMs = 10;
  const start = performance.now();
  const end = start + seconds * 1000;
  let due = 0;
  while (performance.now() < end) {
    const elapsed = performance.now() - start;
    const target = Math.floor((elapsed / 1000) * reportsPerSecond);
    if (published - acked > WINDOW) skippedTicks++;
    else {
      due = target - (published - p0);
      for (let i = 0; i < due; i++) publishOne();
    }
    await new Promise((r) => setTimeout(r, tickMs));
  }
  // Wait for the broker's acknowledgements of this stage (bounded).
  const waitEnd = Date.now() + 10_000;
  while (acked < published && Date.now() < waitEnd) await new Promise((r) => setTimeout(r, 10));
  send({ type: 'stageDone', published: published - p0, acked: acked - a0, skippedTicks });
}

process.on('message', (m: ToPublisher) => {
  void (async () => {
    if (m.type === 'init') {
      devices = m.devices;
      identifiers = m.identifiers;
      client = await connectAsync(m.url, { clientId: `bench-pub-${process.pid}`, clean: true });
      send({ type: 'ready' });
    } else if (m.type === 'stage') {
      await stage(m.reportsPerSecond, m.seconds);
    } else {
      await client?.endAsync();
      process.exit(0);
    }
  })();
});
