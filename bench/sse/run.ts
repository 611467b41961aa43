/**
 * bench/sse: 10,000 live-event streams on one instance. Starts the real server as a child process
 * (PostgreSQL, or PGlite with --pglite), signs in users × sessions, opens the streams (each user
 * within the per-session and per-user caps, so none is superseded), then prints:
 *   - whether every stream got a periodic heartbeat (SSE_HEARTBEAT_MS 5 s here),
 *   - notification fan-out latency (an immediate push to every user → PopupWindow on every
 *     stream): p50 / p99 / max over the streams, per round,
 *   - server memory per stream (RSS growth while opening / streams),
 *   - a profile call and a sign-in while the streams are open (the descriptor reserve).
 *
 *   npx tsx bench/sse/run.ts [--pglite] [--users 500] [--sessions 2] [--per-session 10] [--rounds 3]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freshPostgres } from '../../apps/server/test/harness.ts';

const args = process.argv.slice(2);
const usePglite = args.includes('--pglite');
const argNum = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const USERS = argNum('--users', 500);
const SESSIONS = argNum('--sessions', 2);
const PER_SESSION = argNum('--per-session', 10);
const ROUNDS = argNum('--rounds', 3);
const HEARTBEAT_MS = 5000;
const PORT = 19620 + Math.floor(Math.random() * 1000);
const PASSWORD = 'Bench12345';
const USER_PASSWORD = 'Passw0rd1';
const base = `http://127.0.0.1:${PORT}/api/manager`;

interface Envelope<T> { errorCode: string; tipMsg: string; data: T }

async function api<T>(method: 'GET' | 'POST', path: string, token: string | null, body?: unknown): Promise<Envelope<T>> {
  const r = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await r.json()) as Envelope<T>;
}

const login = async (username: string, password: string) => {
  const r = await api<{ token: string }>('POST', '/basic/user/login', null, { username, password });
  if (r.errorCode !== '00000') throw new Error(`sign-in of ${username}: ${r.tipMsg}`);
  return r.data.token;
};

/** One open stream: counts heartbeats and notes when a popup with a given title arrives. */
class Stream {
  heartbeats = 0;
  closedByServer = false;
  superseded = false;
  readonly popups = new Map<string, number>();
  private buffer = '';
  private req: http.ClientRequest | null = null;

  open(token: string): Promise<void> {
    return new Promise((ok, fail) => {
      this.req = http.get(`${base}/basic/sse/connect`, { headers: { authorization: token, accept: 'text/event-stream' }, agent: false }, (res) => {
        if (res.statusCode !== 200) {
          fail(new Error(`stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.feed(chunk));
        res.on('end', () => (this.closedByServer = true));
        res.on('error', () => (this.closedByServer = true));
        ok();
      });
      this.req.on('error', fail);
    });
  }

  close(): void {
    this.req?.destroy();
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let cut: number;
    while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      if (event === 'heartbeat') this.heartbeats += 1;
      else if (event === 'close') this.superseded = true;
      else if (event === 'PopupWindow') {
        const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}';
        const title = (JSON.parse(data) as { title?: string }).title ?? '';
        if (!this.popups.has(title)) this.popups.set(title, performance.now());
      }
    }
  }
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  const status = (() => {
    try {
      return readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return '';
    }
  })();
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function main() {
  const fresh = usePglite ? null : await freshPostgres();
  const server = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../../apps/server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(PORT), HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn', SEED_DEMO: 'false',
      MQTT_PORT: '0', SIMULATOR: 'off', LOGIN_RATE_LIMIT_PER_MINUTE: '1000000', DATA_DIR: mkdtempSync(join(tmpdir(), 'ess-bench-sse-')), WEB_DIST: '/nonexistent',
      PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1', SSE_HEARTBEAT_MS: String(HEARTBEAT_MS),
      SSE_MAX_STREAMS_PER_SESSION: String(PER_SESSION), SSE_MAX_STREAMS_PER_USER: String(PER_SESSION * SESSIONS),
      ...(fresh ? { DATABASE_URL: fresh.url } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const streams: Stream[] = [];
  try {
    await waitForServer();
    const admin = await login('admin', PASSWORD);
    const me = await api<{ companyId: number }>('GET', '/system/user/profile/info', admin);
    const roles = await api<{ id: number }[]>('POST', '/system/role/query/list', admin, {});
    const roleIds = roles.data.slice(0, 1).map((r) => r.id);
    const tag = Date.now().toString(36);
    const names = Array.from({ length: USERS }, (_, i) => `sse${tag}${i}`);
    await inBatches(names, 20, async (username) => {
      const r = await api('POST', '/system/user/add', admin, { username, name: username, password: USER_PASSWORD, companyId: me.data.companyId, roleIds });
      if (r.errorCode !== '00000') throw new Error(`user add: ${r.tipMsg}`);
    });
    const sessions: { token: string; userId: number }[] = [];
    const userIds: number[] = [];
    await inBatches(names, 20, async (username) => {
      for (let s = 0; s < SESSIONS; s++) {
        const token = await login(username, USER_PASSWORD);
        const p = await api<{ id: number }>('GET', '/system/user/profile/info', token);
        sessions.push({ token, userId: p.data.id });
        if (s === 0) userIds.push(p.data.id);
      }
    });

    const rssBefore = rssMb(server.pid);
    const opening = performance.now();
    const plan = sessions.flatMap((s) => Array.from({ length: PER_SESSION }, () => s.token));
    await inBatches(plan, 250, async (token) => {
      const st = new Stream();
      await st.open(token);
      streams.push(st);
    });
    const openSeconds = (performance.now() - opening) / 1000;
    await sleep(1000);
    const rssAfter = rssMb(server.pid);

    // Every stream must get a periodic heartbeat (beyond the one sent at open).
    const counted = streams.map((s) => s.heartbeats);
    await sleep(HEARTBEAT_MS * 2 + 1000);
    const withHeartbeat = streams.filter((s, i) => s.heartbeats > counted[i]!).length;

    // API calls and sign-ins while the streams are open.
    let t0 = performance.now();
    const profile = await api('GET', '/system/user/profile/info', admin);
    const profileMs = performance.now() - t0;
    t0 = performance.now();
    await login(names[0]!, USER_PASSWORD);
    const loginMs = performance.now() - t0;

    const rounds: { received: number; p50: number; p99: number; max: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const title = `bench-${tag}-${round}`;
      const sent = performance.now();
      const r = await api('POST', '/system/notification/set/add', admin, { title, content: 'fan-out', pushMode: 'immediate', targetType: 'user', targetIds: userIds });
      if (r.errorCode !== '00000') throw new Error(`push: ${r.tipMsg}`);
      const until = performance.now() + 30_000;
      while (performance.now() < until && streams.some((s) => !s.popups.has(title))) await sleep(50);
      const lat = streams.flatMap((s) => (s.popups.has(title) ? [s.popups.get(title)! - sent] : [])).sort((a, b) => a - b);
      rounds.push({ received: lat.length, p50: pct(lat, 50), p99: pct(lat, 99), max: lat[lat.length - 1] ?? NaN });
      await sleep(1000);
    }

    const n = streams.length;
    const out = [
      `\nbench/sse on ${usePglite ? 'PGlite' : 'PostgreSQL'}: ${n} streams from ${USERS} users × ${SESSIONS} sessions × ${PER_SESSION} streams (caps: ${PER_SESSION} per session, ${PER_SESSION * SESSIONS} per user)`,
      `opened in ${openSeconds.toFixed(1)} s; superseded ${streams.filter((s) => s.superseded).length}; ended by the server ${streams.filter((s) => s.closedByServer).length}`,
      `periodic heartbeat (every ${HEARTBEAT_MS / 1000} s) received by ${withHeartbeat} / ${n} streams`,
      `server RSS ${rssBefore.toFixed(0)} MB → ${rssAfter.toFixed(0)} MB: ${(((rssAfter - rssBefore) * 1024) / n).toFixed(1)} KB per stream`,
      `while open: profile call ${profileMs.toFixed(0)} ms (${profile.errorCode}), sign-in ${loginMs.toFixed(0)} ms`,
      ...rounds.map((r, i) => `fan-out round ${i + 1}: ${r.received} / ${n} streams got the popup; p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, max ${r.max.toFixed(0)} ms`),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    for (const s of streams) s.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await fresh?.drop();
  }
}

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    try {
      const r = await fetch(`${base}/basic/captcha`);
      if (r.status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  throw new Error('server did not start');
}

await main();
