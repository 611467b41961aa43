/**
 * bench/web/profile.ts: where the main thread's time goes while a page of the console loads.
 *
 *   npx tsx bench/web/profile.ts [--dist apps/web/dist] [--pages login,welcome,users] [--throttle 4] [--top 25]
 *
 * Starts the server on the given build (fresh DATA_DIR, no captcha), opens each page in Debian's
 * Chromium with a cold cache and the CPU slowed down `throttle` times (Lighthouse's mobile
 * setting is 4), records a V8 CPU profile from navigation until the network has been quiet for
 * 2 s, and prints the self time grouped by script and by function. Build without minifying
 * (`npx vite build --minify false --outDir /tmp/dist-prof` in apps/web) to see function names.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
const PAGES: Record<string, { path: string; signedIn: boolean }> = {
  login: { path: '/login', signedIn: false },
  welcome: { path: '/home/welcome', signedIn: true },
  users: { path: '/system/user', signedIn: true },
};
const pages = argOf('--pages', 'login,welcome,users').split(',');
const PASSWORD = 'Bench12345';
const PORT = 19620 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${PORT}`;

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

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
      DATA_DIR: dataDir, WEB_DIST: dist, ROLES: 'api,jobs',
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
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      const started = Date.now();
      await tab.goto(`${base}${page.path}`, { waitUntil: 'load' });
      // Signed in, the live-event stream stays open: wait for the page's own requests instead.
      await tab.waitForLoadState(page.signedIn ? 'domcontentloaded' : 'networkidle');
      await tab.waitForTimeout(4000);
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      process.stdout.write(`\n${name} ${page.path}: loaded and settled in ${Date.now() - started} ms`);
      report(name, profile);
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
