import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DIAGRAM_MAX_BYTES, DIAGRAM_MAX_DEPTH, DIAGRAM_MAX_ELEMENTS } from '@ess/contract';
import { runtimePath } from '../../platform/dist.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logging.ts';
import { measureSvg, type SvgShape } from './svg-scan.ts';
import type { SvgJob, SvgJobResult } from './svg-worker.ts';

/**
 * What an uploaded diagram goes through before it is stored: its text's shape is checked on the
 * event loop in one linear pass (svg-scan.ts), then it is sanitised in a worker thread with a
 * time limit, one document at a time, so no document can hold up other requests, the broker or
 * the ingest. The result is stored; loading a diagram serves it as stored.
 */

const LIMITS = { depth: DIAGRAM_MAX_DEPTH, elements: DIAGRAM_MAX_ELEMENTS };
/**
 * Longest sanitised markup stored (characters). Sanitising can lengthen a document (`<g/>`
 * becomes `<g></g>`, a text of '<' becomes '&lt;'): a real diagram grows by a few per cent, a
 * text of '<' fourfold. This bounds what the write (on the event loop with the embedded
 * database), every load and every answer carry.
 */
const MAX_STORED = 1.25 * DIAGRAM_MAX_BYTES;

export interface SanitiserOptions {
  /** Longest one document may take in the worker (default 10 s). */
  timeoutMs?: number;
  /** Longest the worker may take to load jsdom before its first document (default 60 s). */
  startTimeoutMs?: number;
  /** Documents that may wait for the worker; more are refused as busy (default 4). */
  maxQueued?: number;
  /** An idle worker is ended after this long (default 60 s) and started again when needed. */
  idleMs?: number;
}

/** The refusal (406, naming the limit) for a shape over a limit, or null. */
function overLimit(shape: SvgShape): AppError | null {
  if (shape.depth > LIMITS.depth) return new AppError('RULE_VIOLATION', `配电图的元素嵌套不能超过 ${LIMITS.depth} 层`);
  if (shape.elements > LIMITS.elements) return new AppError('RULE_VIOLATION', `配电图的元素不能超过 ${LIMITS.elements} 个`);
  return null;
}

const notSvg = () => new AppError('FILE_TYPE', '配电图必须是 SVG 文件');

interface Job {
  markup: string;
  resolve(v: { svg: string; elementIds: string[] }): void;
  reject(err: unknown): void;
}

export class SvgSanitiser {
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly maxQueued: number;
  private readonly idleMs: number;
  private worker: Worker | null = null;
  private ready = false;
  private readonly queue: Job[] = [];
  private current: { job: Job; id: number; timer: NodeJS.Timeout } | null = null;
  private startTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;
  private sent = 0;

  constructor(
    private readonly log: Logger,
    options: SanitiserOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 60_000;
    this.maxQueued = options.maxQueued ?? 4;
    this.idleMs = options.idleMs ?? 60_000;
  }

  /**
   * The sanitised diagram and its element ids. Refuses (406) a document over the depth or
   * element limit before it is parsed, one that is still over a limit after sanitising, one
   * that takes the worker longer than the time limit, and one with no <svg> root left.
   */
  async sanitise(markup: string): Promise<{ svg: string; elementIds: string[] }> {
    const refusal = overLimit(await measureSvg(markup, LIMITS));
    if (refusal) throw refusal;
    if (this.closed) throw new AppError('UNAVAILABLE');
    if (this.queue.length >= this.maxQueued) throw new AppError('TASK_BUSY', '配电图处理繁忙，请稍后重试');
    return new Promise((resolve, reject) => {
      this.queue.push({ markup, resolve, reject });
      this.pump();
    });
  }

  /** Documents handed to the worker so far; one refused before parsing is not among them. */
  get jobs(): number {
    return this.sent;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new AppError('UNAVAILABLE'));
    const w = this.worker;
    this.drop(new AppError('UNAVAILABLE'));
    if (w) await w.terminate();
  }

  private pump() {
    if (this.current || !this.queue.length || this.closed) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.worker) this.spawn();
    // A busy worker keeps the process up (scripts, tests); an idle one does not.
    this.worker!.ref();
    if (!this.ready) return;
    const job = this.queue.shift()!;
    const id = this.nextId++;
    const timer = setTimeout(() => {
      this.log.warn({ timeoutMs: this.timeoutMs }, 'SVG sanitising took too long; worker ended');
      void this.fail(new AppError('RULE_VIOLATION', `配电图过于复杂，无法在 ${this.timeoutMs / 1000} 秒内完成处理`));
    }, this.timeoutMs);
    this.current = { job, id, timer };
    this.sent++;
    this.worker!.postMessage({ id, markup: job.markup, limits: LIMITS } satisfies SvgJob);
  }

  private spawn() {
    // From the sources, svg-worker.mjs registers the TypeScript loader first; the build makes
    // dist/svg-worker.mjs of svg-worker.ts itself.
    const worker = new Worker(runtimePath('svg-worker.mjs', join(import.meta.dirname, 'svg-worker.mjs')), {
      // jsdom holds a parsed document many times the size of its text.
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    this.worker = worker;
    this.ready = false;
    this.startTimer = setTimeout(() => void this.fail(new AppError('UNAVAILABLE', '配电图处理服务未能启动')), this.startTimeoutMs);
    worker.on('message', (msg: 'ready' | SvgJobResult) => {
      if (worker !== this.worker) return;
      if (msg === 'ready') {
        clearTimeout(this.startTimer!);
        this.ready = true;
        this.pump();
        return;
      }
      const cur = this.current;
      if (!cur || cur.id !== msg.id) return;
      clearTimeout(cur.timer);
      this.current = null;
      if (!msg.ok) {
        // jsdom gave up on the document (its stack, for one): the document is refused, the worker is fine.
        this.log.warn({ error: msg.error }, 'SVG sanitiser failed on a document');
        cur.job.reject(new AppError('FILE_TYPE', '配电图无法解析，请检查文件'));
      } else if (!msg.result) {
        cur.job.reject(notSvg());
      } else {
        const { svg, elementIds, depth, elements } = msg.result;
        const refusal =
          overLimit({ depth, elements }) ??
          (svg.length > MAX_STORED ? new AppError('RULE_VIOLATION', `配电图清理后超过 ${MAX_STORED / 1024 / 1024} MB，请精简后再上传`) : null);
        if (refusal) cur.job.reject(refusal);
        else cur.job.resolve({ svg, elementIds });
      }
      this.afterJob();
    });
    worker.on('error', (err) => {
      if (worker !== this.worker) return;
      this.log.warn({ err }, 'SVG sanitiser worker failed');
      void this.fail(
        (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new AppError('RULE_VIOLATION', '配电图过于复杂，超出处理内存')
          : new AppError('SYSTEM_ERROR', undefined, `SVG sanitiser worker: ${err.message}`),
      );
    });
    worker.on('exit', () => {
      if (worker === this.worker) void this.fail(new AppError('SYSTEM_ERROR', undefined, 'SVG sanitiser worker exited'));
    });
  }

  /** Ends the worker (a new one starts for the next document), refusing the document it had. */
  private async fail(err: AppError) {
    const w = this.worker;
    this.drop(err);
    if (w) await w.terminate().catch(() => undefined);
    // Without a worker nothing else will move the documents still waiting.
    this.pump();
  }

  private drop(err: AppError) {
    if (this.startTimer) clearTimeout(this.startTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.startTimer = this.idleTimer = null;
    this.worker = null;
    this.ready = false;
    const cur = this.current;
    this.current = null;
    if (cur) {
      clearTimeout(cur.timer);
      cur.job.reject(err);
    } else if (!this.closed) {
      // It failed before it was ready: the documents waiting for it fail alike.
      for (const job of this.queue.splice(0)) job.reject(err);
    }
  }

  private afterJob() {
    if (this.queue.length) return this.pump();
    this.worker?.unref();
    this.idleTimer = setTimeout(() => {
      const w = this.worker;
      this.worker = null;
      this.ready = false;
      void w?.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}
