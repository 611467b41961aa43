import { describe, expect, it } from 'vitest';
import { compileScript, formatFailure, runScript } from './sandbox.ts';

/** The sandbox itself, without HTTP or a database. */
describe('quickjs sandbox', () => {
  it('compiles without running, and reports syntax errors with line and column', async () => {
    expect(await compileScript('while (true) {}')).toEqual({ ok: true, value: null });
    const r = await compileScript('function f() {\n  return 1 +\n}\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ kind: 'syntax', line: 3, column: 1 });
    expect(formatFailure(r.error)).toMatch(/^3:1 SyntaxError: /);
  });

  it('runs top-level code and returns its completion value', async () => {
    expect(await runScript('const a = [1, 2, 3]; a.map((x) => x * 2)')).toEqual({ ok: true, value: [2, 4, 6] });
  });

  it('passes JSON globals in and calls a named function, awaiting async results', async () => {
    const code = 'function handle(event) { return { level: event.level + base, tags: event.tags.concat("x") } }\nasync function later(n) { await null; return n * 3 }';
    expect(await runScript(code, { globals: { base: 10 }, call: { fn: 'handle', args: [{ level: 2, tags: ['a'] }] } }))
      .toEqual({ ok: true, value: { level: 12, tags: ['a', 'x'] } });
    expect(await runScript(code, { call: { fn: 'later', args: [5] } })).toEqual({ ok: true, value: 15 });
    const missing = await runScript(code, { call: { fn: 'nope' } });
    expect(missing.ok).toBe(false);
    const rejected = await runScript('async function f() { throw new TypeError("bad") }', { call: { fn: 'f' } });
    expect(rejected).toMatchObject({ ok: false, error: { kind: 'runtime', message: 'TypeError: bad' } });
  });

  it('stops an endless loop at the deadline', async () => {
    const started = Date.now();
    const r = await runScript('let i = 0;\nwhile (true) { i++ }', { limits: { timeMs: 150 } });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    if (!r.ok) expect(formatFailure(r.error)).toMatch(/^\d+:\d+ 脚本执行超时/);
  });

  it('stops runaway memory and deep recursion', async () => {
    const mem = await runScript('const parts = [];\nwhile (true) parts.push("x".repeat(1 << 16));', { limits: { memoryBytes: 4 << 20, timeMs: 5000 } });
    expect(mem).toMatchObject({ ok: false, error: { kind: 'memory' } });
    // Typed arrays and array storage escape QuickJS's own allocation count; the memory cap still holds.
    for (const code of ['const q = [];\nwhile (true) q.push(new Float64Array(10000));', 'const q = [];\nwhile (true) q.push(new Array(10000).fill(1));']) {
      const r = await runScript(code, { limits: { memoryBytes: 8 << 20, timeMs: 10_000 } });
      expect(r, code).toMatchObject({ ok: false, error: { kind: 'memory' } });
    }
    const big = await runScript('new ArrayBuffer(64 * 1024 * 1024)', { limits: { memoryBytes: 8 << 20 } });
    expect(big).toMatchObject({ ok: false, error: { kind: 'memory' } });
    const deep = await runScript('function f() { return f() }\nf()');
    expect(deep).toMatchObject({ ok: false, error: { kind: 'runtime' } });
    if (!deep.ok) expect(deep.error.message).toContain('stack overflow');
    // The sandbox keeps working after each of these.
    expect(await runScript('1 + 1')).toEqual({ ok: true, value: 2 });
  });

  it('offers no host capabilities', async () => {
    for (const probe of ['require("fs")', 'process.exit(1)', 'fetch("http://127.0.0.1")', 'setTimeout(() => 1, 1)', 'import("fs")']) {
      const r = await runScript(probe);
      expect(r.ok, probe).toBe(false);
    }
    expect(await runScript('typeof globalThis.process + typeof globalThis.require')).toEqual({ ok: true, value: 'undefinedundefined' });
  });

  it('reports thrown non-errors without a position', async () => {
    const r = await runScript('throw 5');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(formatFailure(r.error)).toBe('未捕获的异常: 5');
  });
});
