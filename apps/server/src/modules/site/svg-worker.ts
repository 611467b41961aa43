import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { loadSanitiser, sanitiseSvg } from './svg-sanitize.ts';
import { measureSvgSync } from './svg-scan.ts';

/**
 * The sanitiser's worker thread (started by diagram-svg.ts: through svg-worker.mjs from the
 * sources, as dist/svg-worker.mjs from the build): loads jsdom, says it is ready, then sanitises
 * one document per message and answers with the result and the result's shape, or with the
 * error's message.
 */
export interface SvgJob {
  id: number;
  markup: string;
  limits: { depth: number; elements: number };
}
export type SvgJobResult =
  | { id: number; ok: true; result: { svg: string; elementIds: string[]; depth: number; elements: number } | null }
  | { id: number; ok: false; error: string };

const port = parentPort;
if (!port) throw new Error('svg-worker.ts runs only as a worker thread');
// On Linux the nice value is per thread: this thread (and the threads it starts) yields some of the
// CPU to the server's event loop, so a document that keeps it busy for seconds slows the other
// requests, the broker and the ingest less on a small machine. Nice 5, not 19: at 19 a busy machine
// (two cores at full load) left the worker ~1.5 % of a core, so even a plain diagram ran into the
// time limit.
if (process.platform === 'linux') {
  try {
    setPriority(0, 5);
  } catch {
    // Not permitted here: the worker runs at the server's priority.
  }
}
loadSanitiser();
port.on('message', (job: SvgJob) => {
  let answer: SvgJobResult;
  try {
    const clean = sanitiseSvg(job.markup);
    answer = { id: job.id, ok: true, result: clean && { ...clean, ...measureSvgSync(clean.svg, job.limits) } };
  } catch (err) {
    answer = { id: job.id, ok: false, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
  port.postMessage(answer);
});
port.postMessage('ready');
