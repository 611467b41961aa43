/**
 * bench/ingest: the whole device path under load. Starts the real server in this process
 * (embedded aedes broker, or with --mosquitto a Mosquitto of its own configured to queue without
 * dropping (max_queued_messages 0, max_inflight_messages 1000; the system Mosquitto's defaults,
 * 1000 queued and 20 in flight per client, drop under a stall); PostgreSQL, or PGlite on disk with
 * --pglite), registers stations of 20 devices: 18 of a 50-point product, a main (grid) meter and a
 * storage meter (the seeded 25-point meter product, followed by the demand sink; see meters.ts),
 * and has publisher processes send QoS 1 reports (~1.3 KB JSON, ts = publish time; the meters on
 * a time-lapse clock so that demand windows close) in stages of rising rate. Per stage it prints the
 * offered and stored data points/s, whether everything was stored (zero loss, backlog drained),
 * publish→stored (queryable) latency p50/p99, server CPU and memory, and where the time went.
 * At the end it checks the table: every published (device, seq) stored exactly once; and the demand
 * windows: every window the meters' readings closed is stored once, with the energy published
 * (import, charge, discharge) and demand = import × 4.
 * The alarm rules run as in production: the seeded battery-pack thresholds, plus one on the bench
 * product that the publishers' random values cross now and then (soc > 95, clear below 90: about
 * a tenth of the devices in alarm at a time, ~100 transitions/s at 250,000 points/s).
 *
 *   npx tsx bench/ingest/run.ts [--pglite] [--mosquitto] [--seconds 8] [--devices 2000]
 *                               [--publishers 2] [--rates 100000,150000,200000,250000,300000]
 *                               [--no-alarm-rules]   (an empty alarm dictionary: the same run without rules)
 *                               [--no-meters]        (every device a 50-point one, as before issue 19)
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgres } from '../../apps/server/test/harness.ts';
import { THING_MODEL } from '@ess/contract';
import { startApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { createLogger } from '../../apps/server/src/platform/logging.ts';
import type { FromPublisher, PublisherDevice, ToPublisher } from './publisher.ts';
import { ingestOf } from '../../apps/server/src/modules/telemetry/index.ts';
import { ensureTelemetryPartitions } from '../../apps/server/src/modules/telemetry/partitions.ts';
import { alarmEngines } from '../../apps/server/src/modules/alarm/alarm.runtime.ts';
import { demandSinkOf } from '../../apps/server/src/modules/demand/index.ts';
import { meterEpoch, READINGS_PER_WINDOW, registersAt, STEP_MS, type MeterRole } from './meters.ts';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const opt = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : def;
};
const usePglite = flag('--pglite');
const alarmRules = !flag('--no-alarm-rules');
const useMosquitto = flag('--mosquitto');
const seconds = Number(opt('--seconds', '8'));
const deviceCount = Number(opt('--devices', '2000'));
const publisherCount = Number(opt('--publishers', '2'));
const rates = opt('--rates', '100000,150000,200000,250000,300000').split(',').map(Number);
const withMeters = !flag('--no-meters');
const POINTS = 50;
/** Points of a meter report (the meter product's 25 properties). */
const METER_POINTS = THING_MODEL.meter.properties.length;
/** Devices per station; two of them are the meters. */
const STATION_SIZE = withMeters ? 20 : 100;

/** 50 numeric identifiers with real names: a battery pack's 41 and 9 of a PCS's AC/DC side. */
const IDENTIFIERS = [
  ...THING_MODEL.batteryPack.properties.map((p) => p.identifier),
  'voltageA', 'voltageB', 'voltageC', 'currentA', 'currentB', 'currentC', 'frequency', 'dcVoltage', 'dcCurrent',
].slice(0, POINTS);

/** CPU seconds of the given processes, from /proc. */
function cpuOfPids(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended
    }
  }
  return ticks / 100;
}

/** Busy fraction of the whole machine (all cores) since `since`, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const total = line.reduce((a, b) => a + b, 0);
  const idle = line[3]! + line[4]!;
  return { busy: total - idle, total };
}

/** CPU seconds of every process named `comm` (postgres, mosquitto), from /proc. */
function cpuOf(comm: string): number {
  let ticks = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (name !== comm) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return 0;
  }
  return ticks / 100;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;

async function main() {
  // A fresh database from the test harness's helper, dropped at the end.
  const fresh = usePglite ? null : await freshPostgres();
  const dbUrl = fresh?.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'ess-bench-ingest-'));
  const tag = `b${process.pid}`;
  const mosquitto = useMosquitto ? await startMosquitto(dataDir) : null;
  const config = loadConfig({}, {
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: 'Bench12345', CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn',
    SEED_DEMO: 'false', WEB_DIST: '/nonexistent', MQTT_PORT: '0', ROLES: 'api,ingest',
    ...(mosquitto ? { MQTT_URL: mosquitto.url, MQTT_CLIENT_ID: `ess-bench-${tag}`, MQTT_SHARE_GROUP: `bench${tag}` } : {}),
    ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
  });
  const app = await startApp(config, { logger: createLogger('warn') });
  const ingest = ingestOf(app.ctx)!;
  // The day partitions the jobs role makes at start (this server runs without it).
  await ensureTelemetryPartitions(app.ctx.database.sql);
  const epoch = meterEpoch();
  const publishers: ChildProcess[] = [];
  try {
    const devices = await register(app.ctx.database.sql, deviceCount, tag);
    if (!alarmRules) await app.ctx.database.sql.query('delete from alarm_dict');
    await ingest.registry.load();
    await alarmEngines.get(app.ctx)?.reload();
    const demand = demandSinkOf(app.ctx)!;
    await demand.reload();
    const meterCount = devices.filter((d) => d.meter).length;
    const avgPoints = devices.reduce((a, d) => a + (d.meter ? METER_POINTS : POINTS), 0) / devices.length;
    const brokerUrl = app.ctx.mqtt.url;
    console.log(`ingest bench: ${usePglite ? 'PGlite (on disk)' : 'PostgreSQL'}, broker ${useMosquitto ? 'Mosquitto' : 'embedded aedes'}, ` +
      `${devices.length} devices (${devices.length - meterCount} × ${POINTS} points, ${meterCount} meters × ${METER_POINTS}: ` +
      `${meterCount / 2} stations' main and storage meters), ${publisherCount} publisher processes, ${seconds} s per stage, ` +
      `alarm rules ${alarmRules ? 'on' : 'off (empty dictionary)'}`);

    const replies = new Map<ChildProcess, (m: FromPublisher) => void>();
    for (let i = 0; i < publisherCount; i++) {
      const child = fork(join(import.meta.dirname, 'publisher.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
      child.on('message', (m: FromPublisher) => replies.get(child)?.(m));
      publishers.push(child);
    }
    const ask = (child: ChildProcess, msg: ToPublisher) =>
      new Promise<FromPublisher>((resolve) => {
        replies.set(child, resolve);
        child.send(msg);
      });
    await Promise.all(publishers.map((p, i) =>
      ask(p, { type: 'init', url: brokerUrl, identifiers: IDENTIFIERS, meterEpoch: epoch, devices: devices.filter((_, k) => k % publisherCount === i) })));

    let best: { rate: number; p50: number; p99: number } | null = null;
    let totalPublished = 0;
    console.log('\n offered pts/s | stored pts/s | all stored | drain ms | p50 ms | p99 ms | arrival p50/p99 | server CPU | postgres CPU | broker CPU | publishers CPU | machine busy | handle/copy ms per s | ' +
      'demand windows closed / rows written | demand eval/write ms per s | rss');
    for (const rate of rates) {
      const c0 = { ...ingest.counters };
      const d0 = { ...demand.counters };
      ingest.resetLatency();
      const cpu0 = process.cpuUsage();
      const pg0 = cpuOf('postgres');
      const mq0 = cpuOf('mosquitto');
      const pubPids = publishers.map((p) => p.pid!).filter(Boolean);
      const pub0 = cpuOfPids(pubPids);
      const m0 = machineTicks();
      const t0 = performance.now();
      const done = await Promise.all(publishers.map((p) => ask(p, { type: 'stage', reportsPerSecond: rate / avgPoints / publisherCount, seconds })));
      const elapsed = (performance.now() - t0) / 1000;
      const stageDone = done.flatMap((d) => (d.type === 'stageDone' ? [d] : []));
      const published = stageDone.reduce((a, d) => a + d.published, 0);
      const publishedPoints = stageDone.reduce((a, d) => a + d.publishedPoints, 0);
      const meterReports = stageDone.reduce((a, d) => a + d.meterReports, 0);
      const storedInStage = ingest.counters.storedPoints - c0.storedPoints;
      const drainStart = performance.now();
      while (ingest.counters.storedReports - c0.storedReports < published && performance.now() - drainStart < 15_000) {
        await new Promise((r) => setTimeout(r, 5));
      }
      const drainMs = performance.now() - drainStart;
      // The demand windows the stage closed, written with the next latest-values flush.
      await ingest.flushLatest().catch(() => undefined);
      await demand.flush();
      // The meters' ts are on their time-lapse clock (yesterday): the ingest put them in its
      // ≥ 60 s bucket; the percentiles are of the other reports (publish time → stored).
      const lastMs = ingest.latency.length - 1;
      ingest.latency[lastMs] = Math.max(0, ingest.latency[lastMs]! - meterReports);
      ingest.arrival[lastMs] = Math.max(0, ingest.arrival[lastMs]! - meterReports);
      totalPublished += published;
      const allStored = ingest.counters.storedReports - c0.storedReports === published;
      const cpu = process.cpuUsage(cpu0);
      const serverCpu = (cpu.user + cpu.system) / 1e6 / elapsed;
      const pgCpu = (cpuOf('postgres') - pg0) / elapsed;
      const mqCpu = useMosquitto ? (cpuOf('mosquitto') - mq0) / elapsed : 0;
      const pubCpu = (cpuOfPids(pubPids) - pub0) / elapsed;
      const m1 = machineTicks();
      const machineBusy = (m1.busy - m0.busy) / (m1.total - m0.total);
      const p50 = ingest.latencyPercentile(50) ?? NaN;
      const p99 = ingest.latencyPercentile(99) ?? NaN;
      const storedRate = storedInStage / elapsed;
      const handlePerS = (ingest.counters.handleMs - c0.handleMs) / elapsed;
      const copyPerS = (ingest.counters.copyMs - c0.copyMs) / elapsed;
      const dk = demand.counters;
      const closed = dk.windows - d0.windows + dk.storageWindows - d0.storageWindows;
      const demandCol = `${fmt(closed)} / ${fmt(dk.rowsWritten - d0.rowsWritten)}`;
      const demandTime = `${(dk.evalMs - d0.evalMs) / elapsed < 10 ? ((dk.evalMs - d0.evalMs) / elapsed).toFixed(1) : fmt((dk.evalMs - d0.evalMs) / elapsed)} / ${fmt((dk.writeMs - d0.writeMs) / elapsed)}`;
      console.log(
        ` ${fmt(publishedPoints / elapsed).padStart(13)} | ${fmt(storedRate).padStart(12)} | ${(allStored ? 'yes' : 'NO').padStart(10)} | ` +
        `${fmt(drainMs).padStart(8)} | ${String(p50).padStart(6)} | ${String(p99).padStart(6)} | ` +
        `${`${ingest.latencyPercentile(50, 'arrival')}/${ingest.latencyPercentile(99, 'arrival')}`.padStart(15)} | ${(serverCpu * 100).toFixed(0).padStart(9)}% | ` +
        `${(pgCpu * 100).toFixed(0).padStart(11)}% | ${useMosquitto ? `${(mqCpu * 100).toFixed(0).padStart(9)}%` : '  (in-proc)'} | ` +
        `${(pubCpu * 100).toFixed(0).padStart(13)}% | ${(machineBusy * 100).toFixed(0).padStart(11)}% | ` +
        `${fmt(handlePerS).padStart(6)} / ${fmt(copyPerS).padEnd(11)} | ${demandCol.padStart(36)} | ${demandTime.padStart(26)} | ${mb(process.memoryUsage().rss)}`,
      );
      // Sustained: everything stored, the backlog gone within a second, latency under a second.
      const sustained = allStored && drainMs < 1000 && p99 < 1000 && storedRate >= rate * 0.9;
      if (sustained) best = { rate: storedRate, p50, p99 };
      else break;
    }
    await ingest.flush();
    await demand.flush();
    const { rows } = await app.ctx.database.sql.query<{ n: number; distinct_n: number }>(
      'select count(*)::int as n, count(distinct (device_id, seq))::int as distinct_n from telemetry',
    );
    const check = rows[0]!;
    const placed = await app.ctx.database.sql.query<{ p: string; n: number }>('select tableoid::regclass::text as p, count(*)::int as n from telemetry group by 1 order by 1');
    console.log(`\n rows by partition: ${placed.rows.map((r) => `${r.p} ${fmt(r.n)}`).join(', ')}`);
    console.log(`\n published ${fmt(totalPublished)} reports; stored rows ${fmt(check.n)}, distinct (device, seq) ${fmt(check.distinct_n)}: ` +
      `${check.n === totalPublished && check.distinct_n === check.n ? 'zero loss, no duplicates' : 'MISMATCH'}`);
    console.log(best
      ? ` sustained: ${fmt(best.rate)} data points/s stored with zero loss, publish→queryable p50 ${best.p50} ms, p99 ${best.p99} ms; ` +
        `server rss ${mb(process.memoryUsage().rss)}, heap ${mb(process.memoryUsage().heapUsed)}`
      : ' no stage was sustained');
    const k = ingest.counters;
    console.log(` counters: ${JSON.stringify({ invalid: k.invalid, unknownDevice: k.unknownDevice, batches: k.batches, batchErrors: k.batchErrors })}`);
    console.log(` time: handling ${fmt(k.handleMs)} ms, telemetry COPY ${fmt(k.copyMs)} ms (${fmt(k.batches)} batches), ` +
      `latest values ${fmt(k.latestMs)} ms (${k.latestFlushes} flushes), rollups ${fmt(k.rollupMs)} ms (${k.rollupFlushes} flushes, ${fmt(k.rollupRows)} rows)`);
    const a = alarmEngines.get(app.ctx)?.counters;
    if (a) {
      const { rows: alarms } = await app.ctx.database.sql.query<{ n: number; open: number }>(
        `select count(*)::int as n, (count(*) filter (where status = 'active'))::int as open from alarm`,
      );
      console.log(` alarms: ${fmt(a.transitions)} transitions (${fmt(a.opened)} opened, ${fmt(a.ended)} ended; ${fmt(alarms[0]!.n)} rows, ${fmt(alarms[0]!.open)} open), ` +
        `rule evaluation ${fmt(a.evalMs)} ms, transition writes ${fmt(a.writeMs)} ms, read-backs ${fmt(a.syncMs)} ms (${a.syncs}), write errors ${a.writeErrors}`);
    }
    if (meterCount > 0) {
      const dk = demand.counters;
      console.log(` demand: ${fmt(dk.windows)} main and ${fmt(dk.storageWindows)} storage windows closed, ${fmt(dk.rowsWritten)} rows written, ` +
        `${dk.preAlarms} pre-alarms, ${dk.guardRequests} guard requests; sink evaluation ${fmt(dk.evalMs)} ms ` +
        `(${((dk.evalMs / k.handleMs) * 100).toFixed(1)} % of the handling), window writes ${fmt(dk.writeMs)} ms, write errors ${dk.writeErrors}, dropped ${dk.dropped}`);
      const readings: Record<string, number> = {};
      for (const p of publishers) {
        const r = await ask(p, { type: 'meterReadings' });
        if (r.type === 'meterReadings') Object.assign(readings, r.readings);
      }
      console.log(` ${await checkWindows(app.ctx.database.sql, devices, readings, epoch)}`);
    }
  } finally {
    for (const p of publishers) p.send({ type: 'exit' } satisfies ToPublisher);
    await app.close();
    mosquitto?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await fresh?.drop();
  }
}

/** A Mosquitto on a free loopback port that queues instead of dropping; stopped at the end. */
async function startMosquitto(dir: string): Promise<{ url: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence false', 'max_queued_messages 0', 'max_inflight_messages 1000', ''].join('\n'));
  const child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  if (child.exitCode !== null) throw new Error('mosquitto did not start (is it installed?)');
  return { url: `mqtt://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

type Sql = { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> };

/**
 * The demand windows against the meters' readings: per station, every window the readings closed
 * (a reading lies on each boundary, the first on one: windows = ⌊(readings − 1) / 9⌋ per meter)
 * is stored once, measured, with the energy published between its boundaries (recomputed from
 * meters.ts) as import, charge and discharge, and demand = import × 4 to 0.001 kW.
 */
async function checkWindows(sql: Sql, devices: PublisherDevice[], readings: Record<string, number>, epoch: number): Promise<string> {
  const stations = new Map<string, { station: number; main?: number; storage?: number }>();
  for (const d of devices) {
    if (!d.meter) continue;
    const s = stations.get(d.site) ?? { station: d.meter.station };
    s[d.meter.role] = readings[d.code] ?? 0;
    stations.set(d.site, s);
  }
  const { rows } = (await sql.query(
    `select s.code, w.ts, w.import_kwh, w.demand_kw, w.charge_kwh, w.discharge_kwh, w.import_estimated, w.storage_estimated
     from demand_window w join site s on s.id = w.site_id where s.code = any($1::text[]) order by s.code, w.ts`,
    [[...stations.keys()]],
  )) as { rows: { code: string; ts: Date; import_kwh: number | null; demand_kw: number | null; charge_kwh: number | null; discharge_kwh: number | null; import_estimated: boolean; storage_estimated: boolean }[] };
  const stored = new Map(rows.map((r) => [`${r.code}@${new Date(r.ts).getTime()}`, r]));
  const problems: string[] = [];
  let expected = 0;
  let checked = 0;
  const Q = READINGS_PER_WINDOW * STEP_MS;
  const delta = (role: MeterRole, station: number, w: number) => {
    const a = registersAt(role, station, w * READINGS_PER_WINDOW);
    const b = registersAt(role, station, (w + 1) * READINGS_PER_WINDOW);
    return { forward: b.forward - a.forward, reverse: b.reverse - a.reverse };
  };
  const near = (x: number | null, y: number, eps = 1e-6) => x !== null && Math.abs(x - y) <= eps;
  for (const [code, s] of stations) {
    const mainWindows = Math.max(0, Math.floor(((s.main ?? 0) - 1) / READINGS_PER_WINDOW));
    const storageWindows = Math.max(0, Math.floor(((s.storage ?? 0) - 1) / READINGS_PER_WINDOW));
    const n = Math.max(mainWindows, storageWindows);
    expected += mainWindows + storageWindows;
    for (let w = 0; w < n; w++) {
      const r = stored.get(`${code}@${epoch + w * Q}`);
      const at = `${code} ${new Date(epoch + w * Q).toISOString()}`;
      if (!r) {
        problems.push(`${at}: missing`);
        continue;
      }
      if (w < mainWindows) {
        const imp = delta('main', s.station, w).forward;
        const demandKw = Math.round(imp * 4 * 1000) / 1000;
        if (!near(r.import_kwh, imp) || !near(r.demand_kw, demandKw, 1e-9) || r.import_estimated) {
          problems.push(`${at}: import ${r.import_kwh} kWh / demand ${r.demand_kw} kW${r.import_estimated ? ' (estimated)' : ''}, published ${imp} kWh → ${demandKw} kW`);
        } else checked++;
      }
      if (w < storageWindows) {
        const st = delta('storage', s.station, w);
        if (!near(r.charge_kwh, st.forward) || !near(r.discharge_kwh, st.reverse) || r.storage_estimated) {
          problems.push(`${at}: charge ${r.charge_kwh} / discharge ${r.discharge_kwh} kWh, published ${st.forward} / ${st.reverse}`);
        } else checked++;
      }
    }
    // Nothing beyond the windows closed but the window in progress's pre-alarm (no energy yet).
    for (const r of rows) {
      if (r.code === code && new Date(r.ts).getTime() >= epoch + n * Q && (r.import_kwh !== null || r.charge_kwh !== null)) {
        problems.push(`${code} ${new Date(r.ts).toISOString()}: unexpected window`);
      }
    }
  }
  const summary = `demand windows: ${fmt(expected)} closed by the readings (main + storage), ${fmt(rows.length)} rows stored, ${fmt(checked)} checked against the energy published`;
  return problems.length === 0
    ? `${summary}: all present once, import/charge/discharge equal to the published energy, demand = import × 4`
    : `${summary}: ${problems.length} MISMATCHES, e.g. ${problems.slice(0, 5).join('; ')}`;
}

/**
 * A 50-point product, stations of STATION_SIZE devices each (with meters: 18 of the product, a
 * main and a storage meter of the seeded meter product, and a standing demand target), and the
 * devices; returns their codes.
 */
async function register(sql: Sql, n: number, tag: string): Promise<PublisherDevice[]> {
  const [product] = (await sql.query(`insert into product (code, name, type) values ($1, 'bench 50 points', 'batteryPack') returning id`, [`BENCH-${tag}`])).rows as { id: number }[];
  await sql.query(
    `insert into product_property (product_id, identifier, name, data_type, slot, sort)
     select $1, ident, ident, 'float', ord, ord from unnest($2::text[]) with ordinality as u(ident, ord)`,
    [product!.id, IDENTIFIERS],
  );
  await sql.query(
    `insert into alarm_dict (product_id, kind, identifier, operator, threshold, clear_value, level, alarm_type, description)
     values ($1, 'threshold', 'soc', '>', 95, 90, 3, 'overLimit', 'bench: SOC high')`,
    [product!.id],
  );
  const [company] = (await sql.query('select id from company order by id limit 1')).rows as { id: number }[];
  const [meterProduct] = (await sql.query(`select id from product where type = 'meter' order by id limit 1`)).rows as { id: number }[];
  const out: PublisherDevice[] = [];
  for (let s = 0; s * STATION_SIZE < n; s++) {
    const code = `BS${tag}${String(s + 1).padStart(3, '0')}`;
    const [site] = (await sql.query(`insert into site (company_id, name, code) values ($1, $2, $2) returning id`, [company!.id, code])).rows as { id: number }[];
    const size = Math.min(STATION_SIZE, n - s * STATION_SIZE);
    const meters = withMeters && size >= 2 ? 2 : 0;
    const codes = Array.from({ length: size - meters }, (_, i) => `${code}-D${String(i + 1).padStart(3, '0')}`);
    await sql.query(
      `insert into device (code, name, site_id, product_id, type) select c, c, $1, $2, 'batteryPack' from unnest($3::text[]) as c`,
      [site!.id, product!.id, codes],
    );
    out.push(...codes.map((c) => ({ site: code, code: c })));
    if (!meters) continue;
    const roles: MeterRole[] = ['main', 'storage'];
    for (const [i, role] of roles.entries()) {
      const c = `${code}-MTR-0${i + 1}`;
      await sql.query(`insert into device (code, name, site_id, product_id, type, meter_purpose) values ($1, $1, $2, $3, 'meter', $4)`, [c, site!.id, meterProduct!.id, role]);
      out.push({ site: code, code: c, meter: { role, station: s } });
    }
    // A standing target: one station in ten's line lies within its load (pre-alarms, guard
    // requests that find no EMS), the others' far above it (the projection is judged, no alarm).
    const tight = s % 10 === 0;
    await sql.query(`insert into demand_setting (site_id, month, target_kw, margin_kw, allow_discharge) values ($1, null, $2, $3, $4)`,
      [site!.id, tight ? 450 + (s % 11) * 20 : 5000, tight ? 40 : 100, tight]);
  }
  return out;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
