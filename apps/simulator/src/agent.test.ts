import type { Client as BrokerClient } from 'aedes';
import type { CommandPayload, TelemetryPayload } from '@ess/contract';
import {
  THING_MODEL, commandReplySchema, deviceTopic, eventPayloadSchema, parseDeviceTopic, statusPayloadSchema, telemetryPayloadSchema,
} from '@ess/contract';
import type { MqttClient } from 'mqtt';
import { connectAsync } from 'mqtt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acceleratedClock, manualClock } from './clock.ts';
import type { ManualClock } from './clock.ts';
import { startEmbeddedBroker } from './broker.ts';
import type { EmbeddedBroker } from './broker.ts';
import { createFleet, demoFleet } from './fleet.ts';
import type { SimulatorHandle } from './agent.ts';
import { runSimulator } from './agent.ts';
import type { Incident } from './incidents.ts';
import { DEFAULT_FAULT_RATE, incidentsOfSlot } from './incidents.ts';
import { commissionedState } from './step.ts';

interface Received {
  topic: string;
  siteCode: string;
  deviceCode: string;
  kind: string;
  body: unknown;
  retain: boolean;
}

/** 09:00 in Shanghai on a Tuesday: a peak period, so SH01 discharges. */
const SHANGHAI_PEAK = Date.UTC(2025, 5, 10, 1, 0);

let broker: EmbeddedBroker;
let observer: MqttClient;
let received: Received[] = [];
let listeners: (() => void)[] = [];

beforeAll(async () => {
  broker = await startEmbeddedBroker(0);
  observer = await connectAsync(broker.url, { clientId: 'test-observer', reconnectPeriod: 0 });
  observer.on('message', (topic, payload, packet) => {
    const parsed = parseDeviceTopic(topic);
    if (!parsed) return;
    received.push({ topic, ...parsed, body: JSON.parse(payload.toString('utf8')) as unknown, retain: packet.retain });
    for (const l of listeners) l();
  });
  await observer.subscribeAsync('ess/#', { qos: 1 });
});

afterAll(async () => {
  await observer.endAsync();
  await broker.close();
});

/** Resolves with the first message (from `from` on) matching, or fails after timeoutMs. */
function waitFor(match: (m: Received) => boolean, from = 0, timeoutMs = 5000): Promise<Received> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const hit = received.slice(from).find(match);
      if (hit) {
        listeners = listeners.filter((l) => l !== check);
        clearTimeout(timer);
        resolve(hit);
      }
    };
    const timer = setTimeout(() => {
      listeners = listeners.filter((l) => l !== check);
      reject(new Error(`no matching message within ${timeoutMs} ms`));
    }, timeoutMs);
    listeners.push(check);
    check();
  });
}

/** Waits until `count` messages match. */
async function waitForCount(match: (m: Received) => boolean, count: number, from = 0, timeoutMs = 5000): Promise<Received[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hits = received.slice(from).filter(match);
    if (hits.length >= count) return hits;
    if (Date.now() > deadline) throw new Error(`only ${hits.length} of ${count} messages`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const telemetryOf = (m: Received) => telemetryPayloadSchema.parse(m.body);
const isTelemetry = (device: string) => (m: Received) => m.kind === 'telemetry' && m.deviceCode === device;

let requestNo = 0;
async function command(site: string, device: string, cmd: Omit<CommandPayload, 'requestId' | 'ts'>): Promise<{ ok: boolean; result?: Record<string, unknown>; error?: string; at: number }> {
  const requestId = `req-${++requestNo}`;
  const from = received.length;
  await observer.publishAsync(deviceTopic(site, device, 'command'), JSON.stringify({ ...cmd, requestId, ts: Date.now() }), { qos: 1 });
  const reply = await waitFor((m) => m.kind === 'command/reply' && m.deviceCode === device && (m.body as { requestId?: string }).requestId === requestId, from);
  return { ...commandReplySchema.parse(reply.body), at: received.indexOf(reply) };
}

describe('MQTT agent, ticked by hand', () => {
  const fleet = demoFleet(1);
  const deviceCount = fleet.stations.reduce((a, s) => a + s.devices.length, 0);
  let clock: ManualClock;
  let sim: SimulatorHandle;

  /** Advances simulated time by 5 s and publishes one round; returns the index where it starts. */
  const round = async () => {
    const from = received.length;
    clock.advance(5000);
    await sim.tick();
    return from;
  };

  beforeEach(async () => {
    received = [];
    clock = manualClock(SHANGHAI_PEAK);
    sim = await runSimulator({ mqttUrl: broker.url, fleet, intervalMs: 0, clock, rebootMs: 300 });
  });

  afterEach(async () => {
    await sim.stop();
  });

  it('announces every device online (retained) and publishes contract-valid telemetry for each', async () => {
    const statuses = await waitForCount((m) => m.kind === 'status', deviceCount);
    for (const s of statuses) expect(statusPayloadSchema.parse(s.body).online).toBe(true);

    const from = await round();
    const reports = await waitForCount((m) => m.kind === 'telemetry', deviceCount, from);
    const byDevice = new Map(reports.map((m) => [m.deviceCode, m]));
    for (const station of fleet.stations) {
      for (const d of station.devices) {
        const m = byDevice.get(d.code);
        expect(m, d.code).toBeDefined();
        expect(m!.siteCode).toBe(station.code);
        expect(m!.retain).toBe(false);
        const payload: TelemetryPayload = telemetryOf(m!);
        expect(payload.seq).toBe(1);
        expect(payload.ts).toBe(SHANGHAI_PEAK + 5000);
        expect(Object.keys(payload.values).sort()).toEqual(THING_MODEL[d.type].properties.map((p) => p.identifier).sort());
      }
    }
    const second = await round();
    const again = await waitFor(isTelemetry('SH01-BMS-01'), second);
    expect(telemetryOf(again).seq).toBe(2);
  });

  it('switch off: the device replies and the PCS reports 0 kW and stopped in its next report; on resumes', async () => {
    let from = await round();
    const before = telemetryOf(await waitFor(isTelemetry('SH01-PCS-01'), from));
    expect(before.values.activePower).toBeGreaterThan(10); // discharging in the peak period
    expect(before.values.state).toBe(2);

    const off = await command('SH01', 'SH01-PCS-01', { command: 'switch', params: { on: false } });
    expect(off).toMatchObject({ ok: true, result: { on: false } });
    from = await round();
    const after = telemetryOf(await waitFor(isTelemetry('SH01-PCS-01'), from));
    expect(after.seq).toBe(before.seq + 1);
    expect(after.values).toMatchObject({ activePower: 0, state: 0, onOff: false });
    // The grid now carries the whole load.
    const main = telemetryOf(await waitFor(isTelemetry('SH01-MT-MAIN'), from));
    const ems = telemetryOf(await waitFor(isTelemetry('SH01-EMS-01'), from));
    expect(main.values.activePower).toBeCloseTo(ems.values.loadPower as number, 1);

    expect((await command('SH01', 'SH01-PCS-01', { command: 'switch', params: { on: true } })).ok).toBe(true);
    from = await round();
    const resumed = telemetryOf(await waitFor(isTelemetry('SH01-PCS-01'), from));
    expect(resumed.values.activePower).toBeGreaterThan(10);
  });

  it('an injected fault publishes an event active true, stops the PCS, and clearing it publishes active false', async () => {
    await round();
    let from = received.length;
    await sim.injectFault('SH01-PCS-01', 'PCS_IGBT_FAULT');
    const raised = await waitFor((m) => m.kind === 'event' && m.deviceCode === 'SH01-PCS-01', from);
    expect(eventPayloadSchema.parse(raised.body)).toMatchObject({ code: 'PCS_IGBT_FAULT', active: true, message: 'IGBT故障' });

    from = await round();
    expect(telemetryOf(await waitFor(isTelemetry('SH01-PCS-01'), from)).values).toMatchObject({ state: 3, activePower: 0 });
    // Still active: not published again.
    expect(received.slice(from).filter((m) => m.kind === 'event')).toHaveLength(0);

    from = received.length;
    await sim.clearFault('SH01-PCS-01', 'PCS_IGBT_FAULT');
    const cleared = await waitFor((m) => m.kind === 'event' && m.deviceCode === 'SH01-PCS-01', from);
    expect(eventPayloadSchema.parse(cleared.body)).toMatchObject({ code: 'PCS_IGBT_FAULT', active: false });

    // faultRecover from the server does the same.
    from = received.length;
    await sim.injectFault('LA01-CG-01-1', 'GUN_LOCK_FAULT');
    await waitFor((m) => m.kind === 'event' && m.deviceCode === 'LA01-CG-01-1', from);
    from = received.length;
    const recovered = await command('LA01', 'LA01-CG-01-1', { command: 'faultRecover', params: {} });
    expect(recovered).toMatchObject({ ok: true, result: { cleared: ['GUN_LOCK_FAULT'] } });
    const ev = await waitFor((m) => m.kind === 'event' && m.deviceCode === 'LA01-CG-01-1', from);
    expect(ev.body).toMatchObject({ code: 'GUN_LOCK_FAULT', active: false });
  });

  it('a warning mask hides a charging gun fault from events', async () => {
    const bit = THING_MODEL.chargingGun.events.findIndex((e) => e.code === 'GUN_OVER_TEMPERATURE');
    const set = await command('LA01', 'LA01-CG-02-2', { command: 'warnMask', params: { mask: 1 << bit } });
    expect(set).toMatchObject({ ok: true, result: { mask: 1 << bit } });
    const from = received.length;
    await sim.injectFault('LA01-CG-02-2', 'GUN_OVER_TEMPERATURE');
    await sim.injectFault('LA01-CG-02-2', 'GUN_LOCK_FAULT');
    const ev = await waitFor((m) => m.kind === 'event' && m.deviceCode === 'LA01-CG-02-2', from);
    expect(ev.body).toMatchObject({ code: 'GUN_LOCK_FAULT', active: true });
    const t = await round();
    const gun = telemetryOf(await waitFor(isTelemetry('LA01-CG-02-2'), t));
    expect(gun.values).toMatchObject({ warnMask: 1 << bit, state: 4 });
    expect(received.slice(from).filter((m) => m.kind === 'event' && m.deviceCode === 'LA01-CG-02-2')).toHaveLength(1);
    expect((await command('LA01', 'LA01-CG-02-2', { command: 'warnMask', params: {} })).result).toEqual({ mask: 1 << bit });
  });

  it('silence stops a device publishing while the others go on; unsilence resumes', async () => {
    await round();
    sim.silence('SH01-BMS-01');
    const from = await round();
    await round();
    await waitForCount(isTelemetry('SH01-PCS-01'), 2, from);
    expect(received.slice(from).filter(isTelemetry('SH01-BMS-01'))).toHaveLength(0);
    // A silent device answers nothing either.
    await observer.publishAsync(deviceTopic('SH01', 'SH01-BMS-01', 'command'), JSON.stringify({ requestId: 'silent', command: 'reboot', params: {}, ts: 1 }), { qos: 1 });
    // Commands to one station arrive in order: once a later one is answered, the silent one was seen.
    expect((await command('SH01', 'SH01-PCS-01', { command: 'faultRecover', params: {} })).ok).toBe(true);

    sim.unsilence('SH01-BMS-01');
    const back = await round();
    const resumed = telemetryOf(await waitFor(isTelemetry('SH01-BMS-01'), back));
    expect(resumed.seq).toBe(2);
    expect(received.some((m) => m.kind === 'command/reply' && (m.body as { requestId: string }).requestId === 'silent')).toBe(false);
  });

  it('setProperty changes set points the physics follows; bad commands get an error reply', async () => {
    const manual = await command('SH01', 'SH01-EMS-01', { command: 'setProperty', params: { values: { runMode: 1, manualPowerSetpoint: -80 } } });
    expect(manual.ok).toBe(true);
    const from = await round();
    expect(telemetryOf(await waitFor(isTelemetry('SH01-PCS-01'), from)).values.activePower).toBeCloseTo(-80, 1);
    expect(telemetryOf(await waitFor(isTelemetry('SH01-EMS-01'), from)).values).toMatchObject({ runMode: 1, manualPowerSetpoint: -80, strategyState: 1 });

    const ac = await command('SH01', 'SH01-AC-01', { command: 'temperature', params: { setpoint: 22 } });
    expect(ac.ok).toBe(true);
    const remote = await command('SH01', 'SH01-AC-01', { command: 'remoteSet', params: { mode: 1, fanSpeed: 2 } });
    expect(remote).toMatchObject({ ok: true, result: { mode: 1, fanSpeed: 2, onOff: true } });
    const t = await round();
    expect(telemetryOf(await waitFor(isTelemetry('SH01-AC-01'), t)).values).toMatchObject({ setTemperature: 22, mode: 1, fanSpeed: 2 });

    expect(await command('SH01', 'SH01-EMS-01', { command: 'setProperty', params: { values: { soc: 50 } } })).toMatchObject({ ok: false });
    expect(await command('SH01', 'SH01-EMS-01', { command: 'setProperty', params: { values: { socLowerLimit: 80 } } })).toMatchObject({ ok: false });
    expect(await command('SH01', 'SH01-PCS-01', { command: 'warnMask', params: { mask: 1 } })).toMatchObject({ ok: false });
    expect(await command('SH01', 'SH01-NOPE-01', { command: 'reboot', params: {} })).toMatchObject({ ok: false });
    // Not a valid command at all, but with a requestId: an error reply.
    const from2 = received.length;
    await observer.publishAsync(deviceTopic('SH01', 'SH01-PCS-01', 'command'), JSON.stringify({ requestId: 'bad', command: 'explode', params: {}, ts: 1 }), { qos: 1 });
    const bad = await waitFor((m) => m.kind === 'command/reply' && (m.body as { requestId: string }).requestId === 'bad', from2);
    expect(commandReplySchema.parse(bad.body)).toMatchObject({ ok: false });
  });

  it('reboot: the device replies, goes offline for a while, then comes back', async () => {
    const from = received.length;
    expect((await command('SH01', 'SH01-EMS-01', { command: 'reboot', params: {} })).ok).toBe(true);
    const offline = await waitFor((m) => m.kind === 'status' && m.deviceCode === 'SH01-EMS-01', from);
    expect(offline.body).toMatchObject({ online: false });
    const during = await round();
    await waitFor(isTelemetry('SH01-PCS-01'), during);
    expect(received.slice(during).filter(isTelemetry('SH01-EMS-01'))).toHaveLength(0);
    const online = await waitFor((m) => m.kind === 'status' && m.deviceCode === 'SH01-EMS-01' && (m.body as { online: boolean }).online, during);
    expect(online.retain).toBe(false); // live delivery; the broker keeps it as the retained status
    const after = await round();
    await waitFor(isTelemetry('SH01-EMS-01'), after);
  });

  it('a command delivered again (QoS 1: same requestId) is answered as the first time and not run again', async () => {
    const from = received.length;
    const topic = deviceTopic('SH01', 'SH01-EMS-01', 'command');
    const body = JSON.stringify({ requestId: 'again-1', command: 'reboot', params: {}, ts: Date.now() });
    const isStatus = (online: boolean) => (m: Received) => m.kind === 'status' && m.deviceCode === 'SH01-EMS-01' && (m.body as { online: boolean }).online === online;
    await observer.publishAsync(topic, body, { qos: 1 });
    await waitFor(isStatus(false), from);
    const during = await round();
    await waitFor(isStatus(true), during);
    // Back online, the broker hands the same command over again.
    await observer.publishAsync(topic, body, { qos: 1 });
    const replies = await waitForCount((m) => m.kind === 'command/reply' && (m.body as { requestId?: string }).requestId === 'again-1', 2, from);
    expect(replies.map((m) => (m.body as { ok: boolean }).ok)).toEqual([true, true]);
    const after = await round();
    await waitFor(isTelemetry('SH01-EMS-01'), after);
    expect(received.slice(from).filter(isStatus(false))).toHaveLength(1);
  });

  it('stop publishes offline status for every device', async () => {
    await waitForCount((m) => m.kind === 'status', deviceCount);
    const from = received.length;
    await sim.stop();
    const offline = await waitForCount((m) => m.kind === 'status' && (m.body as { online: boolean }).online === false, deviceCount, from);
    expect(new Set(offline.map((m) => m.deviceCode)).size).toBe(deviceCount);
  });
});

describe('MQTT agent on its timer', () => {
  it('reports every interval with increasing seq and accelerated time, and leaves a last will', async () => {
    received = [];
    const fleet = createFleet(1, 3);
    let simClient: BrokerClient | null = null;
    const onClient = (c: BrokerClient) => {
      if (c.id.startsWith('sim-SH01-')) simClient = c;
    };
    broker.broker.on('client', onClient);
    const sim = await runSimulator({ mqttUrl: broker.url, fleet, intervalMs: 40, clock: acceleratedClock(600, SHANGHAI_PEAK), mqtt: { reconnectPeriod: 100 } });
    try {
      const reports = (await waitForCount(isTelemetry('SH01-EMS-01'), 3)).map(telemetryOf);
      expect(reports.map((r) => r.seq).slice(0, 3)).toEqual([1, 2, 3]);
      expect(reports[1]!.ts).toBeGreaterThan(reports[0]!.ts);
      expect(reports[2]!.ts - reports[0]!.ts).toBeGreaterThanOrEqual(2 * 40 * 600 * 0.9);

      // The connection drops without a goodbye: the broker publishes the will.
      const from = received.length;
      expect(simClient).not.toBeNull();
      (simClient as BrokerClient | null)?.conn.destroy();
      const will = await waitFor((m) => m.kind === 'status' && m.deviceCode === 'SH01-EMS-01', from);
      expect(statusPayloadSchema.parse(will.body).online).toBe(false);
    } finally {
      broker.broker.removeListener('client', onClient);
      await sim.stop();
    }
  });
});

describe('MQTT agent before its broker', () => {
  it('waits for a broker that starts later instead of failing', async () => {
    const probe = await startEmbeddedBroker(0);
    const port = probe.port;
    await probe.close();
    const logs: string[] = [];
    const starting = runSimulator({
      mqttUrl: `mqtt://127.0.0.1:${port}`, fleet: createFleet(1, 4), intervalMs: 0, clock: manualClock(SHANGHAI_PEAK),
      mqtt: { reconnectPeriod: 50 }, log: (m) => logs.push(m),
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(logs.some((l) => l.includes('ECONNREFUSED'))).toBe(true);
    const late = await startEmbeddedBroker(port);
    try {
      const sim = await starting;
      await sim.stop();
    } finally {
      await late.close();
    }
  });
});

describe('MQTT agent after its broker', () => {
  it('stops promptly when the broker has gone away', async () => {
    const gone = await startEmbeddedBroker(0);
    const sim = await runSimulator({ mqttUrl: gone.url, fleet: createFleet(1, 5), intervalMs: 0, clock: manualClock(SHANGHAI_PEAK), mqtt: { reconnectPeriod: 50 }, log: () => undefined });
    await gone.close();
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await sim.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('MQTT agent: the operating life', () => {
  const fleet = demoFleet(1);
  const HOUR = 3_600_000;
  const from = Date.UTC(2026, 10, 1);
  /** The first incident of a kind in the first week of November 2026 (seed 1). */
  const first = (match: (i: Incident) => boolean): Incident => {
    for (let k = from / HOUR; k < from / HOUR + 7 * 24; k++) {
      for (const def of fleet.stations) {
        const hit = incidentsOfSlot(def, 1, k, DEFAULT_FAULT_RATE).find(match);
        if (hit) return hit;
      }
    }
    throw new Error('no such incident');
  };
  let sim: SimulatorHandle | null = null;
  afterEach(async () => {
    await sim?.stop();
    sim = null;
  });

  it('a device dropping offline: status offline, no telemetry, its supervisor’s communication fault; then back online', async () => {
    const i = first((x) => x.kind === 'offline' && x.code !== null);
    const site = i.subject.slice(0, 4);
    received = [];
    const clock = manualClock(i.start - 60_000);
    sim = await runSimulator({ mqttUrl: broker.url, fleet, intervalMs: 0, clock, randomFaultsPerDevicePerDay: DEFAULT_FAULT_RATE });
    await sim.tick();
    await waitFor(isTelemetry(i.subject));
    clock.set(i.start + 30_000);
    const during = received.length;
    await sim.tick();
    const off = await waitFor((m) => m.kind === 'status' && m.deviceCode === i.subject, during);
    expect(statusPayloadSchema.parse(off.body).online).toBe(false);
    const lost = await waitFor((m) => m.kind === 'event' && m.deviceCode === i.codeDevice, during);
    expect(eventPayloadSchema.parse(lost.body)).toMatchObject({ code: i.code, active: true });
    await waitFor(isTelemetry(`${site}-EMS-01`), during);
    expect(received.slice(during).filter(isTelemetry(i.subject))).toHaveLength(0);

    clock.set(i.end + 30_000);
    const back = received.length;
    await sim.tick();
    const on = await waitFor((m) => m.kind === 'status' && m.deviceCode === i.subject, back);
    expect(statusPayloadSchema.parse(on.body).online).toBe(true);
    expect(eventPayloadSchema.parse((await waitFor((m) => m.kind === 'event' && m.deviceCode === i.codeDevice, back)).body)).toMatchObject({ code: i.code, active: false });
    await waitFor(isTelemetry(i.subject), back);
  });

  it('a latched fault is published once and ends at a fault recover command', async () => {
    const i = first((x) => x.kind === 'fault' && x.latched && x.subject.startsWith('SH01'));
    received = [];
    const clock = manualClock(i.start - 60_000);
    sim = await runSimulator({ mqttUrl: broker.url, fleet, intervalMs: 0, clock, randomFaultsPerDevicePerDay: DEFAULT_FAULT_RATE });
    clock.set(i.start + 60_000);
    await sim.tick();
    const raised = await waitFor((m) => m.kind === 'event' && m.deviceCode === i.subject);
    expect(eventPayloadSchema.parse(raised.body)).toMatchObject({ code: i.code, active: true });
    clock.advance(600_000);
    await sim.tick();
    const reply = await command('SH01', i.subject, { command: 'faultRecover', params: {} });
    expect(reply.result).toEqual({ cleared: [i.code] });
    const cleared = await waitFor((m) => m.kind === 'event' && m.deviceCode === i.subject && (m.body as { active: boolean }).active === false, reply.at - 1);
    expect(eventPayloadSchema.parse(cleared.body).code).toBe(i.code);
    clock.advance(600_000);
    await sim.tick();
    expect(received.filter((m) => m.kind === 'event' && m.deviceCode === i.subject)).toHaveLength(2);
  });

  it('a resumed state plays the rate it is given, not the one it was saved with (SIM_FAULT_RATE)', async () => {
    const saved = commissionedState(fleet, from, { randomFaultsPerDevicePerDay: 0 });
    sim = await runSimulator({ mqttUrl: broker.url, fleet, intervalMs: 0, clock: manualClock(from), state: saved, randomFaultsPerDevicePerDay: DEFAULT_FAULT_RATE });
    expect(sim.state.options.randomFaultsPerDevicePerDay).toBe(DEFAULT_FAULT_RATE);
  });
});
