/**
 * bench/dashboard: how fast the site-monitoring calls answer with a year of data. Starts the real
 * server in this process (PostgreSQL, or PGlite on disk with --pglite), registers N stations of the
 * simulator's scaled fleet (the devices the dashboards read: meters, converters, BMS, EMS,
 * inverters, DC/DC, piles) and writes their rollups directly, as the ingest would have written
 * them over time (it is a bench): a year of day and hour buckets (days station-local) and the
 * last days of 5-minute buckets (those live 93 days; the calls read one day of them), plus
 * latest values. Then it calls each dashboard call over HTTP for random stations, one at a
 * time, and prints p50 / p99 latency. The money calls (home page, site earnings, energy arbitrage)
 * answer from revenue_daily: the bench gives every station its demo prices, lets the revenue
 * engine compute the year of daily figures from those rollups (timed) and then measures them.
 *
 *   npx tsx bench/dashboard/run.ts [--pglite] [--stations 100] [--days 365] [--days5m 3] [--calls 100]
 *
 * The bench's products carry only the properties the dashboards read (a handful of array slots
 * instead of the thing model's 20–40), which keeps a year of hour rollups of 100 stations at a
 * few GB instead of tens; the queries touch the same rows and indexes either way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleFleet, type DeviceDef, type StationDef } from '@ess/simulator';
import type { DeviceType } from '@ess/contract';
import { freshPostgres } from '../../apps/server/test/harness.ts';
import { startApp } from '../../apps/server/src/app.ts';
import { demoKeyValues } from '../../apps/server/src/demo/demo-key-values.ts';
import { seedStationPrices } from '../../apps/server/src/demo/demo-prices.ts';
import { refreshAll } from '../../apps/server/src/modules/dashboard/revenue.jobs.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { createLogger } from '../../apps/server/src/platform/logging.ts';
import type { SqlExecutor } from '../../apps/server/src/platform/db/database.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : def;
};
const usePglite = args.includes('--pglite');
const STATIONS = Number(opt('--stations', '100'));
const DAYS = Number(opt('--days', '365'));
const DAYS_5M = Number(opt('--days5m', '3'));
const CALLS = Number(opt('--calls', '100'));
const PASSWORD = 'Bench12345';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Kind = 'power' | 'energy' | 'state' | 'soc';
/** The bench products: identifier and what its values look like, in slot order. */
const PRODUCTS: Partial<Record<DeviceType, [string, Kind][]>> = {
  meter: [['activePower', 'power'], ['forwardActiveEnergy', 'energy'], ['reverseActiveEnergy', 'energy']],
  pcs: [['activePower', 'power'], ['state', 'state'], ['totalChargeEnergy', 'energy'], ['totalDischargeEnergy', 'energy']],
  bms: [['soc', 'soc'], ['totalChargeEnergy', 'energy'], ['totalDischargeEnergy', 'energy']],
  ems: [['soc', 'soc'], ['activePower', 'power'], ['gridPower', 'power'], ['loadPower', 'power']],
  pvInverter: [['activePower', 'power'], ['totalEnergy', 'energy'], ['irradiance', 'power'], ['state', 'state']],
  dcdc: [['outputPower', 'power'], ['totalEnergy', 'energy'], ['state', 'state']],
  chargingPile: [['power', 'power'], ['totalEnergy', 'energy'], ['state', 'state']],
};

const log = (m: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function register(sql: SqlExecutor, stations: StationDef[], prices: (siteId: number, companyId: number, st: StationDef) => Promise<void>): Promise<{ sites: { id: number; kind: string }[]; devices: number; companyId: number }> {
  const productOf = new Map<string, number>();
  for (const [type, props] of Object.entries(PRODUCTS)) {
    const { rows } = await sql.query<{ id: number }>(
      `insert into product (code, name, type, slot_count) values ($1, $2, $3, $4) returning id`,
      [`BENCH-${type}`, `bench ${type}`, type, props.length],
    );
    const id = rows[0]!.id;
    productOf.set(type, id);
    for (const [i, [identifier, kind]] of props.entries()) {
      await sql.query(
        `insert into product_property (product_id, identifier, name, data_type, unit, cumulative, sort, slot) values ($1, $2, $2, $3, $4, $5, $6, $6)`,
        [id, identifier, kind === 'state' ? 'enum' : 'float', kind === 'energy' ? 'kWh' : kind === 'soc' ? '%' : 'kW', kind === 'energy', i + 1],
      );
    }
  }
  const { rows: [root] } = await sql.query<{ id: number }>('select min(id) as id from company');
  const sites: { id: number; kind: string }[] = [];
  let devices = 0;
  for (const st of stations) {
    const { rows: [s] } = await sql.query<{ id: number }>(
      `insert into site (company_id, name, code, time_zone, site_type, currency) values ($1, $2, $3, $4, $5, $6) returning id`,
      [root!.id, st.name, st.code, st.timeZone, st.kind, st.currency],
    );
    const kv = demoKeyValues(st);
    await sql.query(
      `insert into site_key_value (site_id, installed_capacity, installed_power, depth_of_discharge, voltage_level, transformer_protection_power, pv_module_count, pv_working_mode, pile_power)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [s!.id, kv.installedCapacity, kv.installedPower, kv.depthOfDischarge, kv.voltageLevel, kv.transformerProtectionPower, kv.pvModuleCount, kv.pvWorkingMode, kv.pilePower],
    );
    const wanted = st.devices.filter((d: DeviceDef) => PRODUCTS[d.type]);
    const ids = new Map<string, number>();
    for (const d of wanted) {
      const { rows: [row] } = await sql.query<{ id: number }>(
        `insert into device (code, name, site_id, product_id, type, meter_purpose, rated_power, no, sub_no) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
        [d.code, d.name, s!.id, productOf.get(d.type), d.type, d.meterPurpose ?? null, d.ratedPower ?? null, d.no ?? null, d.subNo ?? null],
      );
      ids.set(d.code, row!.id);
    }
    for (const d of wanted) {
      const parent = d.parentCode ? ids.get(d.parentCode) : undefined;
      if (parent) await sql.query('update device set parent_id = $1 where id = $2', [parent, ids.get(d.code)]);
    }
    devices += wanted.length;
    sites.push({ id: s!.id, kind: st.kind });
    await prices(s!.id, root!.id, st);
  }
  return { sites, devices, companyId: root!.id };
}

/**
 * SQL expressions of one slot's aggregate over a bucket starting at `b` and lasting `stepSec`:
 * energy registers grow by `rate` kWh an hour since t0, power swings through the day.
 */
function slotExprs(kind: Kind, t0: number, stepSec: number, cnt: number, i: number) {
  const hours0 = `((extract(epoch from g.b) - ${t0 / 1000}) / 3600.0)`;
  const hours1 = `((extract(epoch from g.b) + ${stepSec} - ${t0 / 1000}) / 3600.0)`;
  const rate = 20 + i * 7;
  switch (kind) {
    case 'energy':
      return { first: `${rate} * ${hours0}`, last: `${rate} * ${hours1}`, sum: `${rate} * (${hours0} + ${hours1}) / 2 * ${cnt}`, min: `${rate} * ${hours0}`, max: `${rate} * ${hours1}` };
    case 'power': {
      const v = `(60 + 50 * sin(extract(epoch from g.b) / 13751.0 + g.dev))`;
      return { first: v, last: v, sum: `${v} * ${cnt}`, min: `${v} - 5`, max: `${v} + 5` };
    }
    case 'state':
      return { first: '2', last: '2', sum: `${2 * cnt}`, min: '2', max: '2' };
    case 'soc':
      return { first: '50', last: '55', sum: `${52.5 * cnt}`, min: '45', max: '60' };
  }
}

/** One rollup table's rows for every device of one bench product over [from, to), in windows of `chunkMs`. */
async function fill(sql: SqlExecutor, table: string, step: '5m' | '1h' | '1d', type: string, t0: number, from: number, to: number) {
  const props = PRODUCTS[type as DeviceType]!;
  const stepSec = step === '5m' ? 300 : step === '1h' ? 3600 : 86_400;
  const cnt = stepSec / 5;
  const exprs = props.map(([, kind], i) => slotExprs(kind, t0, stepSec, cnt, i));
  const arr = (k: 'first' | 'last' | 'sum' | 'min' | 'max') => `array[${exprs.map((e) => e[k]).join(', ')}]::float8[]`;
  const cnts = `array[${props.map(() => cnt).join(', ')}]::int4[]`;
  const chunk = step === '1d' ? to - from + DAY : step === '1h' ? 30 * DAY : 2 * DAY;
  for (let a = from; a < to; a += chunk) {
    const b = Math.min(to, a + chunk);
    // Day buckets start at each station's local midnight; hours and 5 minutes are UTC-aligned (whole-hour zones).
    const buckets = step === '1d'
      ? `cross join lateral (select (x::timestamp at time zone s.time_zone) as b, d.id % 7 as dev
           from generate_series(${lit(new Date(a).toISOString().slice(0, 10))}::date::timestamp, ${lit(new Date(b - 1).toISOString().slice(0, 10))}::date::timestamp, interval '1 day') x) g`
      : `cross join lateral (select x as b, d.id % 7 as dev
           from generate_series(${lit(new Date(a).toISOString())}::timestamptz, ${lit(new Date(b - stepSec * 1000).toISOString())}::timestamptz, interval '${stepSec} seconds') x) g`;
    await sql.query(
      `insert into ${table} (device_id, bucket, writer, cnt, sum, min, max, first_ts, first, last_ts, last)
       select d.id, g.b, 0, ${cnts}, ${arr('sum')}, ${arr('min')}, ${arr('max')}, g.b, ${arr('first')}, g.b + interval '${stepSec - 1} seconds', ${arr('last')}
         from device d join site s on s.id = d.site_id join product p on p.id = d.product_id ${buckets}
        where p.code = ${lit(`BENCH-${type}`)}`,
    );
  }
}

/** Latest values: what the last hour bucket's readings say, received just now. */
async function latest(sql: SqlExecutor) {
  await sql.query(
    `insert into device_latest (device_id, ts, seq, v, last_seen_at, interval_ms)
     select distinct on (device_id) device_id, last_ts, 1, last, now(), 5000 from telemetry_1h order by device_id, bucket desc`,
  );
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function main() {
  const fresh = usePglite ? null : await freshPostgres();
  const dataDir = mkdtempSync(join(tmpdir(), 'ess-bench-dashboard-'));
  const config = loadConfig({}, {
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn',
    MQTT_PORT: '0', SIMULATOR: 'off', SEED_DEMO: 'false', TELEMETRY_5M_RETENTION_DAYS: String(DAYS_5M + 1), WEB_DIST: '/nonexistent', LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
    ...(fresh ? { DATABASE_URL: fresh.url } : {}),
  });
  const app = await startApp(config, { logger: createLogger('warn') });
  const sql = app.ctx.database.sql;
  try {
    const fleet = scaleFleet(STATIONS).stations;
    const { sites, devices, companyId } = await register(sql, fleet, (siteId, cid, st) => seedStationPrices(app.ctx.db, siteId, cid, st));
    log(`${sites.length} stations, ${devices} devices registered`);
    const now = Date.now();
    const t0 = now - DAYS * DAY;
    const hourNow = Math.floor(now / HOUR) * HOUR;
    const fiveNow = Math.floor(now / 300_000) * 300_000;
    const started = Date.now();
    for (const type of Object.keys(PRODUCTS)) {
      await fill(sql, 'telemetry_1d', '1d', type, t0, t0, now);
      await fill(sql, 'telemetry_1h', '1h', type, t0, Math.floor(t0 / HOUR) * HOUR, hourNow + HOUR);
      await fill(sql, 'telemetry_5m', '5m', type, t0, fiveNow - DAYS_5M * DAY, fiveNow + 300_000);
      log(`rollups of ${type} written`);
    }
    await latest(sql);
    await sql.exec('analyze');
    const counts: { t: string; n: number; mb: number }[] = [];
    for (const t of ['telemetry_1d', 'telemetry_1h', 'telemetry_5m']) {
      const { rows } = await sql.query<{ n: number; mb: number }>(`select (select count(*) from ${t})::int as n, round(pg_total_relation_size('${t}') / 1048576.0)::int as mb`);
      counts.push({ t, ...rows[0]! });
    }
    log(`data written in ${((Date.now() - started) / 1000).toFixed(0)} s: ${counts.map((c) => `${c.t} ${c.n} rows ${c.mb} MB`).join(', ')}`);
    // The revenue engine over the year (what the refresh job does for stations without figures).
    const revStarted = Date.now();
    const stored = await refreshAll(app.ctx);
    await sql.exec('analyze revenue_daily');
    const revSeconds = (Date.now() - revStarted) / 1000;
    const revenueLine = `${stored} station-days computed in ${revSeconds.toFixed(0)} s (${((revSeconds * 1000) / sites.length).toFixed(0)} ms a station)`;
    log(`revenue: ${revenueLine}`);

    const base = `${app.url}/api/manager`;
    const login = (await (await fetch(`${base}/basic/user/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    })).json()) as { data: { token: string } };
    const token = login.data.token;
    const pv = sites.filter((s) => s.kind !== 'storage');
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const yearAgo = new Date(now - 364 * DAY).toISOString().slice(0, 10);
    const today = new Date(now).toISOString().slice(0, 10);
    const arbitrage = { start: yearAgo, end: today };
    const calls: [string, () => string, unknown?][] = [
      ['GET /home/page/top', () => `/home/page/top?companyId=${companyId}`],
      ['GET /home/page/energy', () => `/home/page/energy?companyId=${companyId}`],
      ['GET /home/page/charge', () => `/home/page/charge?companyId=${companyId}`],
      ['GET /home/page/error', () => `/home/page/error?companyId=${companyId}`],
      ['GET /home/page/income', () => `/home/page/income?companyId=${companyId}`],
      ['GET /comprehensive/site/overview/earnings', () => `/comprehensive/site/overview/earnings?siteId=${pick(sites).id}`],
      ['GET …/overview/earnings/chart year', () => `/comprehensive/site/overview/earnings/chart?siteId=${pick(sites).id}&type=year`],
      ['POST /overview/energy/arbitrage/summary (year, all)', () => '/overview/energy/arbitrage/summary', arbitrage],
      ['POST …/arbitrage/curve/fee (365 days, all)', () => '/overview/energy/arbitrage/curve/fee', arbitrage],
      ['POST …/arbitrage/detail/page (year, all)', () => '/overview/energy/arbitrage/detail/page', { ...arbitrage, current: 3, pageSize: 20 }],
      ['GET /comprehensive/site/overview', () => `/comprehensive/site/overview?siteId=${pick(sites).id}`],
      ['GET /comprehensive/site/powerData', () => `/comprehensive/site/powerData?siteId=${pick(sites).id}`],
      ['GET /comprehensive/solar/total-generation year', () => `/comprehensive/solar/total-generation?siteId=${pick(pv).id}&type=year`],
      ['GET /comprehensive/solar/total-generation day', () => `/comprehensive/solar/total-generation?siteId=${pick(pv).id}&type=day`],
      ['GET /comprehensive/site/performance', () => `/comprehensive/site/performance?siteId=${pick(sites).id}`],
      ['GET /comprehensive/site/list (20 a page)', () => `/comprehensive/site/list?current=${1 + Math.floor(Math.random() * Math.ceil(sites.length / 20))}&pageSize=20`],
    ];
    const lines: string[] = [];
    for (const [label, path, payload] of calls) {
      const times: number[] = [];
      let sample = '';
      for (let i = 0; i < CALLS + 5; i++) {
        const t = performance.now();
        const res = payload === undefined
          ? await fetch(base + path(), { headers: { authorization: token } })
          : await fetch(base + path(), { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
        const body = (await res.json()) as { errorCode: string; tipMsg: string; data: Record<string, unknown> };
        const ms = performance.now() - t;
        if (body.errorCode !== '00000') throw new Error(`${label}: ${body.tipMsg}`);
        if (i >= 5) times.push(ms);
        if (i === 5) sample = JSON.stringify(body.data).slice(0, 90);
      }
      lines.push(`${label.padEnd(48)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms   ${sample}…`);
    }
    process.stdout.write(
      `\nbench/dashboard on ${usePglite ? 'PGlite' : 'PostgreSQL'}: ${sites.length} stations, ${devices} devices, ${DAYS} days of day and hour rollups, ` +
        `${DAYS_5M} days of 5-minute rollups; ${CALLS} calls each, one at a time\n`,
    );
    process.stdout.write(`revenue engine: ${revenueLine}\n`);
    for (const line of lines) process.stdout.write(`${line}\n`);
  } finally {
    await app.close();
    await fresh?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
