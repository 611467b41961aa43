/**
 * One publisher process of bench/ingest: publishes telemetry reports (QoS 1, ts = publish time)
 * for its devices at the rate the parent asks, round-robin, each device's seq counting up. A meter
 * (main or storage, see meters.ts) reports its registers on the meters' time-lapse clock instead.
 */
import { connectAsync } from 'mqtt';
import { advance, powerAt, startRegisters, STEP_MS, type MeterRegisters, type MeterRole } from './meters.ts';

export interface PublisherDevice {
  site: string;
  code: string;
  /** A meter of the demand sink's, with its station's number; absent for the 50-point devices. */
  meter?: { role: MeterRole; station: number };
}

export type ToPublisher =
  | { type: 'init'; url: string; devices: PublisherDevice[]; identifiers: string[]; meterEpoch: number }
  | { type: 'meterReadings' }
  | { type: 'stage'; reportsPerSecond: number; seconds: number }
  | { type: 'exit' };

export type FromPublisher =
  | { type: 'ready' }
  | { type: 'stageDone'; published: number; publishedPoints: number; meterReports: number; acked: number; skippedTicks: number }
  | { type: 'meterReadings'; readings: Record<string, number> };

const send = (m: FromPublisher) => process.send?.(m);

let devices: PublisherDevice[] = [];
let identifiers: string[] = [];
let client: Awaited<ReturnType<typeof connectAsync>> | null = null;
const seq = new Map<string, number>();
let next = 0;
let published = 0;
let publishedPoints = 0;
let meterReports = 0;
let acked = 0;
let points = 0;
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

/** Per meter its registers and the highest power so far (its max-demand register). */
const meters = new Map<string, { reg: MeterRegisters; maxKw: number; maxTs: number }>();
let epoch = 0;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Reading k of a meter (seq k + 1): the registers after k steps, the power of step k. */
function meterPayload(d: PublisherDevice & { meter: { role: MeterRole; station: number } }, s: number): string {
  const { role, station } = d.meter;
  let m = meters.get(d.code);
  if (!m) {
    m = { reg: startRegisters(role, station), maxKw: 0, maxTs: epoch };
    meters.set(d.code, m);
  }
  const k = s - 1;
  const ts = epoch + k * STEP_MS;
  const kw = powerAt(role, station, k);
  if (Math.abs(kw) > m.maxKw) {
    m.maxKw = Math.abs(kw);
    m.maxTs = ts;
  }
  const { forward: f, reverse: r } = m.reg;
  const amps = Math.abs(kw) / 0.38 / 1.732 / 0.98;
  const values = {
    activePower: kw, reactivePower: r3(kw * 0.2), powerFactor: 0.98, voltageA: 220.1, voltageB: 219.8, voltageC: 220.4,
    currentA: r3(amps), currentB: r3(amps * 1.01), currentC: r3(amps * 0.99), frequency: 50,
    forwardActiveEnergy: f, forwardActiveEnergyTip: r3(f * 0.1), forwardActiveEnergyPeak: r3(f * 0.3), forwardActiveEnergyFlat: r3(f * 0.4),
    forwardActiveEnergyValley: r3(f * 0.15), forwardActiveEnergyDeepValley: r3(f * 0.05),
    reverseActiveEnergy: r, reverseActiveEnergyTip: r3(r * 0.1), reverseActiveEnergyPeak: r3(r * 0.3), reverseActiveEnergyFlat: r3(r * 0.4),
    reverseActiveEnergyValley: r3(r * 0.15), reverseActiveEnergyDeepValley: r3(r * 0.05),
    demand: Math.abs(kw), maxDemand: m.maxKw, maxDemandTime: m.maxTs,
  };
  points = Object.keys(values).length;
  // The registers move on by this step's energy for the next reading.
  advance(role, station, m.reg, k);
  meterReports++;
  return `{"ts":${ts},"seq":${s},"values":${JSON.stringify(values)}}`;
}

function publishOne(): void {
  const d = devices[next]!;
  next = (next + 1) % devices.length;
  const s = (seq.get(d.code) ?? 0) + 1;
  seq.set(d.code, s);
  points = identifiers.length;
  const payload = d.meter ? meterPayload(d as Parameters<typeof meterPayload>[0], s) : `{"ts":${Date.now()},"seq":${s},"values":${valuesJson(d.code)}}`;
  published++;
  publishedPoints += points;
  client!.publish(`ess/${d.site}/${d.code}/telemetry`, payload, { qos: 1 }, (err) => {
    if (!err) acked++;
  });
}

async function stage(reportsPerSecond: number, seconds: number): Promise<void> {
  const p0 = published;
  const pp0 = publishedPoints;
  const m0 = meterReports;
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
  send({ type: 'stageDone', published: published - p0, publishedPoints: publishedPoints - pp0, meterReports: meterReports - m0, acked: acked - a0, skippedTicks });
}

process.on('message', (m: ToPublisher) => {
  void (async () => {
    if (m.type === 'init') {
      devices = m.devices;
      identifiers = m.identifiers;
      epoch = m.meterEpoch;
      client = await connectAsync(m.url, { clientId: `bench-pub-${process.pid}`, clean: true });
      send({ type: 'ready' });
    } else if (m.type === 'stage') {
      await stage(m.reportsPerSecond, m.seconds);
    } else if (m.type === 'meterReadings') {
      // How many readings each meter sent (its last seq).
      send({ type: 'meterReadings', readings: Object.fromEntries(devices.filter((d) => d.meter).map((d) => [d.code, seq.get(d.code) ?? 0])) });
    } else {
      await client?.endAsync();
      process.exit(0);
    }
  })();
});
