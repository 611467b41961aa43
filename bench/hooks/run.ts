/**
 * bench/hooks: a burst of domain events to hooks on one instance. Starts the real server in this
 * process (PostgreSQL, or PGlite with --pglite) and a receiver in a child process (so its parsing
 * does not share the server's event loop), makes `--hooks` hooks on alarm.opened, each with a
 * small script, signed, to the receiver, writes `--events` alarm.opened events in transactions of
 * 500 (as a burst of alarms would), and waits until every delivery is delivered. Prints:
 *   - deliveries per second (first event written → last delivery received),
 *   - event → delivery latency p50 / p99 / max (the event's commit time in the database → the
 *     receiver's clock, same machine),
 *   - the server process's RSS (start, peak, end) and the dispatcher's counters.
 *
 *   npx tsx bench/hooks/run.ts [--pglite] [--events 10000] [--hooks 10] [--no-script]
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { hook, hookSetting } from '../../apps/server/src/db/schema/hooks.ts';
import { emit } from '../../apps/server/src/platform/events/outbox.ts';
import { dispatcherOf } from '../../apps/server/src/modules/hooks/index.ts';
import { HOOK_SIGNING_SECRET } from '../../apps/server/src/modules/hooks/hooks.context.ts';
import { newSite, seededCompanies } from '../../apps/server/test/factory.ts';
import { startTestApp } from '../../apps/server/test/harness.ts';

const args = process.argv.slice(2);
const num = (name: string, def: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const EVENTS = num('--events', 10_000);
const HOOKS = num('--hooks', 10);
const target = args.includes('--pglite') ? 'pglite' : 'postgres';
const withScript = !args.includes('--no-script');

/** The receiver: answers 204 at once, remembers (event id, time received) per hook path, and reports on request. */
const RECEIVER = `
const http = require('node:http');
const seen = [];
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    seen.push([req.url, req.headers['x-ess-event-id'], Date.now()]);
    res.writeHead(204);
    res.end();
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m === 'count') process.send({ count: seen.length });
  if (m === 'dump') process.send({ seen });
});
`;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const file = join(tmpdir(), `hook-receiver-${process.pid}.cjs`);
  writeFileSync(file, RECEIVER);
  const rx = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(m: string, key: string) => new Promise<T>((resolve) => {
    const on = (msg: Record<string, unknown>) => {
      if (key in msg) {
        rx.off('message', on);
        resolve(msg as T);
      }
    };
    rx.on('message', on);
    if (m) rx.send(m);
  });
  const { port } = await ask<{ port: number }>('', 'port');

  const t = await startTestApp(target, { LOG_LEVEL: 'warn', VALIDATE_RESPONSES: 'false' });
  try {
    const { east } = await seededCompanies(t);
    const site = await newSite(t, east.id);
    await t.ctx.db.update(hookSetting).set({ allowPrivateTargets: true }).where(eq(hookSetting.id, 1));
    const box = dispatcherOf(t.ctx)!.box;
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    for (let i = 0; i < HOOKS; i++) {
      await t.ctx.db.insert(hook).values({
        companyId: east.id, name: `bench-${i}`, eventType: 'alarm.opened', url: `http://127.0.0.1:${port}/h${i}`,
        script: withScript ? 'function main(event, params) { return { text: "alarm " + event.data.no, level: event.data.level, site: event.data.siteId }; }' : null,
        secretEnc: box.seal(secret, HOOK_SIGNING_SECRET), secretHint: secret.slice(0, 10), timeoutMs: 10_000, maxRetries: 5, backoffMs: 1000,
      });
    }
    const total = EVENTS * HOOKS;
    const rss = { start: process.memoryUsage().rss, peak: 0 };
    const sampler = setInterval(() => {
      rss.peak = Math.max(rss.peak, process.memoryUsage().rss);
    }, 250);
    console.log(`${target}: ${EVENTS} events × ${HOOKS} hooks = ${total} deliveries${withScript ? ' (each through a script)' : ''}`);
    const started = Date.now();
    for (let i = 0; i < EVENTS; i += 500) {
      await t.ctx.db.transaction((tx) =>
        emit(tx, 'alarm.opened', Array.from({ length: Math.min(500, EVENTS - i) }, (_, k) => ({
          id: i + k + 1, no: `B-${i + k}`, siteId: site.id, deviceId: 1, level: 1 + ((i + k) % 5), description: 'bench', startedAt: new Date().toISOString(),
        }))),
      );
      t.ctx.outbox.nudge();
    }
    const written = Date.now();
    let last = 0;
    for (;;) {
      const { count } = await ask<{ count: number }>('count', 'count');
      if (count >= total) break;
      if (count !== last) last = count;
      process.stdout.write(`\r  received ${count} / ${total}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const { seen } = await ask<{ seen: [string, string, number][] }>('dump', 'seen');
    clearInterval(sampler);
    const end = Math.max(...seen.map((s) => s[2]));
    const { rows } = await t.ctx.database.sql.query<{ id: string; at: Date }>(`select id, created_at as at from domain_event where type = 'alarm.opened'`);
    const createdAt = new Map(rows.map((r) => [String(r.id), new Date(r.at).getTime()]));
    const lat = seen.map((s) => s[2] - createdAt.get(s[1])!).sort((a, b) => a - b);
    const distinct = new Set(seen.map((s) => `${s[0]}:${s[1]}`)).size;
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
    console.log(`\r  events written in ${((written - started) / 1000).toFixed(1)} s; all ${seen.length} deliveries at the receiver after ${((end - started) / 1000).toFixed(1)} s (${distinct} distinct)`);
    console.log(`  deliveries/s: ${(seen.length / ((end - started) / 1000)).toFixed(0)}`);
    console.log(`  event → delivery latency: p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms, max ${lat.at(-1)} ms`);
    console.log(`  server RSS: start ${mb(rss.start)}, peak ${mb(rss.peak)}, end ${mb(process.memoryUsage().rss)}`);
    console.log(`  dispatcher: ${JSON.stringify(dispatcherOf(t.ctx)!.counters)}`);
  } finally {
    await t.stop();
    rx.kill();
  }
}

await main();
