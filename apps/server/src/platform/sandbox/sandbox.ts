import {
  newQuickJSWASMModule, newVariant, RELEASE_SYNC, shouldInterruptAfterDeadline, type CustomizeVariantOptions, type ExecutePendingJobsResult, type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule,
} from 'quickjs-emscripten';

/**
 * User scripts (hook triggers, script validation) run in QuickJS compiled to WebAssembly: no
 * access to the host's modules, files, network or timers, with a memory cap, a stack cap and a
 * deadline enforced by the interpreter's interrupt handler. Never node:vm or vm2.
 *
 * Execution is synchronous on the calling thread, so the deadline also bounds how long one
 * script can hold the event loop; keep `timeMs` small.
 */
export interface SandboxLimits {
  /** Wall-clock budget for compile + run, in milliseconds. */
  timeMs: number;
  /** Memory the script may use, in bytes (beyond the engine's fixed 16 MiB start). */
  memoryBytes: number;
  /** Interpreter stack cap, in bytes (must stay well below the WebAssembly stack). */
  stackBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { timeMs: 500, memoryBytes: 16 * 1024 * 1024, stackBytes: 256 * 1024 };

export type ScriptFailureKind = 'syntax' | 'runtime' | 'timeout' | 'memory' | 'internal';

export interface ScriptFailure {
  kind: ScriptFailureKind;
  message: string;
  /** 1-based position in the script, when the engine reports one. */
  line?: number;
  column?: number;
}

export type ScriptOutcome<T> = { ok: true; value: T } | { ok: false; error: ScriptFailure };

/** "line:col message", or the message alone when there is no position. */
export function formatFailure(f: ScriptFailure): string {
  return f.line !== undefined ? `${f.line}:${f.column ?? 1} ${f.message}` : f.message;
}

const FILE_NAME = 'script.js';

/** The WebAssembly module starts with 16 MiB of linear memory (code, data, C stack, heap). */
const BASE_PAGES = 256;
const PAGE = 64 * 1024;

/**
 * QuickJS's own malloc limit is only approximate in this build (malloc_usable_size is not
 * available under Emscripten, so many allocations go uncounted); the hard bound is the module's
 * WebAssembly memory, capped at its start size plus `memoryBytes`. Allocation beyond it fails
 * inside QuickJS as "out of memory". Modules are shared per memory cap and rebuilt after an
 * out-of-memory run or a host-level fault.
 */
/** The memory type QuickJS expects, whichever lib declares WebAssembly in this build. */
type WasmMemory = Extract<NonNullable<CustomizeVariantOptions['wasmMemory']>, (...args: never[]) => unknown> extends () => Promise<infer M> ? M : never;
/** The runtime's WebAssembly global; the server's lib settings do not declare it. */
const wasm = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly;

const modules = new Map<number, Promise<QuickJSWASMModule>>();

function quickjs(memoryBytes: number): { pages: number; module: Promise<QuickJSWASMModule> } {
  const pages = BASE_PAGES + Math.ceil(memoryBytes / PAGE);
  let module = modules.get(pages);
  if (!module) {
    const variant = newVariant(RELEASE_SYNC, {
      wasmMemory: () => Promise.resolve(new wasm.Memory({ initial: BASE_PAGES, maximum: pages })),
    });
    module = newQuickJSWASMModule(variant).catch((err: unknown) => {
      modules.delete(pages);
      throw err;
    });
    modules.set(pages, module);
  }
  return { pages, module };
}

export interface RunOptions {
  limits?: Partial<SandboxLimits>;
  /** JSON-serialisable values set as globals before the script runs. */
  globals?: Record<string, unknown>;
  /** After the top-level code, call this global function with these JSON arguments; its result (awaited if a promise) is the value. */
  call?: { fn: string; args?: unknown[] };
  /** Parse and compile only; top-level code does not run. */
  compileOnly?: boolean;
}

class Failure extends Error {
  constructor(readonly failure: ScriptFailure) {
    super(failure.message);
  }
}

/**
 * Compiles and runs a script; the value is the call's result (or the top-level completion
 * value) as JSON-like data. Script faults come back as `{ ok: false }`, never as exceptions.
 */
export async function runScript(code: string, opts: RunOptions = {}): Promise<ScriptOutcome<unknown>> {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const { pages, module: loading } = quickjs(limits.memoryBytes);
  const module = await loading;
  let healthy = true;
  let outcome: ScriptOutcome<unknown>;
  const runtime = module.newRuntime();
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeMs));
    const vm = runtime.newContext();
    try {
      outcome = { ok: true, value: await execute(vm, runtime.executePendingJobs.bind(runtime), code, opts, limits) };
    } catch (err) {
      if (!(err instanceof Failure)) throw err;
      outcome = { ok: false, error: err.failure };
    } finally {
      vm.dispose();
    }
  } catch (err) {
    healthy = false;
    outcome = { ok: false, error: { kind: 'internal', message: `脚本引擎异常: ${err instanceof Error ? err.message : String(err)}` } };
  } finally {
    try {
      runtime.dispose();
    } catch {
      healthy = false;
    }
  }
  // A module that ran out of memory or faulted is not trusted again.
  if (!healthy || (!outcome.ok && outcome.error.kind === 'memory')) {
    if (modules.get(pages) === loading) modules.delete(pages);
  }
  return outcome;
}

/** Syntax check only: `{ ok: true }` when the script compiles. */
export async function compileScript(code: string, limits?: Partial<SandboxLimits>): Promise<ScriptOutcome<null>> {
  const r = await runScript(code, { limits, compileOnly: true });
  return r.ok ? { ok: true, value: null } : r;
}

type PendingJobs = () => ExecutePendingJobsResult;

/** Disposes the handles after `body`, whatever happens. */
function withHandles<T>(handles: QuickJSHandle[], body: () => T): T {
  try {
    return body();
  } finally {
    for (const h of handles) if (h.alive) h.dispose();
  }
}

async function execute(vm: QuickJSContext, pendingJobs: PendingJobs, code: string, opts: RunOptions, limits: SandboxLimits): Promise<unknown> {
  for (const [name, value] of Object.entries(opts.globals ?? {})) {
    const handle = jsonHandle(vm, value, limits);
    withHandles([handle], () => vm.setProp(vm.global, name, handle));
  }
  const evaluated = vm.evalCode(code, FILE_NAME, { compileOnly: opts.compileOnly === true });
  if (evaluated.error) throw new Failure(failureOf(vm, evaluated.error, limits));
  const completion = evaluated.value;
  if (opts.compileOnly || opts.call) completion.dispose();
  if (opts.compileOnly) return null;
  if (!opts.call) return settle(vm, pendingJobs, completion, limits);

  const { fn: fnName, args: rawArgs = [] } = opts.call;
  const fn = vm.getProp(vm.global, fnName);
  const args: QuickJSHandle[] = [];
  let result: QuickJSHandle;
  try {
    if (vm.typeof(fn) !== 'function') throw new Failure({ kind: 'runtime', message: `脚本未定义函数 ${fnName}` });
    for (const a of rawArgs) args.push(jsonHandle(vm, a, limits));
    const called = vm.callFunction(fn, vm.undefined, ...args);
    if (called.error) throw new Failure(failureOf(vm, called.error, limits));
    result = called.value;
  } finally {
    for (const h of [fn, ...args]) if (h.alive) h.dispose();
  }
  return settle(vm, pendingJobs, result, limits);
}

/** A JSON value inside the VM (JSON text is a JavaScript expression). */
function jsonHandle(vm: QuickJSContext, value: unknown, limits: SandboxLimits): QuickJSHandle {
  const text = JSON.stringify(value) ?? 'undefined';
  const r = vm.evalCode(`(${text})`, '<input>');
  if (r.error) throw new Failure(failureOf(vm, r.error, limits));
  return r.value;
}

function isThenable(vm: QuickJSContext, handle: QuickJSHandle): boolean {
  if (vm.typeof(handle) !== 'object') return false;
  const then = vm.getProp(handle, 'then');
  return withHandles([then], () => vm.typeof(then) === 'function');
}

/**
 * Plain values are dumped; a promise is driven to completion by running the VM's job queue
 * (the sandbox has no host callbacks, so what is still pending afterwards never settles).
 * Disposes the handle.
 */
async function settle(vm: QuickJSContext, pendingJobs: PendingJobs, handle: QuickJSHandle, limits: SandboxLimits): Promise<unknown> {
  if (!isThenable(vm, handle)) return withHandles([handle], (): unknown => vm.dump(handle));
  const native = withHandles([handle], () => vm.resolvePromise(handle));
  for (;;) {
    const jobs = pendingJobs();
    if (jobs.error) throw new Failure(failureOf(vm, jobs.error, limits));
    const ran = jobs.value;
    if (ran === 0) break;
  }
  const PENDING = Symbol('pending');
  const r = await Promise.race([native, Promise.resolve(PENDING)]);
  if (r === PENDING) throw new Failure({ kind: 'runtime', message: '脚本返回的 Promise 未完成' });
  if (r.error) throw new Failure(failureOf(vm, r.error, limits));
  const value = r.value;
  return withHandles([value], (): unknown => vm.dump(value));
}

/** Turns the VM's exception into a failure with a position; disposes the handle. */
function failureOf(vm: QuickJSContext, handle: QuickJSHandle, limits: SandboxLimits): ScriptFailure {
  let dumped: unknown;
  try {
    dumped = vm.dump(handle);
  } finally {
    handle.dispose();
  }
  if (typeof dumped !== 'object' || dumped === null) {
    return { kind: 'runtime', message: `未捕获的异常: ${String(JSON.stringify(dumped) ?? dumped)}` };
  }
  const e = dumped as { name?: unknown; message?: unknown; stack?: unknown; lineNumber?: unknown };
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const message = typeof e.message === 'string' ? e.message : String(JSON.stringify(dumped));
  const at = typeof e.stack === 'string' ? new RegExp(`${FILE_NAME.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(e.stack) : null;
  const position = at
    ? { line: Number(at[1]), column: Number(at[2]) }
    : typeof e.lineNumber === 'number'
      ? { line: e.lineNumber, column: 1 }
      : {};
  if (name === 'InternalError' && message === 'interrupted') {
    return { kind: 'timeout', message: `脚本执行超时（超过 ${limits.timeMs} 毫秒）`, ...position };
  }
  if (name === 'InternalError' && message === 'out of memory') {
    return { kind: 'memory', message: `脚本内存超出限制（${Math.round(limits.memoryBytes / 1024 / 1024)} MB）`, ...position };
  }
  return { kind: name === 'SyntaxError' ? 'syntax' : 'runtime', message: `${name}: ${message}`, ...position };
}
