import { parentPort } from 'node:worker_threads';
import { loadSanitiser, sanitiseSvg } from './svg-sanitize.ts';
import { measureSvgSync } from './svg-scan.ts';

/**
 * The sanitiser's worker thread (started by diagram-svg.ts through svg-worker.mjs): loads jsdom,
 * says it is ready, then sanitises one document per message and answers with the result and the
 * result's shape, or with the error's message.
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
