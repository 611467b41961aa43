/**
 * bench/api: load on the profile call and a page query with 100 concurrent connections.
 * Starts the real server as a child process on a fresh PostgreSQL database (or PGlite with
 * --pglite), seeds users, runs autocannon, prints requests/s, latency p50/p99 and server memory.
 *
 *   npx tsx bench/api/run.ts [--pglite] [--seconds 10] [--connections 100]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freshPostgres } from '../../apps/server/test/harness.ts';

const args = process.argv.slice(2);
const usePglite = args.includes('--pglite');
const argNum = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const seconds = argNum('--seconds', 10);
const connections = argNum('--connections', 100);
const PORT = 18620 + Math.floor(Math.random() * 1000);
const PASSWORD = 'Bench12345';

async function main() {
  // A fresh database from the test harness's helper, dropped at the end.
  const fresh = usePglite ? null : await freshPostgres();
  const dbUrl = fresh?.url;
  const server = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../../apps/server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn',
      MQTT_PORT: '0', SIMULATOR: 'off', LOGIN_RATE_LIMIT_PER_MINUTE: '100000', DATA_DIR: mkdtempSync(join(tmpdir(), 'ess-bench-')), WEB_DIST: '/nonexistent',
      ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await waitForServer();
    const base = `http://127.0.0.1:${PORT}/api/manager`;
    const login = (await (await fetch(`${base}/basic/user/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    })).json()) as { data: { token: string } };
    const token = login.data.token;
    await seedUsers(base, token, 200);

    const results: string[] = [];
    for (const [label, opts] of [
      ['GET  /system/user/profile/info', { method: 'GET' as const, path: '/system/user/profile/info' }],
      ['POST /system/user/query/page (pageSize 20)', { method: 'POST' as const, path: '/system/user/query/page', body: JSON.stringify({ current: 1, pageSize: 20 }) }],
      ['POST /system/loginLog/query/page (pageSize 20)', { method: 'POST' as const, path: '/system/loginLog/query/page', body: JSON.stringify({ current: 1, pageSize: 20 }) }],
    ] as const) {
      const r = await autocannon({
        url: base + opts.path,
        method: opts.method,
        body: 'body' in opts ? opts.body : undefined,
        headers: { authorization: token, 'content-type': 'application/json' },
        connections,
        duration: seconds,
      });
      const mem = await serverRss(server.pid);
      results.push(
        `${label.padEnd(48)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  ` +
          `errors ${r.errors + r.non2xx}  server RSS ${mem} MB`,
      );
    }
    process.stdout.write(`\nbench/api on ${usePglite ? 'PGlite' : 'PostgreSQL'}, ${connections} connections, ${seconds} s each\n`);
    for (const line of results) process.stdout.write(`${line}\n`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await fresh?.drop();
  }
}

async function waitForServer() {
  for (let i = 0; i < 120; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${PORT}/api/manager/basic/captcha`);
      if (r.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not start');
}

async function seedUsers(base: string, token: string, n: number) {
  const roles = (await (await fetch(`${base}/system/role/query/list`, {
    method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: '{}',
  })).json()) as { data: { id: number }[] };
  const profile = (await (await fetch(`${base}/system/user/profile/info`, { headers: { authorization: token } })).json()) as {
    data: { companyId: number };
  };
  const roleId = roles.data[0]?.id;
  if (!roleId) return;
  for (let i = 0; i < n; i++) {
    await fetch(`${base}/system/user/add`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ username: `bench${i}`, name: `压测用户${i}`, password: 'Passw0rd1', companyId: profile.data.companyId, roleIds: [roleId] }),
    });
  }
}

async function serverRss(pid: number | undefined): Promise<string> {
  if (!pid) return '?';
  const { readFile } = await import('node:fs/promises');
  // The child is node (tsx loader in-process), so its RSS is the server's.
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return (kb / 1024).toFixed(0);
}

await main();
