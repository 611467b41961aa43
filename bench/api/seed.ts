import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alarmEndpoints, authEndpoints, deviceEndpoints, roleEndpoints, userEndpoints } from '@ess/contract';
import { call, PASSWORD, ROOT, sleep, startServer, type ServerChild } from './server.ts';

/**
 * The data of bench/api, written through the real parts by a seeding server that is stopped
 * before the measured one starts on the same database:
 *
 * 1. The server's demo (SEED_DEMO, SIMULATOR=auto): the simulator's three stations, their prices,
 *    `historyDays` of rollups from the simulator's physics and the revenue computed over them.
 * 2. The simulator then plays the stations live for a few seconds, with random faults switched on
 *    (SIM_FAULT_RATE): latest values, device presence and alarms. The demo's own simulator resumes
 *    the history's saved state, whose fault rate is 0 and wins over SIM_FAULT_RATE, so the bench
 *    stops it, sets the rate in the saved state and starts the simulator again itself.
 * 3. Users (the user page) and sign-ins (the login-log page) through the API.
 */
export async function seedWorld(o: {
  cmd: string[];
  env: Record<string, string>;
  dataDir: string;
  historyDays: number;
  users: number;
  logins: number;
  /** Alarms to wait for (at most `maxLiveMs` of live play). */
  alarms: number;
  maxLiveMs: number;
}): Promise<string> {
  const t0 = Date.now();
  let brokerUrl = '';
  let simulatorPid = 0;
  let simulatorStarted: () => void = () => undefined;
  const started = new Promise<void>((r) => (simulatorStarted = r));
  const server = await startServer({
    cmd: o.cmd,
    env: { ...o.env, SIMULATOR: 'auto', DEMO_HISTORY_DAYS: String(o.historyDays), LOG_LEVEL: 'info' },
    onLine: (line) => {
      if (!line.startsWith('{')) return;
      const rec = JSON.parse(line) as { msg?: string; url?: string; pid?: number };
      if (rec.msg === 'embedded MQTT broker started') brokerUrl = rec.url ?? '';
      if (rec.msg === 'station simulator started') {
        simulatorPid = rec.pid ?? 0;
        simulatorStarted();
      }
    },
  });
  try {
    const token = (await call<{ token: string }>(server.base, authEndpoints.login, { body: { username: 'admin', password: PASSWORD } })).data.token;
    const users = seedUsers(server, token, o.users, o.logins);
    users.catch(() => undefined); // awaited (and thrown) below
    await Promise.race([started, sleep(300_000).then(() => Promise.reject(new Error('the demo simulator did not start in 300 s')))]);
    const historyS = ((Date.now() - t0) / 1000).toFixed(0);
    if (!brokerUrl || !simulatorPid) throw new Error('no broker url or simulator pid in the server log');

    // The demo's simulator (the server's child; it saves its state when stopped) is replaced by one with faults.
    process.kill(simulatorPid, 'SIGTERM');
    while (alive(simulatorPid)) await sleep(100);
    const stateFile = join(o.dataDir, 'simulator-state.json');
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { options: { randomFaultsPerDevicePerDay: number } };
    state.options.randomFaultsPerDevicePerDay = 24;
    writeFileSync(stateFile, JSON.stringify(state));
    const sim = spawn(process.execPath, ['--import', 'tsx', 'apps/simulator/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, MQTT_URL: brokerUrl, SIM_STATE_FILE: stateFile, SIM_INTERVAL_MS: '1000' },
      stdio: 'ignore',
    });
    const simExit = once(sim, 'exit');
    const liveStart = Date.now();
    let alarms = 0;
    while (Date.now() - liveStart < o.maxLiveMs) {
      await sleep(1000);
      alarms = (await call<{ total: number }>(server.base, alarmEndpoints.page, { token, body: { current: 1, pageSize: 1 } })).data.total;
      if (alarms >= o.alarms) break;
    }
    sim.kill('SIGTERM');
    await simExit;
    await users;
    const devices = (await call<{ total: number }>(server.base, deviceEndpoints.page, { token, body: { current: 1, pageSize: 1 } })).data.total;
    await sleep(1500); // the ingest's latest-value flush
    return (
      `demo world: ${devices} devices, ${o.historyDays} days of history (${historyS} s), ${((Date.now() - liveStart) / 1000).toFixed(0)} s of live play ` +
      `with faults → ${alarms} alarms, ${o.users} users, ${o.logins} sign-ins; seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`
    );
  } finally {
    await server.stop();
  }
}

async function seedUsers(server: ServerChild, token: string, users: number, logins: number): Promise<void> {
  const roles = (await call<{ id: number }[]>(server.base, roleEndpoints.list, { token })).data;
  const profile = (await call<{ companyId: number }>(server.base, authEndpoints.profile, { token })).data;
  for (let i = 0; i < users; i++) {
    await call(server.base, userEndpoints.add, {
      token,
      body: { username: `bench${i}`, name: `压测用户${i}`, password: 'Passw0rd1', companyId: profile.companyId, roleIds: [roles[0]!.id] },
    });
  }
  for (let i = 0; i < logins; i++) {
    await call(server.base, authEndpoints.login, { body: { username: `bench${i % users}`, password: 'Passw0rd1' } });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
