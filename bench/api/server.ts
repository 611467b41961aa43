import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { AnyEndpoint } from '@ess/contract';

/**
 * The server under test of bench/api, as a child process with the query counter preloaded
 * (count-queries.ts) and an IPC channel to ask it. The one place that knows how the server starts.
 */

export const ROOT = resolve(import.meta.dirname, '../..');
const COUNTER = resolve(import.meta.dirname, 'count-queries.ts');
export const PASSWORD = 'Bench12345';

/**
 * The command that starts the server: --server-cmd or BENCH_SERVER_CMD (run from the repository
 * root, e.g. "node apps/server/dist/main.js"), else the TypeScript sources through tsx. It must
 * start with node: the bench inserts its node flags (the counter, --cpu-prof) after that word
 * and measures that very process (its RSS).
 */
export function serverCommand(override: string | undefined): string[] {
  const cmd = override ?? process.env.BENCH_SERVER_CMD;
  if (!cmd) return [process.execPath, '--import', 'tsx', 'apps/server/src/main.ts'];
  const words = cmd.trim().split(/\s+/);
  if (!/(^|\/)node$/.test(words[0] ?? '')) throw new Error(`--server-cmd must start with node, got "${cmd}"`);
  return words;
}

export interface ServerChild {
  proc: ChildProcess;
  /** http://127.0.0.1:<port>/api/manager */
  base: string;
  /** Statements sent to the database so far, and the monotonic clock (µs) when counted. */
  counters(): Promise<{ queries: number; monoUs: number }>;
  /** Resident memory now and at its peak, MB. */
  rss(): { now: number; peak: number };
  stop(): Promise<void>;
}

export async function startServer(opts: {
  cmd: string[];
  env: Record<string, string>;
  nodeFlags?: string[];
  /** Every line the server writes to stdout. */
  onLine?: (line: string) => void;
}): Promise<ServerChild> {
  const port = await freePort();
  const [exe, ...rest] = opts.cmd;
  const proc = spawn(exe!, [...(opts.nodeFlags ?? []), '--import', 'tsx', '--import', COUNTER, ...rest], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, CAPTCHA_ENABLED: 'false', LOG_LEVEL: 'warn', MQTT_PORT: '0',
      LOGIN_RATE_LIMIT_PER_MINUTE: '100000', WEB_DIST: '/nonexistent', DATABASE_URL: '',
      // Cheap password hashes: the bench adds users and signs in while seeding; no measured call hashes.
      PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_TIME_COST: '1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  createInterface({ input: proc.stdout! }).on('line', (line) => opts.onLine?.(line));
  const exited = once(proc, 'exit');
  const base = `http://127.0.0.1:${port}/api/manager`;
  const child: ServerChild = {
    proc,
    base,
    counters: async () => {
      const reply = once(proc, 'message') as Promise<[{ queries: number; monoUs: number }]>;
      proc.send('queries');
      return (await reply)[0];
    },
    rss: () => rssOf(proc.pid),
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with code ${proc.exitCode} while starting`);
    if (i >= 240) {
      await child.stop();
      throw new Error('server did not start in 120 s');
    }
    if ((await fetch(`${base}/basic/captcha`).catch(() => null))?.status === 200) return child;
    await sleep(500);
  }
}

/** One call with its body parsed, failing loudly unless it answers 200 with errorCode 00000. */
export async function call<T = unknown>(base: string, ep: AnyEndpoint, opts: { token?: string; query?: string; body?: unknown } = {}): Promise<{ data: T; bytes: number }> {
  const res = await fetch(`${base}${ep.path}${opts.query ? `?${opts.query}` : ''}`, {
    method: ep.method,
    headers: {
      'accept-encoding': 'identity',
      ...(opts.token ? { authorization: opts.token } : {}),
      ...(ep.method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    body: ep.method === 'POST' ? JSON.stringify(opts.body ?? {}) : undefined,
  });
  const buf = Buffer.from(await res.arrayBuffer());
  const env = JSON.parse(buf.toString('utf8')) as { errorCode?: string; errorMsg?: string; data: T };
  if (res.status !== 200 || env.errorCode !== '00000') {
    throw new Error(`${ep.method} ${ep.path} answered ${res.status} ${env.errorCode ?? ''} ${env.errorMsg ?? buf.toString('utf8').slice(0, 300)}`);
  }
  return { data: env.data, bytes: buf.length };
}

/** Resident memory of a process now and at its peak, MB. */
export function rssOf(pid: number | undefined): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (key: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { now: mb('VmRSS'), peak: mb('VmHWM') };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  srv.close();
  return port;
}
