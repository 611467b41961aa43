/**
 * bench/svg: how long the worst distribution-diagram SVGs hold up the server's event loop.
 * Runs the real server in this process (so perf_hooks.monitorEventLoopDelay sees its loop), on
 * PGlite (or PostgreSQL with --postgres), uploads each document once while another request
 * pings the server every 10 ms, and prints per document: the answer, how long it took, the
 * longest event-loop stall and the slowest ping. Ends with loads of a stored 2,000-deep diagram.
 *
 *   npx tsx bench/svg/run.ts [--postgres]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { DIAGRAM_MAX_DEPTH, DIAGRAM_MAX_ELEMENTS } from '@ess/contract';
import { distributionDiagram, site } from '../../apps/server/src/db/schema/site.ts';
import { watchLoop } from '../../apps/server/test/event-loop.ts';
import { startTestApp } from '../../apps/server/test/harness.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg">';
const nested = (depth: number) => `${SVG}${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`;
const path = (i: number) =>
  `<path id="p${i}" class="bus a b" d="M0 0L10 10L20 5Z" style="fill:url(#g);stroke:#333" transform="translate(${i} 1)" stroke-width="2" opacity="0.5" onclick="x()"/>`;

const DOCUMENTS: [string, string][] = [
  ['nested <g> x 10,000 (the report: 30 s, 500)', nested(10_000)],
  ['nested <g> x 150,000 (the report: 94 s)', nested(150_000)],
  ['nested <g> x 2,000', nested(2_000)],
  [`<rect/> x ${DIAGRAM_MAX_ELEMENTS + 1}`, `${SVG}${'<rect/>'.repeat(DIAGRAM_MAX_ELEMENTS + 1)}</svg>`],
  [`${DIAGRAM_MAX_ELEMENTS / (DIAGRAM_MAX_DEPTH - 1) | 0} groups ${DIAGRAM_MAX_DEPTH - 1} deep (at both limits)`, `${SVG}${('<g>'.repeat(DIAGRAM_MAX_DEPTH - 1) + '</g>'.repeat(DIAGRAM_MAX_DEPTH - 1)).repeat((DIAGRAM_MAX_ELEMENTS / (DIAGRAM_MAX_DEPTH - 1)) | 0)}</svg>`],
  ['12,500 paths with attributes and handlers (2 MB)', `${SVG}${Array.from({ length: 12_500 }, (_, i) => path(i)).join('')}</svg>`],
  ['<desc> + <div/> x 15,000 (flat to the scan, 15,000 deep to an HTML parser)', `${SVG}<desc>${'<div/>'.repeat(15_000)}</desc></svg>`],
  ['<desc> + <div/> x 19,000', `${SVG}<desc>${'<div/>'.repeat(19_000)}</desc></svg>`],
  ['one 2 MB comment', `${SVG}<!--${'x'.repeat(2 * 1024 * 1024 - 100)}--></svg>`],
  ['2 MB attribute value, never closed', `${SVG}<g a="${'x'.repeat(2 * 1024 * 1024 - 100)}`],
  ['2 MB of text', `${SVG}<text>${'<'.repeat(1024 * 1024)}${'x'.repeat(1024 * 1024 - 100)}</text></svg>`],
];

/** A multipart body built before the clock starts, so the client's own work stays out of the figures. */
function multipart(siteId: number, svg: string): { body: Buffer; type: string } {
  const b = `----bench${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="siteId"\r\n\r\n${siteId}\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="bench.svg"\r\nContent-Type: image/svg+xml\r\n\r\n`),
    Buffer.from(svg),
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${b}` };
}

interface Row {
  name: string;
  size: string;
  answer: string;
  tookMs: number;
  stallMs: number;
  p99Ms: number;
  pingMs: number;
}

async function main() {
  const target = process.argv.includes('--postgres') ? 'postgres' : 'pglite';
  const t = await startTestApp(target, { VALIDATE_RESPONSES: 'false' });
  const base = `${t.url}/api/manager`;
  const headers = { authorization: t.adminToken };
  try {
    const [s] = await t.ctx.db.insert(site).values({ companyId: 1, name: 'bench', code: `BENCH${Date.now() % 100000}` }).returning({ id: site.id });
    const siteId = s!.id;

    /** Runs `fn` with the loop watched and a ping every 10 ms. */
    const watch = async (fn: () => Promise<string>) => {
      let pinging = true;
      let pingMs = 0;
      const pinger = (async () => {
        while (pinging) {
          const t0 = performance.now();
          await fetch(`${base}/system/user/profile/info`, { headers }).then((r) => r.arrayBuffer());
          pingMs = Math.max(pingMs, performance.now() - t0);
          await sleep(10);
        }
      })();
      await sleep(50);
      const run = await watchLoop(fn, 1);
      pinging = false;
      await pinger;
      return { answer: run.value, tookMs: run.tookMs, stallMs: run.stallMs, p99Ms: run.p99Ms, pingMs };
    };
    const upload = (svg: string) => {
      const { body, type } = multipart(siteId, svg);
      return async () => {
        const r = await fetch(`${base}/configure/distribution/diagram/upload`, { method: 'POST', headers: { ...headers, 'content-type': type }, body });
        const env = (await r.json()) as { errorCode: string; tipMsg: string };
        return `${r.status} ${env.errorCode}${env.tipMsg ? ` ${env.tipMsg}` : ''}`;
      };
    };

    const rows: Row[] = [];
    const kb = (s: string) => `${(Buffer.byteLength(s) / 1024).toFixed(0)} KB`;
    // The first upload also starts the sanitiser's worker (it loads jsdom).
    const first = `${SVG}<rect id="a"/></svg>`;
    rows.push({ name: 'first upload (starts the worker)', size: kb(first), ...(await watch(upload(first))) });
    for (const [name, svg] of DOCUMENTS) {
      rows.push({ name, size: kb(svg), ...(await watch(upload(svg))) });
    }

    const deep = `${SVG}${Array.from({ length: 2000 }, (_, i) => `<g id="g${i}">`).join('')}${'</g>'.repeat(2000)}</svg>`;
    await t.ctx.db.update(distributionDiagram).set({ svg: deep, bindings: [] }).where(eq(distributionDiagram.siteId, siteId));
    const n = await t.ctx.db.select({ id: distributionDiagram.id }).from(distributionDiagram).where(eq(distributionDiagram.siteId, siteId));
    if (!n.length) await t.ctx.db.insert(distributionDiagram).values({ siteId, fileName: 'deep.svg', svg: deep, bindings: [] });
    rows.push({
      name: 'stored 2,000-deep diagram, loaded 20 times',
      size: kb(deep),
      ...(await watch(async () => {
        let answer = '';
        for (let i = 0; i < 20; i++) {
          const r = await fetch(`${base}/configure/distribution/diagram/load?siteId=${siteId}`, { headers });
          const env = (await r.json()) as { errorCode: string; data: { elementIds: string[] } };
          answer = `${r.status} ${env.errorCode} (${env.data.elementIds.length} ids)`;
        }
        return answer;
      })),
    });

    const f = (ms: number) => ms.toFixed(0).padStart(6);
    process.stdout.write(`\nbench/svg on ${target}: longest event-loop stall (monitorEventLoopDelay, 1 ms resolution) and slowest 10 ms ping per document\n\n`);
    process.stdout.write(`${'document'.padEnd(76)} ${'size'.padStart(8)}  took ms  stall ms  p99 ms  ping ms  answer\n`);
    for (const r of rows) {
      process.stdout.write(`${r.name.padEnd(76)} ${r.size.padStart(8)}  ${f(r.tookMs)}  ${f(r.stallMs).padStart(8)}  ${f(r.p99Ms)}  ${f(r.pingMs).padStart(7)}  ${r.answer}\n`);
    }
    const worst = rows.reduce((a, b) => (b.stallMs > a.stallMs ? b : a));
    process.stdout.write(`\nlongest stall: ${worst.stallMs.toFixed(1)} ms (${worst.name})\n`);
  } finally {
    await t.stop();
  }
}

await main();
