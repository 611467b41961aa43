/**
 * bench/api: the calls a person waits for, under load, each next to a same-run reference (issue 15).
 *
 * Starts the real server as a child process on a fresh PostgreSQL database (or PGlite with
 * --pglite; --both runs PostgreSQL then PGlite). A seeding server first writes the demo world
 * through the real parts (seed.ts: the simulator's stations with days of history and revenue, a
 * few seconds of live play with faults for latest values and alarms, users and sign-ins) and
 * stops; the measured server then starts on that database with the simulator off. Every call is
 * checked once (200, errorCode 00000; the bench fails otherwise), its answer's bytes recorded and
 * its database statements counted (count-queries.ts, preloaded into the server). A bare Fastify +
 * node-postgres server (reference.ts; PGlite in its process for --pglite) answers, per call, the
 * same number of statements and the same bytes; our call and its reference run back to back with
 * the same autocannon settings (--warmup seconds of load first, not counted). Prints req/s and
 * latency p50/p99 of both, the ratio, and RSS.
 *
 *   npx tsx bench/api/run.ts [--pglite | --both] [--seconds 10] [--connections 100] [--only profile,alarm-page]
 *                            [--warmup 1] [--history-days 3] [--server-cmd "node apps/server/dist/main.js"] [--cpu-prof profile]
 *
 * --cpu-prof NAME: the measured server runs with node --cpu-prof, only call NAME is loaded (no
 * reference), the server is stopped (SIGTERM) so that the profile is written, and the top 25
 * functions by self time during the load are printed with the profile's path.
 * --server-cmd (or BENCH_SERVER_CMD): how the server starts, from the repository root; it must
 * begin with node (the bench adds its node flags after it). Default: the sources through tsx.
 * Calls: profile, user-page, login-log-page, alarm-page, device-page, device-latest, site-overview,
 * home-top, home-income. Requests go without accept-encoding (answers uncompressed).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import {
  alarmEndpoints, authEndpoints, comprehensiveEndpoints, deviceEndpoints, homeEndpoints, logEndpoints, siteEndpoints, userEndpoints,
  type AnyEndpoint,
} from '@ess/contract';
import { LIST_IDENTIFIERS } from '../../apps/web/src/components/device-types.ts';
import { freshPostgres } from '../../apps/server/test/harness.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { summarizeProfile } from './cpu-profile.ts';
import { seedWorld } from './seed.ts';
import { call, freePort, PASSWORD, ROOT, rssOf, serverCommand, sleep, startServer, type ServerChild } from './server.ts';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const seconds = Number(opt('--seconds') ?? 10);
const connections = Number(opt('--connections') ?? 100);
const warmup = Number(opt('--warmup') ?? 1);
const historyDays = Number(opt('--history-days') ?? 3);
const cpuProf = opt('--cpu-prof');
const only = (cpuProf ?? opt('--only'))?.split(',');
const cmd = serverCommand(opt('--server-cmd'));
const kinds: Kind[] = args.includes('--both') ? ['postgres', 'pglite'] : args.includes('--pglite') ? ['pglite'] : ['postgres'];
/** Sequential calls per counting round, and rounds (their median is taken). */
const COUNT_CALLS = 20;
const COUNT_ROUNDS = 3;

type Kind = 'postgres' | 'pglite';
interface Call {
  name: string;
  ep: AnyEndpoint;
  query?: string;
  body?: unknown;
}
interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The measured calls, as the console makes them (pages of 20). */
function callsOf(companyId: number, siteId: number): Call[] {
  const page = { current: 1, pageSize: 20 };
  return [
    { name: 'profile', ep: authEndpoints.profile },
    { name: 'user-page', ep: userEndpoints.page, body: page },
    { name: 'login-log-page', ep: logEndpoints.loginPage, body: page },
    { name: 'alarm-page', ep: alarmEndpoints.page, body: page },
    { name: 'device-page', ep: deviceEndpoints.page, body: page },
    { name: 'device-latest', ep: deviceEndpoints.latestPage, body: { ...page, identifiers: LIST_IDENTIFIERS } },
    { name: 'site-overview', ep: comprehensiveEndpoints.overview, query: `siteId=${siteId}` },
    { name: 'home-top', ep: homeEndpoints.top, query: `companyId=${companyId}` },
    { name: 'home-income', ep: homeEndpoints.income, query: `companyId=${companyId}` },
  ];
}

const log = (m: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);

async function benchDb(kind: Kind): Promise<void> {
  const fresh = kind === 'postgres' ? await freshPostgres() : null;
  const refDb = kind === 'postgres' && !cpuProf ? await freshPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'ess-bench-'));
  const profDir = cpuProf ? mkdtempSync(join(tmpdir(), 'ess-cpuprof-')) : undefined;
  // Devices keep the presence they had when the seeding stopped (no status flips during the load).
  const env = { DATA_DIR: dataDir, DEVICE_OFFLINE_TIMEOUT_MS: '86400000', ...(fresh ? { DATABASE_URL: fresh.url } : {}) };
  let server: ServerChild | null = null;
  let ref: Reference | null = null;
  try {
    log(`${kind}: seeding…`);
    const seeded = await seedWorld({ cmd, env, dataDir, historyDays, users: 200, logins: 30, alarms: 20, maxLiveMs: 30_000 });
    log(seeded);
    server = await startServer({ cmd, env: { ...env, SIMULATOR: 'off' }, nodeFlags: profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [] });
    const token = (await call<{ token: string }>(server.base, authEndpoints.login, { body: { username: 'admin', password: PASSWORD } })).data.token;
    const { companyId } = (await call<{ companyId: number }>(server.base, authEndpoints.profile, { token })).data;
    const [site] = (await call<{ id: number }[]>(server.base, siteEndpoints.list, { token, body: {} })).data;
    if (!site) throw new Error('no station was seeded');
    const calls = callsOf(companyId, site.id).filter((c) => !only || only.includes(c.name));
    if (!calls.length) throw new Error(`no call named ${only?.join(',')}`);

    const measured: { c: Call; bytes: number; queries: number }[] = [];
    Object.assign(idleSeen, { statements: 0, ms: 0 });
    for (const c of calls) {
      const { bytes } = await call(server.base, c.ep, { token, query: c.query, body: c.body });
      measured.push({ c, bytes, queries: await queriesPerCall(server, c, token) });
    }

    if (profDir) {
      const { c, bytes, queries } = measured[0]!;
      const counted = server;
      let from = 0;
      const ours = await load(server.base, c, token, async () => {
        from = (await counted.counters()).monoUs;
      });
      const to = (await server.counters()).monoUs;
      const rss = server.rss();
      await server.stop();
      // The main thread's profile: the largest (the module loader's thread writes one too).
      const file = readdirSync(profDir)
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort((a, b) => statSync(join(profDir, b)).size - statSync(join(profDir, a)).size)[0];
      if (!file) throw new Error(`the server wrote no .cpuprofile in ${profDir}`);
      process.stdout.write(`\nbench/api --cpu-prof ${c.name} on ${label(kind)}, ${connections} connections, ${seconds} s, ${cmd.join(' ')}\n`);
      process.stdout.write(`${c.name}: ${ours.rps.toFixed(0)} req/s, p50 ${ours.p50} ms, p99 ${ours.p99} ms, ${queries.toFixed(1)} queries/req, ${bytes} bytes, ${ours.errors} errors; server RSS ${rss.now} MB (peak ${rss.peak} MB)\n`);
      process.stdout.write(`${summarizeProfile(join(profDir, file), from, to)}\nprofile: ${join(profDir, file)}\n`);
      return;
    }

    ref = await startReference(kind, refDb?.url);
    const rows: string[] = [];
    for (const { c, bytes, queries } of measured) {
      log(`${kind}: ${c.name}`);
      const ours = await load(server.base, c, token);
      const theirs = await load(ref.base, { ...c, ep: { ...c.ep, path: `/ref/${Math.round(queries)}/${bytes}` }, query: undefined }, token);
      rows.push(row(kind, c.name, ours, theirs, queries, bytes));
    }
    const rss = server.rss();
    const refRss = rssOf(ref.pid);
    process.stdout.write(
      `\nbench/api on ${label(kind)}: ${connections} connections, ${seconds} s per run; our server: ${cmd.join(' ')}\n${seeded}\n` +
        `queries/req: statements our server sent during ${COUNT_CALLS} sequential calls, less those of an idle wait as long ` +
        `(background jobs: ${((idleSeen.statements * 1000) / idleSeen.ms).toFixed(1)} statements/s idle), median of ${COUNT_ROUNDS} rounds; ` +
        `the reference runs that many (rounded) one-row indexed selects\n` +
        `${HEADER}\n${rows.join('\n')}\n` +
        `server RSS ${rss.now} MB (peak ${rss.peak} MB); reference RSS ${refRss.now} MB (peak ${refRss.peak} MB)\n` +
        `goal: ${kind === 'postgres' ? 'p99 < 50 ms and ratio ≥ 0.5' : 'profile ≥ 1000 req/s'}\n\n`,
    );
  } finally {
    await ref?.stop();
    await server?.stop();
    await fresh?.drop();
    await refDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const label = (kind: Kind) => (kind === 'postgres' ? 'PostgreSQL' : 'PGlite');
const HEADER =
  `${'call'.padEnd(15)}| ${'ours req/s'.padStart(10)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} | ${'ref req/s'.padStart(9)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} ` +
  `| ratio | q/req |  bytes | errors | goal`;

function row(kind: Kind, name: string, ours: Load, ref: Load, queries: number, bytes: number): string {
  const ratio = ref.rps > 0 ? ours.rps / ref.rps : 0;
  const goal = kind === 'postgres' ? (ours.p99 < 50 && ratio >= 0.5 ? 'ok' : 'MISS') : name === 'profile' ? (ours.rps >= 1000 ? 'ok' : 'MISS') : '';
  return (
    `${name.padEnd(15)}| ${ours.rps.toFixed(0).padStart(10)} ${String(ours.p50).padStart(5)} ${String(ours.p99).padStart(5)} ` +
    `| ${ref.rps.toFixed(0).padStart(9)} ${String(ref.p50).padStart(5)} ${String(ref.p99).padStart(5)} ` +
    `| ${ratio.toFixed(2).padStart(5)} | ${queries.toFixed(1).padStart(5)} | ${String(bytes).padStart(6)} | ${`${ours.errors}/${ref.errors}`.padStart(6)} | ${goal}`
  );
}

/** What the idle baselines of the counting saw: the server's background statements. */
const idleSeen = { statements: 0, ms: 0 };

/** Statements per call: COUNT_ROUNDS rounds of COUNT_CALLS sequential calls, each less an idle baseline of the same wall time. */
async function queriesPerCall(server: ServerChild, c: Call, token: string): Promise<number> {
  const once = () => call(server.base, c.ep, { token, query: c.query, body: c.body });
  for (let i = 0; i < 5; i++) await once(); // warm: caches and prepared paths as under load
  const rounds: number[] = [];
  for (let r = 0; r < COUNT_ROUNDS; r++) {
    const a = (await server.counters()).queries;
    const t = Date.now();
    for (let i = 0; i < COUNT_CALLS; i++) await once();
    const b = (await server.counters()).queries;
    const ms = Date.now() - t;
    await sleep(ms);
    const idle = (await server.counters()).queries - b;
    idleSeen.statements += idle;
    idleSeen.ms += ms;
    rounds.push((b - a - idle) / COUNT_CALLS);
  }
  return rounds.sort((x, y) => x - y)[Math.floor(COUNT_ROUNDS / 2)]!;
}

/** `warmup` seconds of load (not counted: the JIT and pools warm up), then `seconds` measured. */
async function load(base: string, c: Call, token: string, afterWarmup?: () => Promise<void>): Promise<Load> {
  const run = (duration: number) =>
    autocannon({
      url: `${base}${c.ep.path}${c.query ? `?${c.query}` : ''}`,
      method: c.ep.method,
      body: c.ep.method === 'POST' ? JSON.stringify(c.body ?? {}) : undefined,
      headers: { authorization: token, 'content-type': 'application/json' },
      connections,
      duration,
    });
  if (warmup > 0) await run(warmup);
  await afterWarmup?.();
  const r = await run(seconds);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

interface Reference {
  base: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** reference.ts as its own process: pg.Pool of the server's pool size on a fresh database, or PGlite on disk. */
async function startReference(kind: Kind, url: string | undefined): Promise<Reference> {
  const port = await freePort();
  const dir = kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'ess-bench-ref-')) : undefined;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/api/reference.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, REF_PORT: String(port), REF_POOL_MAX: String(loadConfig(process.env).dbPoolMax),
      ...(url ? { REF_DATABASE_URL: url } : { REF_PGLITE_DIR: join(dir!, 'pglite') }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(proc, 'exit');
  const lines = createInterface({ input: proc.stdout });
  const ready = new Promise<void>((resolve, reject) => {
    lines.on('line', (l) => l === 'reference ready' && resolve());
    void exited.then(() => reject(new Error('the reference exited while starting')));
  });
  await ready;
  return {
    base: `http://127.0.0.1:${port}`,
    pid: proc.pid,
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

for (const kind of kinds) await benchDb(kind);
