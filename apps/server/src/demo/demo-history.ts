import { existsSync } from 'node:fs';
import { inArray } from 'drizzle-orm';
import { createState, saveState, stationDeviceValues, step, type DeviceDef, type Fleet } from '@ess/simulator';
import { device } from '../db/schema/device.ts';
import { site } from '../db/schema/site.ts';
import type { AppContext } from '../platform/context.ts';
import { copyDriver } from '../modules/telemetry/index.ts';
import { loadProductSlots } from '../modules/telemetry/index.ts';
import { ROLLUP_TABLES, RollupAccumulator, writeAggregates, type Granularity } from '../modules/telemetry/index.ts';

/**
 * The demo's past, so that a first start shows history (earnings, energy per day) and not only
 * what happened since the server started: the station simulator's own physics is run from
 * `days` ago to now in 5-minute steps, each step's readings of the devices the energy figures
 * read are folded into the 5-minute, hour and day rollups exactly as the ingest folds reports
 * (RollupAccumulator), and the simulator's state at the end is saved where the live simulator
 * resumes from it — so registers continue without a jump. No raw reports are written (they would
 * be purged anyway) and nothing is computed here: revenue comes from the engine over these rollups.
 */

const STEP_MS = 300_000;
const DAY = 86_400_000;
/** The devices whose registers and power the dashboards and the revenue engine read. */
const TYPES = new Set<DeviceDef['type']>(['meter', 'pcs', 'bms', 'ems', 'pvInverter', 'dcdc', 'chargingPile']);

/** True when none of the fleet's devices has a day rollup yet and there is no saved simulator state. */
export async function demoHistoryWanted(ctx: AppContext, fleet: Fleet, stateFile: string): Promise<boolean> {
  if (stateFile && existsSync(stateFile)) return false;
  const codes = fleet.stations.map((s) => s.code);
  const { rows } = await ctx.database.sql.query<{ n: number }>(
    `select count(*)::int as n from (select 1 from telemetry_1d t join device d on d.id = t.device_id join site s on s.id = d.site_id
      where s.code = any($1::text[]) limit 1) x`,
    [`{${codes.join(',')}}`],
  );
  return (rows[0]?.n ?? 0) === 0;
}

export async function seedDemoHistory(ctx: AppContext, fleet: Fleet, days: number, stateFile: string, now = Date.now()): Promise<{ steps: number; rows: number }> {
  const codes = fleet.stations.map((s) => s.code);
  const sites = await ctx.db.select({ id: site.id, code: site.code, timeZone: site.timeZone }).from(site).where(inArray(site.code, codes));
  const siteOf = new Map(sites.map((s) => [s.code, s]));
  const rows = await ctx.db
    .select({ id: device.id, code: device.code, productId: device.productId })
    .from(device)
    .where(inArray(device.siteId, sites.map((s) => s.id)));
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const slots = await loadProductSlots(ctx.db);
  const acc = new RollupAccumulator(Number.POSITIVE_INFINITY);
  const { session } = copyDriver(ctx.database);
  let written = 0;
  const flush = async (force: boolean) => {
    const due = acc.take(now, force);
    // One transaction per table: the staging table empties at each commit.
    for (const g of Object.keys(due) as Granularity[]) {
      if (!due[g].length) continue;
      await session((s) => writeAggregates(s, ROLLUP_TABLES[g], due[g]));
      written += due[g].length;
    }
  };

  const start = Math.floor((now - days * DAY) / STEP_MS) * STEP_MS;
  let state = createState(fleet, start);
  let steps = 0;
  let lastFlush = start;
  for (let t = start + STEP_MS; t <= now; t += STEP_MS) {
    state = step(state, STEP_MS, t);
    steps++;
    for (const station of state.stations) {
      const st = siteOf.get(station.def.code);
      if (!st) continue;
      for (const d of station.def.devices) {
        if (!TYPES.has(d.type)) continue;
        const reg = byCode.get(d.code);
        const layout = reg ? slots.get(reg.productId) : undefined;
        if (!reg || !layout) continue;
        const values = stationDeviceValues(state, station, d);
        const arr = new Float64Array(layout.identifiers.length).fill(Number.NaN);
        for (const [k, v] of Object.entries(values)) {
          const i = layout.indexOf.get(k);
          if (i === undefined) continue;
          if (typeof v === 'number' && Number.isFinite(v)) arr[i] = v;
          else if (typeof v === 'boolean') arr[i] = v ? 1 : 0;
        }
        acc.add(reg.id, st.timeZone, t, arr);
      }
    }
    if (t - lastFlush >= DAY) {
      await flush(false);
      lastFlush = t;
    }
  }
  await flush(true);
  if (stateFile) await saveState(stateFile, state);
  await ctx.database.sql.exec('analyze telemetry_5m; analyze telemetry_1h; analyze telemetry_1d').catch(() => undefined);
  ctx.log.info({ days, steps, rows: written }, 'demo history written');
  return { steps, rows: written };
}
