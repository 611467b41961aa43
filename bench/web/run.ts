/**
 * bench/web: the console's weight and Lighthouse performance.
 *
 *   npx tsx bench/web/run.ts [--build | --dist DIR] [--runs 3] [--pages login,welcome,users,home,station] [--form-factors desktop,mobile]
 *                            [--cpu-slowdown 1]
 *
 * 1. Builds apps/web when apps/web/dist is missing (or with --build) and takes a copy of the build
 *    (or of the build in DIR, to compare one with another),
 *    then prints the gzipped JS and CSS the login page loads (apps/web/scripts/login-bundle-size.mjs)
 *    against the 300 kB budget.
 * 2. Starts the server as a child process (fresh DATA_DIR, CAPTCHA_ENABLED=false), signs in as
 *    admin through the API and adds a page of users for the user list.
 * 3. Runs Lighthouse 13 (performance category) with Node 22 (bench/web/node22.ts) and Debian's
 *    Chromium, desktop and mobile, `runs` times per page: the login page, and signed in
 *    /home/welcome, the user list /system/user, the dashboard home /home/index and the first demo
 *    station's page /overview/station (bench/web/lighthouse.ts), and prints the median of each
 *    column. The server plays the demo stations (simulator, one day of history) for the last two. Full reports are kept in a temporary folder whose path is printed.
 *
 * The server sends the console's files as a browser gets them in production: the build's brotli
 * copies (Accept-Encoding), hashed assets cacheable (Lighthouse measures with a cold cache).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { API_BASE, TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import type { FormFactor, Job, PageJob, RunResult } from './lighthouse.ts';
import { ensureNode22 } from './node22.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'apps/web/dist');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const PASSWORD = 'Bench12345';
const PORT = 18620 + Math.floor(Math.random() * 1000);

const args = process.argv.slice(2);
const argOf = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : def;
};
const runs = Number(argOf('--runs', '3'));
/**
 * Lighthouse's simulated CPU slowdown is multiplied by this (desktop 1 -> N, mobile 4 -> 4N): the
 * scores depend on the machine (its CPU index), so a fast machine can stand in for a slower one.
 * Lighthouse calls an index of 1000-2000+ a typical desktop; 2 on an index of ~3500 is ~1750.
 */
const cpuSlowdown = Number(argOf('--cpu-slowdown', '1'));
if (!(cpuSlowdown >= 1)) throw new Error('--cpu-slowdown must be a number of at least 1');
const ALL_PAGES: PageJob[] = [
  { name: 'login', path: '/login', signedIn: false },
  { name: 'welcome', path: '/home/welcome', signedIn: true },
  { name: 'users', path: '/system/user', signedIn: true },
  // The dashboard home and a station's monitoring page (the first of the demo's three stations),
  // drawn from the demo seed's readings (see the server's environment in main()).
  { name: 'home', path: '/home/index', signedIn: true },
  { name: 'station', path: '/overview/station', signedIn: true },
];
const pageNames = argOf('--pages', ALL_PAGES.map((p) => p.name).join(',')).split(',');
const pages = ALL_PAGES.filter((p) => pageNames.includes(p.name));
const formFactors = argOf('--form-factors', 'desktop,mobile').split(',') as FormFactor[];

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Bundle {
  files: { file: string; raw: number; gzip: number }[];
  jsGzip: number;
  cssGzip: number;
  totalGzip: number;
  totalRaw: number;
  budgetKb: number;
}

/**
 * Builds when asked or when there is no build, then copies the build to a private folder: the
 * server serves the copy, so a rebuild of apps/web/dist during the runs (npm test rebuilds it when
 * the sources are newer) cannot swap files under Lighthouse.
 */
function snapshotBuild(): string {
  const given = argOf('--dist', '');
  if (given) {
    const copy = mkdtempSync(join(tmpdir(), 'ess-bench-web-dist-'));
    cpSync(resolve(given), copy, { recursive: true });
    return copy;
  }
  if (args.includes('--build') || !existsSync(join(DIST, '.vite/manifest.json'))) {
    process.stdout.write('building apps/web...\n');
    execFileSync('npm', ['run', 'build', '-w', '@ess/web'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const copy = mkdtempSync(join(tmpdir(), 'ess-bench-web-dist-'));
  cpSync(DIST, copy, { recursive: true });
  return copy;
}

function bundleReport(dist: string): Bundle {
  const out = execFileSync(process.execPath, [join(ROOT, 'apps/web/scripts/login-bundle-size.mjs'), '--json', '--dist', dist], { encoding: 'utf8' });
  const b = JSON.parse(out) as Bundle;
  process.stdout.write(`\nLogin page bundle (index.html + login route + default locale, static imports followed), gzipped:\n`);
  for (const f of b.files) process.stdout.write(`  ${kb(f.gzip).padStart(9)}  ${f.file}\n`);
  const within = b.totalGzip <= b.budgetKb * 1024;
  process.stdout.write(
    `  JS ${kb(b.jsGzip)} + CSS ${kb(b.cssGzip)} = ${kb(b.totalGzip)} of a ${b.budgetKb} kB budget: ${within ? 'within' : 'OVER'} ` +
      `(${b.files.length} files, ${kb(b.totalRaw)} uncompressed)\n`,
  );
  return b;
}

async function waitForServer(base: string) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}${API_BASE}/basic/captcha`)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not start');
}

async function api<T>(base: string, token: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(`${base}${API_BASE}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = (await r.json()) as { code?: number; data: T; tipMsg?: string };
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status} ${j.tipMsg ?? ''}`);
  return j.data;
}

/** Signs in as admin and adds 30 users, so the user list shows a full page. */
async function signInAndSeed(base: string): Promise<string> {
  const { token } = await api<{ token: string }>(base, '', '/basic/user/login', { username: 'admin', password: PASSWORD });
  const roles = await api<{ id: number }[]>(base, token, '/system/role/query/list', {});
  const profile = await api<{ companyId: number }>(base, token, '/system/user/profile/info');
  const roleId = roles[0]?.id;
  if (roleId !== undefined) {
    for (let i = 0; i < 30; i++) {
      await api(base, token, '/system/user/add', {
        username: `bench${i}`, name: `压测用户${i}`, password: 'Passw0rd1', companyId: profile.companyId, roleIds: [roleId],
      });
    }
  }
  return token;
}

function runLighthouse(node22: string, job: Job): Promise<RunResult[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node22, [join(import.meta.dirname, 'lighthouse.ts'), JSON.stringify(job)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CHROME_PATH: job.chromePath, NODE_NO_WARNINGS: '1' },
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`lighthouse runner exited with ${code}`));
      else resolvePromise(out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as RunResult));
    });
  });
}

function printTable(results: RunResult[]) {
  const ms = (x: number) => (Number.isFinite(x) ? `${(x / 1000).toFixed(2)} s` : '-');
  const head = ['page', 'form factor', 'score', '(min-max)', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'JS over the wire', 'CPU index'];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const page of pages) {
    for (const ff of formFactors) {
      const all = results.filter((r) => r.page === page.name && r.formFactor === ff);
      if (all.length === 0) continue;
      // Metrics of the runs Lighthouse could score (a hung page measures nothing, not zero).
      const scored = all.filter((r) => r.score !== null);
      const rs = scored.length ? scored : all;
      const scores = rs.map((r) => (r.score === null ? Number.NaN : r.score * 100));
      const finite = scores.filter(Number.isFinite);
      rows.push([
        `${page.name} ${page.path}`,
        ff,
        Number.isFinite(median(scores)) ? String(Math.round(median(scores))) : '-',
        (finite.length ? `${Math.round(Math.min(...finite))}-${Math.round(Math.max(...finite))}` : '-') +
          (scored.length < all.length ? ` (${scored.length} of ${all.length} scored)` : ''),
        ms(median(rs.map((r) => r.fcp))),
        ms(median(rs.map((r) => r.lcp))),
        `${Math.round(median(rs.map((r) => r.tbt)))} ms`,
        median(rs.map((r) => r.cls)).toFixed(3),
        ms(median(rs.map((r) => r.si))),
        kb(median(rs.map((r) => r.transfer.Script ?? 0))),
        String(Math.round(median(rs.map((r) => r.benchmarkIndex)))),
      ]);
      const redirected = [...new Set(rs.map((r) => new URL(r.finalUrl).pathname).filter((p) => p !== page.path))];
      if (redirected.length) notes.push(`${page.path} (${ff}) ended on ${redirected.join(', ')}: the console redirected it`);
      for (const r of all) if (r.error) notes.push(`${page.path} ${ff} run ${r.run}: ${r.error}`);
      for (const w of new Set(rs.flatMap((r) => r.warnings))) {
        const text = /loaded too slowly/.test(w)
          ? 'Lighthouse stopped waiting at 45 s: the network or the main thread never went quiet (work after that is not counted)'
          : w.replace(/\s+/g, ' ').slice(0, 200);
        notes.push(`${page.path} ${ff}: ${text}`);
      }
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(
    `\nLighthouse 13, performance, files as the server sends them (brotli), median of ${runs} runs per row${cpuSlowdown > 1 ? `, CPU slowed ${cpuSlowdown}× more than Lighthouse's own setting` : ''} ` +
      `(score range in brackets; CPU index: Lighthouse's benchmarkIndex of this machine during the runs):\n`,
  );
  process.stdout.write(`load average after the runs: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min; ${cpus().length} CPUs)\n`);
  process.stdout.write(`${line(head)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  for (const r of rows) process.stdout.write(`${line(r)}\n`);
  for (const n of notes) process.stdout.write(`note: ${n}\n`);
  process.stdout.write('\nLargest Lighthouse savings (ms of FCP+LCP+TBT, median run of each row):\n');
  for (const page of pages) {
    for (const ff of formFactors) {
      const rs = results.filter((r) => r.page === page.name && r.formFactor === ff).sort((a, b) => (a.score ?? 0) - (b.score ?? 0));
      const mid = rs[Math.floor(rs.length / 2)];
      if (!mid) continue;
      const opp = mid.opportunities.map((o) => `${o.id} ${Math.round(o.ms)}`).join(', ') || 'none';
      process.stdout.write(`  ${page.name} ${ff}: ${opp}; main thread ${Math.round(mid.mainThreadMs)} ms; report ${mid.report}\n`);
    }
  }
}

async function main() {
  const dist = snapshotBuild();
  const bundle = bundleReport(dist);
  const node22 = ensureNode22();
  const dataDir = mkdtempSync(join(tmpdir(), 'ess-bench-web-data-'));
  const outDir = mkdtempSync(join(tmpdir(), 'ess-bench-web-reports-'));
  mkdirSync(outDir, { recursive: true });
  const server = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn',
      DATA_DIR: dataDir, WEB_DIST: dist, ROLES: 'api,ingest,jobs', LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
      // The demo's stations, played by the simulator over the embedded broker (any free port), with
      // one day of past readings: the home page and the station page draw real figures and curves.
      SEED_DEMO: 'true', SIMULATOR: 'auto', MQTT_PORT: '0', DEMO_HISTORY_DAYS: '1',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The demo's history is written after the server listens, then the simulator starts and says
  // so on stdout: the pages are measured only after that, with the CPU quiet again.
  const simulatorUp = new Promise<void>((ok, fail) => {
    let seen = '';
    let up = false;
    const timer = setTimeout(() => fail(new Error('the station simulator did not start within 180 s')), 180_000);
    server.stdout.setEncoding('utf8');
    // Read (and drop) everything the server prints, so its pipe never fills.
    server.stdout.on('data', (d: string) => {
      if (up) return;
      seen = (seen + d).slice(-4096);
      if (/\[simulator\] \d+ stations/.test(seen)) {
        up = true;
        clearTimeout(timer);
        ok();
      }
    });
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    await waitForServer(base);
    await simulatorUp;
    const token = await signInAndSeed(base);
    process.stdout.write(`\nserver on ${base} (DATA_DIR ${dataDir}); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; Lighthouse on ${node22}, ${CHROME}\n`);
    const results = await runLighthouse(node22, {
      baseUrl: base, chromePath: CHROME, chromeFlags: CHROME_FLAGS, token, tokenKey: TOKEN_STORAGE_KEY, runs, formFactors, cpuSlowdown, pages, outDir,
    });
    // What the login page really loaded in the browser, against the manifest's count.
    const login = results.find((r) => r.page === 'login');
    if (login) {
      const byFile = new Map(bundle.files.map((f) => [`/${f.file}`, f.gzip]));
      const extra = login.assets.filter((a) => !byFile.has(a));
      const loaded = login.assets.reduce((n, a) => n + (byFile.get(a) ?? 0), 0);
      process.stdout.write(
        `\nIn the browser the login page loaded ${login.assets.length} JS/CSS files; the ${login.assets.length - extra.length} the manifest count ` +
          `lists weigh ${kb(loaded)} gzipped${extra.length ? `; not in the count: ${extra.join(', ')}` : ''}.\n`,
      );
    }
    printTable(results);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dist, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
