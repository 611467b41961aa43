import type { DeviceRecord } from '@ess/contract';
import type { FirmwareRolloutDetail, FirmwareTaskRecord } from '@ess/contract/firmware';
import { capacityOf, createState, demoFleet, manualClock, runSimulator } from '@ess/simulator';
import { startTestApp, type DbTarget } from '../../../test/harness.ts';
import { okData, until } from '../../../test/factory.ts';
import { site } from '../../db/schema/site.ts';
import type { RawConfig } from '../../platform/config.ts';
import { ingestOf } from '../telemetry/index.ts';
import { fastSettings } from './firmware.fixtures.ts';

/**
 * The rollout tests' bench: the server (demo seed) on a database target, the demo fleet simulated
 * on its embedded broker with a manual clock (SH01 half full: inside the safe gate's SOC band),
 * two rounds of reports stored, and the calls the tests make.
 */
export async function rolloutBench(
  target: DbTarget,
  o: { flashMs?: number; rebootMs?: number; env?: Partial<RawConfig>; shared?: { databaseUrl: string }; simMqttUrl?: string } = {},
) {
  const fleet = demoFleet();
  const devices = fleet.stations.reduce((a, s) => a + s.devices.length, 0);
  const t = await startTestApp(target, { SEED_DEMO: 'true', DEVICE_OFFLINE_TIMEOUT_MS: '600000', INGEST_BATCH_MS: '50', LATEST_FLUSH_MS: '100', ROLLUP_FLUSH_MS: '200', ...o.env }, o.shared);
  await fastSettings(t.ctx);
  const ids = new Map<string, number>();
  const sites = new Map<string, number>();
  const all = await t.api.post<DeviceRecord[]>('/configure/device/query/list', t.adminToken, {});
  for (const d of all.body.data) ids.set(d.code, d.id);
  for (const s of await t.ctx.db.select({ id: site.id, code: site.code }).from(site)) sites.set(s.code, s.id);
  const clock = manualClock(Date.now() - 60 * 60_000);
  const state = createState(fleet, clock.now());
  for (const st of state.stations.filter((x) => x.def.code === 'SH01')) Object.assign(st.dyn, { energy: capacityOf(st.def, st.dyn) * 0.5, socError: 0 });
  // The simulator's last lines go into a failure's message: what the devices saw and did.
  const simLog: string[] = [];
  const log = (line: string) => {
    simLog.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (simLog.length > 200) simLog.shift();
  };
  const sim = await runSimulator({ mqttUrl: o.simMqttUrl ?? t.ctx.mqtt.url, fleet, intervalMs: 0, clock, state, flashMs: o.flashMs ?? 300, rebootMs: o.rebootMs ?? 300, log });
  const ingest = () => ingestOf(t.ctx)!;
  const tick = async () => {
    const before = ingest().counters.storedReports;
    clock.advance(60_000);
    await sim.tick();
    await until('the reports to be stored', () => ingest().counters.storedReports >= before + devices - 10);
    await ingest().flush();
  };
  const one = (rid: number) => okData(t.api.post<FirmwareRolloutDetail>('/firmware/rollout/query/one', t.adminToken, { id: rid }));
  const tasks = async (rid: number) => (await okData(t.api.post<{ records: FirmwareTaskRecord[] }>('/firmware/task/query/page', t.adminToken, { rolloutId: rid, pageSize: 100 }))).records;
  /** Waits for a rollout condition; the rollout's groups and tasks in the error when it does not come. */
  const waitFor = async (what: string, rid: number, cond: (r: FirmwareRolloutDetail) => boolean, ms = 60_000) => {
    const seen: { last: FirmwareRolloutDetail | null } = { last: null };
    try {
      await until(what, async () => cond((seen.last = await one(rid))), ms, 200);
    } catch (err) {
      const l = seen.last;
      throw new Error(`${(err as Error).message}: ${JSON.stringify({ state: l?.state, pause: l?.pauseReason, groups: l?.groups.map((g) => [g.no, g.state, g.counts.total, g.counts.success]), tasks: (await tasks(rid)).map((x) => [x.deviceCode, x.state, x.waitReason, x.reason]) })}\nthe simulator's last lines:\n${simLog.slice(-60).join('\n')}`);
    }
    return seen.last!;
  };
  for (let i = 0; i < 2; i++) await tick();
  return {
    t, sim, clock, ids, sites, tick, one, tasks, waitFor,
    id: (code: string) => ids.get(code)!,
    /** The simulator's log lines (the last 200). */
    simLog: () => [...simLog],
    stop: async () => {
      await sim.stop();
      await t.stop();
    },
  };
}
export type RolloutBench = Awaited<ReturnType<typeof rolloutBench>>;
