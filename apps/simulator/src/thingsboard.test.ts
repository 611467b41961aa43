import { THING_MODEL, parseDeviceTopic } from '@ess/contract';
import type { MqttClient } from 'mqtt';
import { connectAsync } from 'mqtt';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulator, type SimulatorHandle } from './agent.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';
import { manualClock } from './clock.ts';
import { createFleet } from './fleet.ts';
import { findStation } from './state.ts';
import { DEMO_PLATFORM_PASSWORD, DEMO_PLATFORM_STATION, DEMO_PLATFORM_USER, platformId, startThingsBoardPlatform, type ThingsBoardPlatform } from './thingsboard.ts';

/**
 * The simulator playing a ThingsBoard platform (decision 0055) for station BE01 while SH01 stays
 * on MQTT: the REST subset an integration reads (login, profiles, devices with paging, keys,
 * latest values), the WebSocket subscriptions (telemetry, `active`, alarms) fed by the simulated
 * devices instead of the broker, and a two-way RPC that really changes the simulated device.
 */
let broker: EmbeddedBroker;
let observer: MqttClient;
let platform: ThingsBoardPlatform;
let sim: SimulatorHandle;
const mqttSeen: string[] = [];
const clock = manualClock(Date.UTC(2025, 5, 10, 1, 0));

const call = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
  const r = await fetch(`${platform.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { 'X-Authorization': `Bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> & unknown[] };
};
const login = async () => (await call('/api/auth/login', { method: 'POST', body: { username: DEMO_PLATFORM_USER, password: DEMO_PLATFORM_PASSWORD } })).body.token as string;

/** Collects a socket's messages; `next` waits (generously) for one that matches. */
function socket(token: string) {
  const ws = new WebSocket(`${platform.url.replace('http', 'ws')}/api/ws/plugins/telemetry?token=${token}`);
  const got: Record<string, unknown>[] = [];
  ws.on('message', (d) => got.push(JSON.parse((d as Buffer).toString('utf8')) as Record<string, unknown>));
  const next = async (match: (m: Record<string, unknown>) => boolean, from = 0) => {
    for (let i = 0; i < 200; i++) {
      const hit = got.slice(from).find(match);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no matching message in ${JSON.stringify(got).slice(0, 500)}`);
  };
  return { ws, got, next, opened: new Promise((r) => ws.once('open', r)) };
}

beforeAll(async () => {
  broker = await startEmbeddedBroker(0);
  observer = await connectAsync(broker.url, { clientId: 'tb-observer', reconnectPeriod: 0 });
  observer.on('message', (topic) => {
    const p = parseDeviceTopic(topic);
    if (p) mqttSeen.push(`${p.siteCode}/${p.kind}`);
  });
  await observer.subscribeAsync('ess/#', { qos: 1 });
  const fleet = createFleet(2);
  const station = fleet.stations.find((s) => s.code === DEMO_PLATFORM_STATION)!;
  platform = await startThingsBoardPlatform({ port: 0, rpcTimeoutMs: 200, source: { station, command: (d, c, p) => sim.command(d, c, p) } });
  sim = await runSimulator({ mqttUrl: broker.url, fleet, intervalMs: 0, clock, platform: { station: DEMO_PLATFORM_STATION, outlet: platform } });
}, 30_000);

afterAll(async () => {
  await sim.stop();
  await platform.close();
  await observer.endAsync();
  await broker.close();
});

describe('the simulator as a ThingsBoard platform', () => {
  it('signs in with the demo tenant only and refuses calls without its token', async () => {
    const bad = await call('/api/auth/login', { method: 'POST', body: { username: DEMO_PLATFORM_USER, password: 'wrong' } });
    expect([bad.status, bad.body.message]).toEqual([401, 'Invalid username or password']);
    expect((await call('/api/tenant/deviceInfos?page=0&pageSize=10')).status).toBe(401);
    expect((await call('/api/tenant/deviceInfos?page=0&pageSize=10', { token: 'eyJ.forged.sig' })).status).toBe(401);
    const token = await login();
    expect(token.split('.')).toHaveLength(3);
    expect((await call('/api/auth/user', { token })).body.email).toBe(DEMO_PLATFORM_USER);
  });

  it('lists the station\'s device profiles and devices page by page, with their keys and alarm rules', async () => {
    const token = await login();
    const station = findStation(sim.state, `${DEMO_PLATFORM_STATION}-EMS-01`)!.station.def;
    const first = await call('/api/tenant/deviceInfos?page=0&pageSize=5&sortProperty=createdTime&sortOrder=ASC', { token });
    expect(first.body.hasNext).toBe(true);
    expect(first.body.totalElements).toBe(station.devices.length);
    const all: { name: string; active: boolean; deviceProfileId: { id: string } }[] = [];
    for (let page = 0; page < 20; page++) {
      const r = await call(`/api/tenant/deviceInfos?page=${page}&pageSize=5`, { token });
      all.push(...(r.body.data as typeof all));
      if (!r.body.hasNext) break;
    }
    expect(all.map((d) => d.name).sort()).toEqual(station.devices.map((d) => d.code).sort());
    // The agent announced them online: the `active` attribute.
    expect(all.every((d) => d.active)).toBe(true);
    expect((await call('/api/tenant/deviceInfos?page=0', { token })).status).toBe(400);
    const profiles = (await call('/api/deviceProfiles?page=0&pageSize=100', { token })).body.data as { id: { id: string }; profileData: { alarms: { alarmType: string }[] } }[];
    expect(profiles).toHaveLength(new Set(station.devices.map((d) => d.type)).size);
    const pcsProfile = platformId('profile', `${DEMO_PLATFORM_STATION}:pcs`);
    expect(profiles.find((p) => p.id.id === pcsProfile)!.profileData.alarms.map((a) => a.alarmType)).toEqual(THING_MODEL.pcs.events.map((e) => e.code));
    const keys = (await call(`/api/deviceProfile/devices/keys/timeseries?deviceProfileId=${pcsProfile}`, { token })).body as unknown as string[];
    expect(keys).toContain('activePower');
    expect((await call('/api/device/info/unknown', { token })).status).toBe(404);
  });

  it('streams the station\'s telemetry, connectivity and alarms over the WebSocket, none of them over MQTT', async () => {
    const token = await login();
    const ems = platformId('device', `${DEMO_PLATFORM_STATION}-EMS-01`);
    const s = socket(token);
    await s.opened;
    s.ws.send(JSON.stringify({
      tsSubCmds: [{ entityType: 'DEVICE', entityId: ems, scope: 'LATEST_TELEMETRY', cmdId: 1 }],
      historyCmds: [],
      attrSubCmds: [{ entityType: 'DEVICE', entityId: ems, scope: 'SERVER_SCOPE', keys: 'active', cmdId: 2 }],
      alarmDataCmds: [{ cmdId: 3, query: { entityFilter: { type: 'entityList', entityType: 'DEVICE', entityList: [ems] }, pageLink: { page: 0, pageSize: 100, statusList: ['ACTIVE'] } } }],
    }));
    expect((await s.next((m) => m.subscriptionId === 2)).data).toMatchObject({ active: [[expect.any(Number), true]] });
    expect((await s.next((m) => m.cmdId === 3)).data).toMatchObject({ data: [] });
    const before = mqttSeen.length;
    const from = s.got.length;
    clock.advance(5000);
    await sim.tick();
    const update = await s.next((m) => m.subscriptionId === 1 && Object.keys(m.data as object).length > 3, from);
    const soc = (update.data as Record<string, [number, string][]>).soc;
    expect(soc?.[0]?.[0]).toBe(clock.now());
    expect(typeof soc?.[0]?.[1]).toBe('string');
    // The latest values over REST too.
    const values = (await call(`/api/plugins/telemetry/DEVICE/${ems}/values/timeseries?keys=soc`, { token })).body as unknown as Record<string, { ts: number; value: string }[]>;
    expect(values.soc?.[0]?.ts).toBe(clock.now());
    const seen = mqttSeen.slice(before);
    expect(seen).toContain('SH01/telemetry');
    expect(seen.filter((x) => x.startsWith(`${DEMO_PLATFORM_STATION}/`) && x !== `${DEMO_PLATFORM_STATION}/status`)).toEqual([]);
    // A fault: an alarm created, then cleared.
    const code = THING_MODEL.ems.events[0]!.code;
    await sim.injectFault(`${DEMO_PLATFORM_STATION}-EMS-01`, code);
    const raised = (await s.next((m) => m.cmdId === 3 && Array.isArray(m.update))).update as { type: string; status: string; originator: { id: string } }[];
    expect(raised[0]).toMatchObject({ type: code, status: 'ACTIVE_UNACK', originator: { id: ems } });
    const at = s.got.length;
    await sim.clearFault(`${DEMO_PLATFORM_STATION}-EMS-01`, code);
    const cleared = (await s.next((m) => m.cmdId === 3 && Array.isArray(m.update), at)).update as { status: string; cleared: boolean }[];
    expect(cleared[0]).toMatchObject({ status: 'CLEARED_UNACK', cleared: true });
    expect(mqttSeen.slice(before).some((x) => x === `${DEMO_PLATFORM_STATION}/event`)).toBe(false);
    s.ws.close();
  });

  it('runs a two-way RPC on the simulated device: a storage power set point written and answered', async () => {
    const token = await login();
    const ems = platformId('device', `${DEMO_PLATFORM_STATION}-EMS-01`);
    const r = await call(`/api/plugins/rpc/twoway/${ems}`, { method: 'POST', token, body: { method: 'setProperty', params: { values: { manualPowerSetpoint: -42 } }, timeout: 5000 } });
    expect([r.status, r.body.ok]).toEqual([200, true]);
    expect(findStation(sim.state, `${DEMO_PLATFORM_STATION}-EMS-01`)!.station.dyn.controls.manualPowerSetpoint).toBe(-42);
    const refused = await call(`/api/plugins/rpc/twoway/${ems}`, { method: 'POST', token, body: { method: 'setProperty', params: { values: { manualPowerSetpoint: 1e9 } } } });
    expect([refused.status, refused.body.ok]).toEqual([200, false]);
    expect(String(refused.body.error)).toMatch(/manualPowerSetpoint/);
    expect(findStation(sim.state, `${DEMO_PLATFORM_STATION}-EMS-01`)!.station.dyn.controls.manualPowerSetpoint).toBe(-42);
    // A device out of touch does not answer: the platform's timeout.
    sim.silence(`${DEMO_PLATFORM_STATION}-EMS-01`);
    const late = await call(`/api/plugins/rpc/twoway/${ems}`, { method: 'POST', token, body: { method: 'reboot', params: {}, timeout: 5000 } });
    expect(late.status).toBe(504);
    sim.unsilence(`${DEMO_PLATFORM_STATION}-EMS-01`);
    expect((await call('/api/plugins/rpc/twoway/nope', { method: 'POST', token, body: { method: 'reboot' } })).status).toBe(404);
  });
});
