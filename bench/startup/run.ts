/**
 * bench/startup: how long the server takes from its process start to answering
 * GET /api/manager/basic/captcha, the CPU time that took (all processes and threads) and the
 * memory then, run from the TypeScript sources under tsx (`tsx src/main.ts`, what `npm start` ran
 * before, and `npm run dev` without the watch) and from the production build (`node dist/main.mjs`,
 * what `npm start` runs). Embedded PGlite, the demo seeded as `npm start` does, the simulator off;
 * once with a fresh data directory each start and once with one an earlier start left. The
 * variants take turns, so load from elsewhere on the machine falls on each alike. Builds dist/
 * first and prints the build's time and that of the up-to-date check `npm start` makes.
 *
 *   npx tsx bench/startup/run.ts [--runs 3]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SERVER = resolve(import.meta.dirname, '../../apps/server');
const TSX = resolve(import.meta.dirname, '../../node_modules/tsx/dist/cli.mjs');
const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;

interface Variant {
  name: string;
  argv: string[];
  env?: Record<string, string>;
}
const variants: Variant[] = [
  { name: 'tsx src/main.ts', argv: [TSX, 'src/main.ts'] },
  // tsx keeps its transforms in a cache in the temporary directory; the first start after an
  // install or a change transforms every file.
  { name: 'tsx src/main.ts, no transform cache', argv: [TSX, 'src/main.ts'], env: { TSX_DISABLE_CACHE: '1' } },
  { name: 'node dist/main.mjs', argv: ['dist/main.mjs'] },
  { name: 'node --enable-source-maps dist/main.mjs', argv: ['--enable-source-maps', 'dist/main.mjs'] },
];

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
    srv.on('error', rej);
  });
}

/** The process and its descendants (tsx's CLI runs the server in a child process). */
function tree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the parent pid follows the last ')'.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

/** CPU time (user + system, all threads) a process has used so far, in ms. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5) (utime, stime), counted from the state field (3).
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  readyMs: number;
  /** CPU time of every process of the start until the first answer: less swayed by other load on the machine than the wall time. */
  cpuMs: number;
  /** The process that serves (for tsx, its child), and every process of the start together. */
  serverRss: number;
  treeRss: number;
}

async function startOnce(v: Variant, dataDir: string): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, v.argv, {
    cwd: SERVER,
    env: {
      ...process.env, ...v.env,
      PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: '0', SIMULATOR: 'off', DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'Bench12345', LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${v.name} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/manager/basic/captcha`).then((r) => r.ok, () => false);
      if (ok) break;
      await sleep(20);
    }
    const readyMs = performance.now() - started;
    const cpu = tree(child.pid!).map(cpuMs).reduce((a, b) => a + b, 0);
    // Memory once the start's work has settled.
    await sleep(2000);
    const pids = tree(child.pid!);
    const rss = pids.map(rssMb);
    return { readyMs, cpuMs: cpu, serverRss: Math.max(...rss), treeRss: rss.reduce((a, b) => a + b, 0) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const t0 = performance.now();
  execFileSync(process.execPath, ['build.mjs'], { cwd: SERVER, stdio: 'inherit' });
  const buildMs = performance.now() - t0;
  const t1 = performance.now();
  execFileSync(process.execPath, ['build.mjs', '--if-stale'], { cwd: SERVER, stdio: 'inherit' });
  const checkMs = performance.now() - t1;

  const existing = mkdtempSync(join(tmpdir(), 'ess-bench-startup-'));
  await startOnce(variants[2]!, existing);
  const results = new Map<string, Sample[]>();
  const temps: string[] = [existing];
  for (let run = 0; run < RUNS; run++) {
    for (const v of variants) {
      for (const fresh of [true, false]) {
        const dir = fresh ? mkdtempSync(join(tmpdir(), 'ess-bench-startup-')) : existing;
        if (fresh) temps.push(dir);
        const key = `${v.name}|${fresh ? 'fresh' : 'existing'}`;
        results.set(key, [...(results.get(key) ?? []), await startOnce(v, dir)]);
      }
    }
  }
  for (const d of temps) rmSync(d, { recursive: true, force: true });

  console.log(`\nnode ${process.version}; ${RUNS} starts each, median (min–max); PGlite, demo seeded, simulator off`);
  console.log(`build (node build.mjs): ${Math.round(buildMs)} ms; up-to-date check (--if-stale): ${Math.round(checkMs)} ms\n`);
  console.log('| command | data dir | ready (ms) | CPU to ready (ms) | RSS server (MB) | RSS all processes (MB) |');
  console.log('|---|---|---|---|---|---|');
  for (const [key, xs] of results) {
    const [name, dir] = key.split('|');
    const f = (pick: (s: Sample) => number) => {
      const v = xs.map(pick);
      return `${Math.round(median(v))} (${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))})`;
    };
    console.log(`| ${name} | ${dir} | ${f((s) => s.readyMs)} | ${f((s) => s.cpuMs)} | ${f((s) => s.serverRss)} | ${f((s) => s.treeRss)} |`);
  }
}

await main();
