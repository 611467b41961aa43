/**
 * bench/web/profile.ts: where the main thread's time goes while a page of the console loads.
 *
 *   npx tsx bench/web/profile.ts [--dist apps/web/dist] [--pages login,welcome,users,home,station] [--throttle 4] [--top 25] [--trace]
 *
 * Starts the server on the given build (fresh DATA_DIR, no captcha), opens each page in Debian's
 * Chromium with a cold cache and the CPU slowed down `throttle` times (Lighthouse's mobile
 * setting is 4), records a V8 CPU profile from navigation until the network has been quiet for
 * 2 s, and prints the self time grouped by script and by function. Build without minifying
 * (`npx vite build --minify false --outDir /tmp/dist-prof` in apps/web) to see function names.
 * With --trace it also records a Chromium trace and lists the main thread's tasks of 50 ms or
 * more (the tasks Total Blocking Time counts) with what they spent their time on.
 * For a closer look: TRACE_TREE=1 prints every event of 1 ms or more in those tasks,
 * TRACE_CATEGORIES=a,b,... chooses the trace's categories (more detail: add blink,loading,v8),
 * GAP_MS (default 2) is the idle gap that separates two busy stretches of the CPU profile, and
 * PROFILE_OUT=/tmp/x keeps each page's CPU profile as /tmp/x-<page>.cpuprofile (DevTools opens it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { API_BASE, TOKEN_STORAGE_KEY } from '@ess/contract/constants';

const ROOT = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const argOf = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : def;
};
const dist = resolve(argOf('--dist', join(ROOT, 'apps/web/dist')));
const throttle = Number(argOf('--throttle', '4'));
const top = Number(argOf('--top', '25'));
const GAP_MS = Number(process.env.GAP_MS ?? 2);
const withTrace = args.includes('--trace');
const PAGES: Record<string, { path: string; signedIn: boolean }> = {
  login: { path: '/login', signedIn: false },
  welcome: { path: '/home/welcome', signedIn: true },
  users: { path: '/system/user', signedIn: true },
  home: { path: '/home/index', signedIn: true },
  station: { path: '/overview/station', signedIn: true },
};
const pages = argOf('--pages', 'login,welcome,users').split(',');
const PASSWORD = 'Bench12345';
const PORT = 19620 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${PORT}`;

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** React's phases, by the names of its functions in an unminified build. */
const PHASES = ['renderRootSync', 'renderRootConcurrent', 'commitRoot', 'flushPassiveEffects'];

/**
 * The profile's busy stretches of 50 ms or more (samples between idle ones), each with the time
 * spent in React's phases and the components rendered (the functions renderWithHooks called).
 */
function reportTasks(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number) => {
    const out: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) out.push(byId.get(cur)!);
    return out;
  };
  interface Task { start: number; end: number; samples: [number, number][] }
  const tasks: Task[] = [];
  let current: Task | null = null;
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    t += (profile.timeDeltas[i] ?? 0) / 1000;
    const name = byId.get(id)?.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') {
      if (current && t - current.end > GAP_MS) {
        tasks.push(current);
        current = null;
      }
      continue;
    }
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    current ??= { start: t, end: t, samples: [] };
    current.end = t + dt;
    current.samples.push([id, dt]);
  }
  if (current) tasks.push(current);
  for (const k of tasks.filter((x) => x.end - x.start >= 50)) {
    const phase = new Map<string, number>();
    const comps = new Map<string, number>();
    const inCommit = new Map<string, number>();
    const syncComps = new Map<string, number>();
    for (const [id, dt] of k.samples) {
      const stack = stackOf(id);
      const names = new Set(stack.map((n) => n.callFrame.functionName));
      for (const p of PHASES) if (names.has(p)) phase.set(p, (phase.get(p) ?? 0) + dt);
      if (names.has('commitRoot')) {
        // The commit's work by the function nearest the effect: the frame under commitHookEffectListMount etc.
        const leaf = stack.find((n) => /^(use|inject|insert|append|commitAttach|setValueFor|setProp|updateCSS|removeCSS)/i.test(n.callFrame.functionName))
          ?? stack[0]!;
        inCommit.set(leaf.callFrame.functionName, (inCommit.get(leaf.callFrame.functionName) ?? 0) + dt);
      }
      // The outermost component on the stack (a component's own work includes its hooks).
      for (let j = stack.length - 1; j > 0; j--) {
        if (stack[j]!.callFrame.functionName === 'renderWithHooks') {
          const c = stack[j - 1]!.callFrame.functionName || '(anonymous)';
          comps.set(c, (comps.get(c) ?? 0) + dt);
          if (names.has('renderRootSync')) syncComps.set(c, (syncComps.get(c) ?? 0) + dt);
        }
      }
    }
    const fmt = (m: Map<string, number>, n: number) =>
      [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k2, v]) => `${k2} ${Math.round(v)}`).join(', ');
    process.stdout.write(`    task at ${Math.round(k.start)} ms: ${Math.round(k.end - k.start)} ms; ${fmt(phase, 4)}\n      components: ${fmt(comps, 10)}\n      in sync renders: ${fmt(syncComps, 8)}\n      in commits: ${fmt(inCommit, 10)}\n`);
  }
}

interface LongFrame {
  startTime: number; duration: number; blockingDuration: number; renderStart: number; styleAndLayoutStart: number;
  scripts: { invoker: string; sourceURL: string; sourceFunctionName: string; duration: number; forcedStyleAndLayoutDuration: number }[];
}

/** The long animation frames of the load: start, length, blocking part, style and layout, and the scripts that ran. */
function reportFrames(frames: LongFrame[]) {
  const blocking = frames.reduce((s, f) => s + f.blockingDuration, 0);
  process.stdout.write(`  long animation frames: ${frames.length}, blocking ${Math.round(blocking)} ms in all\n`);
  for (const f of frames) {
    const layout = f.styleAndLayoutStart ? f.startTime + f.duration - f.styleAndLayoutStart : 0;
    process.stdout.write(`    at ${Math.round(f.startTime)} ms: ${Math.round(f.duration)} ms (blocking ${Math.round(f.blockingDuration)}, style+layout ${Math.round(layout)})\n`);
    for (const s of f.scripts.filter((x) => x.duration >= 5)) {
      const file = s.sourceURL.replace(/^.*\//, '');
      process.stdout.write(`      ${String(Math.round(s.duration)).padStart(5)} ms  ${s.invoker} ${s.sourceFunctionName || ''} ${file}${s.forcedStyleAndLayoutDuration ? ` (forced layout ${Math.round(s.forcedStyleAndLayoutDuration)})` : ''}\n`);
    }
  }
}

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string; data?: { url?: string; functionName?: string } } }

/**
 * The renderer main thread's tasks of 50 ms or more in a Chromium trace, each with the time of the
 * events directly under it (script evaluation, function calls, style, layout, parsing...) and the
 * scripts those ran.
 */
function reportTrace(trace: { traceEvents: TraceEvent[] }) {
  const events = trace.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.tid === e.tid && x.name === 'ParseHTML'));
  if (!main) return;
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const nav = onMain.find((e) => e.name === 'ParseHTML')?.ts ?? onMain[0]?.ts ?? 0;
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur! >= 50_000);
  process.stdout.write(`  tasks of 50 ms or more (trace, from the start of HTML parsing): ${tasks.length}\n`);
  for (const task of tasks) {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
    // The events directly under the task: not inside another event of the task.
    const direct = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!));
    const parts = new Map<string, number>();
    for (const e of direct) {
      const url = e.args?.data?.url?.replace(/^.*\//, '');
      const key = url ? `${e.name} ${url}` : e.name;
      parts.set(key, (parts.get(key) ?? 0) + e.dur!);
    }
    const list = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${Math.round(v / 1000)}`).join(', ');
    process.stdout.write(`    at ${Math.round((task.ts - nav) / 1000)} ms: ${Math.round(task.dur! / 1000)} ms; ${list}\n`);
    if (process.env.TRACE_TREE) {
      const depth = (e: TraceEvent) => inside.filter((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!).length;
      for (const e of inside.filter((x) => x.dur! >= 1000)) process.stdout.write(`      ${'  '.repeat(depth(e))}${e.name} ${Math.round(e.dur! / 1000)} ${JSON.stringify(e.args?.data ?? {}).slice(0, 120)}\n`);
    }
  }
}

async function waitForServer() {
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

function report(name: string, profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const script = f.url ? new URL(f.url).pathname.replace(/^\/assets\//, '') : `(${f.functionName || 'native'})`;
    total += us;
    if (f.functionName === '(idle)') continue;
    byScript.set(script, (byScript.get(script) ?? 0) + us);
    const fn = `${f.functionName || '(anonymous)'} ${script}:${f.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
  const busy = [...byScript.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`\n${name}: ${ms(busy)} busy of ${ms(total)} recorded (CPU slowed ${throttle}×)\n  by script:\n`);
  for (const [k, v] of [...byScript].sort((a, b) => b[1] - a[1]).slice(0, 12)) process.stdout.write(`  ${ms(v)}  ${k}\n`);
  process.stdout.write('  by function (self time):\n');
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${ms(v)}  ${k}\n`);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ess-profile-data-'));
  const server = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/server/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env, PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn',
      DATA_DIR: dataDir, WEB_DIST: dist, ROLES: 'api,ingest,jobs',
      SEED_DEMO: 'true', SIMULATOR: 'auto', MQTT_PORT: '0', DEMO_HISTORY_DAYS: '1', // the home and station pages' figures (as bench/web/run.ts)
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await waitForServer();
    const login = await fetch(`${base}${API_BASE}/basic/user/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    const { data } = (await login.json()) as { data: { token: string } };
    for (const name of pages) {
      const page = PAGES[name];
      if (!page) throw new Error(`unknown page ${name}`);
      const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
      if (page.signedIn) await context.addInitScript(`localStorage.setItem(${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(data.token)})`);
      // Long animation frames (Chromium's LoAF): which work blocked the main thread, frame by frame.
      await context.addInitScript(`window.__loaf = [];
        new PerformanceObserver((l) => window.__loaf.push(...l.getEntries().map((e) => e.toJSON())))
          .observe({ type: 'long-animation-frame', buffered: true });`);
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      if (withTrace) await browser.startTracing(tab, { categories: (process.env.TRACE_CATEGORIES ?? 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute').split(',') });
      const started = Date.now();
      await tab.goto(`${base}${page.path}`, { waitUntil: 'load' });
      // Signed in, the live-event stream stays open: wait for the page's own requests instead.
      await tab.waitForLoadState(page.signedIn ? 'domcontentloaded' : 'networkidle');
      await tab.waitForTimeout(4000);
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      if (process.env.PROFILE_OUT) writeFileSync(`${process.env.PROFILE_OUT}-${name}.cpuprofile`, JSON.stringify(profile));
      const trace = withTrace ? (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }) : null;
      process.stdout.write(`\n${name} ${page.path}: loaded and settled in ${Date.now() - started} ms`);
      report(name, profile);
      reportTasks(profile);
      reportFrames(await tab.evaluate(() => (globalThis as unknown as { __loaf: LongFrame[] }).__loaf));
      if (trace) reportTrace(trace);
      await context.close();
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
