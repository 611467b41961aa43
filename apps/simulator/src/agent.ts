import { randomBytes } from 'node:crypto';
import type { CommandReply, EventPayload, FirmwareInfo, LogReport, OtaFaultPoint, OtaReport, StatusPayload, TelemetryPayload } from '@ess/contract';
import { MQTT_QOS, commandPayloadSchema, deviceTopic, isOtaCommand, otaCommandPayloadSchema, parseDeviceTopic } from '@ess/contract';
import type { IClientOptions, MqttClient } from 'mqtt';
import { connect } from 'mqtt';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import { applyCommand, faultLabel, recoverFaults, reportedFaults } from './commands.ts';
import type { DeviceDef, Fleet } from './fleet.ts';
import { DeviceJournal, OtaDevices, currentFirmware } from './ota.ts';
import { stationDeviceValues } from './readings.ts';
import type { SimState, StationState } from './state.ts';
import { createState, devicesOf, findStation } from './state.ts';
import { step } from './step.ts';

export interface SimulatorOptions {
  mqttUrl: string;
  fleet: Fleet;
  /** Wall-clock ms between reports (default 5000); 0 = no timer, the caller ticks. */
  intervalMs?: number;
  /** Simulated time (default: the system clock). */
  clock?: Clock;
  /** Resume from a saved state (must belong to the same fleet); default: a new state at clock.now(). */
  state?: SimState;
  /** Wall-clock ms a rebooting device stays offline (default 5000). */
  rebootMs?: number;
  /** Wall-clock ms a device flashing new firmware stays offline (default 8000). */
  flashMs?: number;
  /** Injected OTA/log faults by device code (see SimulatorHandle.setOtaFault). */
  otaFaults?: Record<string, OtaFaultPoint>;
  /**
   * The stations' operating life (incidents.ts): faults per device per day before the type's
   * weight (default 0 = none). Applies to a resumed `state` too.
   */
  randomFaultsPerDevicePerDay?: number;
  /** Extra mqtt.js options (username, password, …). */
  mqtt?: Partial<IClientOptions>;
  /**
   * One station whose devices report through an IoT platform the simulator plays (decision 0055):
   * its telemetry and faults go to the platform instead of the broker; its statuses go to both
   * (the platform's connectivity; over MQTT they carry the firmware, which no platform field holds).
   */
  platform?: { station: string; outlet: PlatformOutlet };
  log?: (message: string) => void;
}

/** What a platform the simulator plays takes from the devices of its station. */
export interface PlatformOutlet {
  telemetry(deviceCode: string, ts: number, values: TelemetryPayload['values']): void;
  fault(deviceCode: string, code: string, active: boolean, message: string, ts: number): void;
  connectivity(deviceCode: string, online: boolean, ts: number): void;
}

export interface SimulatorHandle {
  /** The current state (replaced on every tick). */
  readonly state: SimState;
  /** Steps the physics to clock.now(), publishes events and every device's telemetry. */
  tick(): Promise<void>;
  /** Raises a fault on a device (published as an event with active true at once). */
  injectFault(deviceCode: string, code: string): Promise<void>;
  /** Clears one or all faults of a device (events with active false). */
  clearFault(deviceCode: string, code?: string): Promise<void>;
  /** Stops publishing for a device (telemetry, events, replies), so that it goes offline. */
  silence(deviceCode: string): void;
  unsilence(deviceCode: string): void;
  /**
   * Makes a device fail its firmware upgrade or log upload at one step (null: no fault):
   * `issue` replies ok:false to otaDownload, `download` → downloadFailed, `verify` → corrupt bytes,
   * verifyFailed, `flash` → flashFailed with the old version kept, `log` → upload failed.
   */
  setOtaFault(deviceCode: string, failAt: OtaFaultPoint | null): void;
  /** The firmware a device runs now. */
  firmware(deviceCode: string): FirmwareInfo;
  /**
   * Runs a command on a device as if it came over MQTT (a platform's RPC): its reply, or null
   * when the device is out of touch and does not answer.
   */
  command(deviceCode: string, command: string, params: unknown): Promise<Omit<CommandReply, 'requestId'> | null>;
  /** Publishes offline status for every device and disconnects. */
  stop(): Promise<void>;
}

interface StationAgent {
  code: string;
  client: MqttClient;
  seq: Map<string, number>;
  /** Faults last published as active, by device. */
  published: Map<string, Set<string>>;
  /** Devices last announced offline because of an incident's communication loss. */
  lost: Set<string>;
}

/**
 * Connects and resolves on the first CONNACK, retrying (every reconnectPeriod) while the broker
 * is not there yet, so the simulator can start before the server's broker. Errors are logged,
 * never thrown as unhandled 'error' events.
 */
function connectPatiently(url: string, log: (m: string) => void, opts: IClientOptions): Promise<MqttClient> {
  const client = connect(url, opts);
  let last = '';
  client.on('error', (err) => {
    if (err.message !== last) log(`mqtt ${opts.clientId ?? ''}: ${err.message}`);
    last = err.message;
  });
  return new Promise((resolve) => {
    client.once('connect', () => {
      last = '';
      resolve(client);
    });
  });
}

/** How many commands' requestIds the simulated devices remember, to know one delivered again. */
const HANDLED_KEPT = 2000;
const isFlash = (body: unknown) => typeof body === 'object' && body !== null && 'command' in body && body.command === 'otaFlash';
const json = (x: TelemetryPayload | EventPayload | StatusPayload | CommandReply | OtaReport | LogReport) => JSON.stringify(x);

/**
 * Plays a fleet over MQTT: one connection per station (last will: the station gateway's status
 * offline, retained), telemetry of every device each interval, events when faults appear and
 * clear, and answers to commands on `…/command`.
 */
export async function runSimulator(options: SimulatorOptions): Promise<SimulatorHandle> {
  const clock = options.clock ?? systemClock;
  const intervalMs = options.intervalMs ?? 5000;
  const rebootMs = options.rebootMs ?? 5000;
  const flashMs = options.flashMs ?? 8000;
  const log = options.log ?? (() => undefined);
  const rate = options.randomFaultsPerDevicePerDay;
  let state: SimState = options.state
    ? { ...options.state, options: { ...options.state.options, ...(rate === undefined ? {} : { randomFaultsPerDevicePerDay: rate }) } }
    : createState(options.fleet, clock.now(), { randomFaultsPerDevicePerDay: rate ?? 0 });
  const silenced = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const agents = new Map<string, StationAgent>();
  let stopped = false;
  let ticking: Promise<void> | null = null;
  const instance = randomBytes(3).toString('hex');

  const stationOf = (code: string): StationState => {
    const s = state.stations.find((x) => x.def.code === code);
    if (!s) throw new Error(`unknown station ${code}`);
    return s;
  };
  /** Silenced or rebooting: nothing at all is published for the device. */
  const quiet = (station: StationState, deviceCode: string) =>
    silenced.has(deviceCode) || station.dyn.controls.rebooting[deviceCode] === true;
  /**
   * Not heard from: quiet, or out of touch in an incident of the station's operating life (its
   * gateway still reports the communication loss as a fault, on the supervising device).
   */
  const unheard = (station: StationState, deviceCode: string) => quiet(station, deviceCode) || station.dyn.offline[deviceCode] === true;

  const outlet = options.platform?.outlet;
  /** Telemetry and events of the platform's station go to it; statuses to it and the broker. */
  const toPlatform = (agent: StationAgent, deviceCode: string, kind: string, payload: string): boolean => {
    if (!outlet || options.platform?.station !== agent.code) return false;
    if (kind === 'telemetry') {
      const p = JSON.parse(payload) as TelemetryPayload;
      outlet.telemetry(deviceCode, p.ts, p.values);
      return true;
    }
    if (kind === 'event') {
      const p = JSON.parse(payload) as EventPayload;
      outlet.fault(deviceCode, p.code, p.active, p.message ?? '', p.ts);
      return true;
    }
    if (kind === 'status') {
      const p = JSON.parse(payload) as StatusPayload;
      outlet.connectivity(deviceCode, p.online, p.ts);
    }
    return false;
  };

  const publish = async (agent: StationAgent, deviceCode: string, kind: 'telemetry' | 'event' | 'status' | 'command/reply' | 'ota' | 'log', payload: string, retain = false) => {
    if (toPlatform(agent, deviceCode, kind, payload)) return;
    try {
      await agent.client.publishAsync(deviceTopic(agent.code, deviceCode, kind), payload, { qos: MQTT_QOS, retain });
    } catch (err) {
      if (!stopped) log(`publish ${deviceCode} ${kind} failed: ${(err as Error).message}`);
    }
  };

  const journal = new DeviceJournal();
  const note = (deviceCode: string, level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR', tag: string, text: string) =>
    journal.add(deviceCode, { ts: clock.now(), level, tag, text });

  /** Online statuses carry the firmware the device runs. */
  const status = (agent: StationAgent, deviceCode: string, online: boolean) => {
    const station = stationOf(agent.code);
    const device = station.def.devices.find((d) => d.code === deviceCode);
    note(deviceCode, online ? 'INFO' : 'WARN', 'mqtt', online ? 'online' : 'offline');
    const payload: StatusPayload = { ts: clock.now(), online, ...(online && device ? { firmware: currentFirmware(station, device) } : {}) };
    return publish(agent, deviceCode, 'status', json(payload), true);
  };

  /** Publishes the difference between active (reported) faults and what was last published. */
  const syncEvents = async (agent: StationAgent): Promise<void> => {
    const station = stationOf(agent.code);
    const jobs: Promise<void>[] = [];
    for (const device of station.def.devices) {
      if (quiet(station, device.code)) continue;
      const now = new Set(reportedFaults(station, device));
      const before = agent.published.get(device.code) ?? new Set<string>();
      for (const code of now) {
        if (!before.has(code)) {
          note(device.code, 'ERROR', 'fault', `${code} raised: ${faultLabel(device.type, code)}`);
          jobs.push(publish(agent, device.code, 'event', json({ ts: clock.now(), code, active: true, message: faultLabel(device.type, code) })));
        }
      }
      for (const code of before) {
        if (!now.has(code)) {
          note(device.code, 'INFO', 'fault', `${code} cleared`);
          jobs.push(publish(agent, device.code, 'event', json({ ts: clock.now(), code, active: false, message: `${faultLabel(device.type, code)}恢复` })));
        }
      }
      agent.published.set(device.code, now);
    }
    await Promise.all(jobs);
  };

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) fn();
    }, ms);
    timers.add(timer);
  };
  /** Status offline, then nothing published for the device until comeBack. */
  const goOffline = async (agent: StationAgent, deviceCode: string): Promise<void> => {
    await status(agent, deviceCode, false);
    stationOf(agent.code).dyn.controls.rebooting[deviceCode] = true;
  };
  const comeBack = async (agent: StationAgent, deviceCode: string): Promise<void> => {
    delete stationOf(agent.code).dyn.controls.rebooting[deviceCode];
    if (!stopped && !silenced.has(deviceCode)) await status(agent, deviceCode, true);
  };

  const reboot = async (agent: StationAgent, device: DeviceDef): Promise<void> => {
    await goOffline(agent, device.code);
    later(rebootMs, () => void comeBack(agent, device.code));
  };

  const ota = new OtaDevices({
    clock,
    flashMs,
    station: (code) => stationOf(code),
    report: (siteCode: string, deviceCode: string, kind: 'ota' | 'log', payload: OtaReport | LogReport) => {
      const agent = agents.get(siteCode);
      const station = stationOf(siteCode);
      // A device out of touch cannot report: the server's timeouts handle it.
      if (!agent || stopped || unheard(station, deviceCode)) return Promise.resolve();
      return publish(agent, deviceCode, kind, json(payload));
    },
    goOffline: (siteCode, deviceCode) => goOffline(agents.get(siteCode)!, deviceCode),
    comeBack: (siteCode, deviceCode) => comeBack(agents.get(siteCode)!, deviceCode),
    later,
    journal,
    values: (station, device) => stationDeviceValues(state, station, device),
    log,
  });
  for (const [code, failAt] of Object.entries(options.otaFaults ?? {})) ota.setFault(code, failAt);

  type Reply = Omit<CommandReply, 'requestId'>;
  /** Runs a command body on a device: its reply, or null when it does not answer (out of touch). */
  const execute = async (agent: StationAgent, station: StationState, device: DeviceDef, body: unknown, reply: (r: Reply) => Promise<void>): Promise<void> => {
    // An offline device does not answer: the server's timeout must handle it.
    if (unheard(station, device.code)) return;
    const name = typeof body === 'object' && body !== null && 'command' in body ? String(body.command) : '';
    if (isOtaCommand(name)) {
      const otaCmd = otaCommandPayloadSchema.safeParse(body);
      if (!otaCmd.success) {
        await reply({ ok: false, error: `invalid command: ${otaCmd.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` });
        return;
      }
      const run = ota.handle(station, device, otaCmd.data);
      log(`${device.code} ${name} → ${run.outcome.ok ? 'ok' : run.outcome.error ?? 'failed'}`);
      note(device.code, run.outcome.ok ? 'INFO' : 'WARN', 'cmd', `${name} ${run.outcome.ok ? 'accepted' : `refused: ${run.outcome.error ?? ''}`}`);
      await reply({ ok: run.outcome.ok, ...(run.outcome.result ? { result: run.outcome.result } : {}), ...(run.outcome.error ? { error: run.outcome.error } : {}) });
      run.after?.().catch((err: unknown) => log(`${device.code} ${name} failed: ${(err as Error).message}`));
      return;
    }
    const cmd = commandPayloadSchema.safeParse(body);
    if (!cmd.success) {
      await reply({ ok: false, error: `invalid command: ${cmd.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` });
      return;
    }
    const outcome = applyCommand(state, station, device, cmd.data);
    log(`${device.code} ${cmd.data.command} → ${outcome.ok ? 'ok' : outcome.error ?? 'failed'}`);
    note(device.code, outcome.ok ? 'INFO' : 'WARN', 'cmd', `${cmd.data.command} ${outcome.ok ? 'done' : `refused: ${outcome.error ?? ''}`}`);
    await reply({ ok: outcome.ok, ...(outcome.result ? { result: outcome.result } : {}), ...(outcome.error ? { error: outcome.error } : {}) });
    if (outcome.reboot) await reboot(agent, device);
    await syncEvents(agent);
  };

  /** The commands run lately, by station, device and requestId, with their replies (null: none was sent). */
  const handled = new Map<string, Promise<Reply | null>>();
  const onCommand = async (agent: StationAgent, topic: string, payload: Buffer): Promise<void> => {
    const parsed = parseDeviceTopic(topic);
    if (!parsed || parsed.kind !== 'command' || parsed.siteCode !== agent.code) return;
    const station = stationOf(agent.code);
    const device = station.def.devices.find((d) => d.code === parsed.deviceCode);
    let body: unknown;
    try {
      body = JSON.parse(payload.toString('utf8'));
    } catch {
      log(`unparseable command on ${topic}`);
      return;
    }
    const requestId = typeof body === 'object' && body !== null && 'requestId' in body && typeof body.requestId === 'string' ? body.requestId : null;
    const reply = (r: Reply) =>
      requestId ? publish(agent, parsed.deviceCode, 'command/reply', json({ requestId, ...r })) : Promise.resolve();
    if (!device) {
      await reply({ ok: false, error: `unknown device ${parsed.deviceCode}` });
      return;
    }
    if (!requestId) {
      await execute(agent, station, device, body, reply);
      return;
    }
    if (isFlash(body) && ota.fault(device.code) === 'cut') {
      // Injected: the connection breaks as the command arrives, which is lost with it.
      ota.setFault(device.code, null);
      log(`${device.code} otaFlash ${requestId} lost: the station's connection breaks (injected fault)`);
      agent.client.stream.destroy();
      return;
    }
    // QoS 1 delivers at least once: a command the broker hands over again (its acknowledgement lost
    // in a cut) carries the same requestId. It is answered as the first time, not run again.
    const key = `${agent.code}/${device.code}/${requestId}`;
    const earlier = handled.get(key);
    if (earlier) {
      log(`${device.code} command ${requestId} delivered again: answered, not run again`);
      const r = await earlier;
      if (r) await reply(r);
      return;
    }
    let answered: (r: Reply | null) => void = () => undefined;
    handled.set(key, new Promise<Reply | null>((resolve) => (answered = resolve)));
    if (handled.size > HANDLED_KEPT) handled.delete(handled.keys().next().value!);
    try {
      await execute(agent, station, device, body, async (r) => {
        answered(r);
        await reply(r);
      });
    } finally {
      answered(null);
    }
  };

  const publishAll = async (agent: StationAgent): Promise<void> => {
    const station = stationOf(agent.code);
    const ts = state.timeMs;
    const jobs: Promise<void>[] = [];
    for (const device of station.def.devices) {
      if (unheard(station, device.code)) continue;
      const seq = (agent.seq.get(device.code) ?? 0) + 1;
      agent.seq.set(device.code, seq);
      const payload: TelemetryPayload = { ts, seq, values: stationDeviceValues(state, station, device) };
      jobs.push(publish(agent, device.code, 'telemetry', json(payload)));
    }
    await Promise.all(jobs);
  };

  /** Announces the devices an incident took out of touch (offline) and those back (online). */
  const syncLost = async (agent: StationAgent): Promise<void> => {
    const station = stationOf(agent.code);
    const jobs: Promise<void>[] = [];
    for (const code of Object.keys(station.dyn.offline)) {
      if (agent.lost.has(code) || quiet(station, code)) continue;
      agent.lost.add(code);
      jobs.push(status(agent, code, false));
    }
    for (const code of [...agent.lost]) {
      if (station.dyn.offline[code]) continue;
      agent.lost.delete(code);
      if (!quiet(station, code)) jobs.push(status(agent, code, true));
    }
    await Promise.all(jobs);
  };

  const doTick = async (): Promise<void> => {
    const now = clock.now();
    if (now > state.timeMs) state = step(state, now - state.timeMs, now);
    for (const agent of agents.values()) {
      await syncLost(agent);
      await syncEvents(agent);
      await publishAll(agent);
    }
  };

  const tick = async (): Promise<void> => {
    // Never two ticks at once: a slow broker makes ticks wait, it does not pile them up.
    while (ticking) await ticking;
    if (stopped) return;
    ticking = doTick().finally(() => {
      ticking = null;
    });
    await ticking;
  };

  for (const station of state.stations) {
    const gateway = devicesOf(station.def, 'ems')[0]?.code ?? `${station.def.code}-GW`;
    const clientId = `sim-${station.def.code}-${instance}`;
    const client = await connectPatiently(options.mqttUrl, log, {
      clientId,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      ...options.mqtt,
      will: {
        topic: deviceTopic(station.def.code, gateway, 'status'),
        payload: Buffer.from(json({ ts: clock.now(), online: false })),
        qos: MQTT_QOS,
        retain: true,
      },
    });
    const agent: StationAgent = { code: station.def.code, client, seq: new Map(), published: new Map(), lost: new Set() };
    agents.set(station.def.code, agent);
    client.on('message', (topic, payload) => {
      onCommand(agent, topic, payload).catch((err: unknown) => log(`command on ${topic} failed: ${(err as Error).message}`));
    });
    const announce = async () => {
      const st = stationOf(agent.code);
      await Promise.all(st.def.devices.filter((d) => !unheard(st, d.code)).map((d) => status(agent, d.code, true)));
    };
    client.on('connect', () => {
      // Reconnected: the broker may have published our will; say we are back.
      announce().catch(() => undefined);
    });
    await client.subscribeAsync(deviceTopic(station.def.code, '+', 'command'), { qos: MQTT_QOS });
    await announce();
    log(`station ${station.def.code} connected as ${clientId}`);
  }

  if (intervalMs > 0) {
    const loop = () => {
      if (stopped) return;
      tick()
        .catch((err: unknown) => log(`tick failed: ${(err as Error).message}`))
        .finally(() => {
          if (stopped) return;
          const timer = setTimeout(() => {
            timers.delete(timer);
            loop();
          }, intervalMs);
          timers.add(timer);
        });
    };
    loop();
  }

  const agentFor = (deviceCode: string): { agent: StationAgent; station: StationState } => {
    const found = findStation(state, deviceCode);
    const agent = found ? agents.get(found.station.def.code) : undefined;
    if (!found || !agent) throw new Error(`unknown device ${deviceCode}`);
    return { agent, station: found.station };
  };

  return {
    get state() {
      return state;
    },
    tick,
    injectFault: async (deviceCode, code) => {
      const { agent, station } = agentFor(deviceCode);
      const list = station.dyn.injectedFaults[deviceCode] ?? [];
      if (!list.includes(code)) station.dyn.injectedFaults[deviceCode] = [...list, code];
      await syncEvents(agent);
    },
    clearFault: async (deviceCode, code) => {
      const { agent, station } = agentFor(deviceCode);
      recoverFaults(state, station, deviceCode, code);
      await syncEvents(agent);
    },
    silence: (deviceCode) => {
      agentFor(deviceCode);
      silenced.add(deviceCode);
    },
    unsilence: (deviceCode) => {
      const { agent } = agentFor(deviceCode);
      if (silenced.delete(deviceCode)) void status(agent, deviceCode, true);
    },
    setOtaFault: (deviceCode, failAt) => {
      agentFor(deviceCode);
      ota.setFault(deviceCode, failAt);
    },
    command: async (deviceCode, command, params) => {
      const { agent, station } = agentFor(deviceCode);
      const device = station.def.devices.find((d) => d.code === deviceCode)!;
      let answer: Reply | null = null;
      await execute(agent, station, device, { requestId: randomBytes(8).toString('hex'), ts: clock.now(), command, params }, (r) => {
        answer = r;
        return Promise.resolve();
      });
      return answer;
    },
    firmware: (deviceCode) => {
      const found = findStation(state, deviceCode);
      if (!found) throw new Error(`unknown device ${deviceCode}`);
      return currentFirmware(found.station, found.device);
    },
    stop: async () => {
      if (stopped) return;
      while (ticking) await ticking;
      stopped = true;
      ota.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all(
        [...agents.values()].map(async (agent) => {
          const st = stationOf(agent.code);
          // With the broker unreachable, don't wait for it: the will says the station is gone.
          const connected = agent.client.connected;
          if (connected) {
            await Promise.all(
              st.def.devices.map((d) =>
                agent.client.publishAsync(deviceTopic(agent.code, d.code, 'status'), json({ ts: clock.now(), online: false }), { qos: MQTT_QOS, retain: true }).catch(() => undefined),
              ),
            );
          }
          await agent.client.endAsync(!connected);
        }),
      );
    },
  };
}
