/**
 * bench/svg: how long the worst distribution-diagram SVGs hold up the server's event loop.
 * Runs the real server in this process (so perf_hooks.monitorEventLoopDelay sees its loop), on
 * PGlite (or PostgreSQL with --postgres), uploads each document once while another request
 * pings the server every 10 ms, and prints per document: the answer, how long it took, the
 * longest event-loop stall and the slowest ping. Starts with a baseline (5 s, no upload) and ends
 * with loads of a stored 2,000-deep diagram.
 *
 *   npx tsx bench/svg/run.ts [--postgres] [--repeat 3] [--only <text in a document's name>]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { DIAGRAM_MAX_DEPTH, DIAGRAM_MAX_ELEMENTS } from '@ess/contract';
import { distributionDiagram, site } from '../../apps/server/src/db/schema/site.ts';
import { watchLoop } from './event-loop.ts';
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

interface Run {
  answer: string;
  tookMs: number;
  stallMs: number;
  pingMs: number;
}

interface Row {
  name: string;
  size: string;
  runs: Run[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const args = process.argv.slice(2);
const repeat = Number(args[args.indexOf('--repeat') + 1]) || 3;
/** Only the documents whose name holds this text (the baseline, first upload and loads always run). */
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]! : '';

async function main() {
  const target = args.includes('--postgres') ? 'postgres' : 'pglite';
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
      return { answer: run.value, tookMs: run.tookMs, stallMs: run.stallMs, pingMs };
    };
    const measure = async (name: string, size: string, fn: () => Promise<string>, times = repeat): Promise<Row> => {
      const runs: Run[] = [];
      for (let i = 0; i < times; i++) runs.push(await watch(fn));
      return { name, size, runs };
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
    // What the loop and the pings show with no upload at all (the jobs, outbox and access log
    // run meanwhile): the floor the figures below stand on, on this machine at this moment.
    rows.push(await measure('baseline: no upload, 5 s', '', async () => (await sleep(5000), 'idle')));
    // The first upload also starts the sanitiser's worker (it loads jsdom).
    const first = `${SVG}<rect id="a"/></svg>`;
    rows.push(await measure('first upload (starts the worker)', kb(first), upload(first), 1));
    for (const [name, svg] of DOCUMENTS.filter(([name]) => name.includes(only))) rows.push(await measure(name, kb(svg), upload(svg)));

    const deep = `${SVG}${Array.from({ length: 2000 }, (_, i) => `<g id="g${i}">`).join('')}${'</g>'.repeat(2000)}</svg>`;
    await t.ctx.db.update(distributionDiagram).set({ svg: deep, bindings: [] }).where(eq(distributionDiagram.siteId, siteId));
    rows.push(
      await measure('stored 2,000-deep diagram, loaded 20 times', kb(deep), async () => {
        let answer = '';
        for (let i = 0; i < 20; i++) {
          const r = await fetch(`${base}/configure/distribution/diagram/load?siteId=${siteId}`, { headers });
          const env = (await r.json()) as { errorCode: string; data: { elementIds: string[] } };
          answer = `${r.status} ${env.errorCode} (${env.data.elementIds.length} ids)`;
        }
        return answer;
      }),
    );

    const f = (ms: number, w = 6) => ms.toFixed(0).padStart(w);
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`\nbench/svg on ${target}, each case ${repeat} times: event-loop stall (monitorEventLoopDelay, 1 ms resolution), median and worst of the runs; slowest 10 ms ping\n`);
    out(`${'document'.padEnd(76)} ${'size'.padStart(8)}  took ms  stall median  stall max  ping max  answer`);
    for (const r of rows) {
      const stalls = r.runs.map((x) => x.stallMs);
      out(
        `${r.name.padEnd(76)} ${r.size.padStart(8)}  ${f(median(r.runs.map((x) => x.tookMs)), 7)}  ${f(median(stalls), 12)}  ${f(Math.max(...stalls), 9)}  ` +
          `${f(Math.max(...r.runs.map((x) => x.pingMs)), 8)}  ${r.runs.at(-1)!.answer}`,
      );
    }
    const docs = rows.slice(1);
    const worstMax = docs.reduce((a, b) => (Math.max(...b.runs.map((x) => x.stallMs)) > Math.max(...a.runs.map((x) => x.stallMs)) ? b : a));
    const worstMedian = docs.reduce((a, b) => (median(b.runs.map((x) => x.stallMs)) > median(a.runs.map((x) => x.stallMs)) ? b : a));
    out(`\nlongest stall: ${Math.max(...worstMax.runs.map((x) => x.stallMs)).toFixed(1)} ms (${worstMax.name})`);
    out(`largest median stall: ${median(worstMedian.runs.map((x) => x.stallMs)).toFixed(1)} ms (${worstMedian.name})`);
    out(`with no upload: median ${median(rows[0]!.runs.map((x) => x.stallMs)).toFixed(1)} ms, max ${Math.max(...rows[0]!.runs.map((x) => x.stallMs)).toFixed(1)} ms`);
  } finally {
    await t.stop();
  }
}

await main();
