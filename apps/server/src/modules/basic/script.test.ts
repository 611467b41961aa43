import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';

type Verdict = { valid: true } | { valid: false; error: string };

describe.each(dbTargets(import.meta.url))('script validation on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(async () => t?.stop());

  const check = (script: unknown) => t.api.post<Verdict>('/basic/validate/script', t.adminToken, { script });

  it('accepts a valid script', async () => {
    const r = await check('function handle(alarm) {\n  return alarm.level <= 2 ? "urgent" : "normal";\n}\n');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ valid: true });
  });

  it('answers a syntax error as a verdict with line:col, not an HTTP error', async () => {
    const r = await check('const a = 1;\nconst b = (a +;\n');
    expect(r.status).toBe(200);
    expect(r.body.errorCode).toBe('00000');
    expect(r.body.data.valid).toBe(false);
    if (!r.body.data.valid) expect(r.body.data.error).toMatch(/^2:\d+ SyntaxError: /);
  });

  it('reports an exception in top-level code with its position', async () => {
    const r = await check('const x = 1;\nundefinedThing.call();');
    expect(r.body.data).toEqual({ valid: false, error: expect.stringMatching(/^2:\d+ ReferenceError: .*undefinedThing/) as unknown });
  });

  it('stops an endless top-level loop by the time limit', async () => {
    const started = Date.now();
    const r = await check('for (;;) {}');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.status).toBe(200);
    expect(r.body.data.valid).toBe(false);
    if (!r.body.data.valid) expect(r.body.data.error).toContain('超时');
    // The server answers normally afterwards.
    expect((await check('1')).body.data).toEqual({ valid: true });
  });

  it('stops runaway memory', async () => {
    const r = await check('const s = [];\nwhile (true) s.push(new Array(100000).fill(1));');
    expect(r.body.data.valid).toBe(false);
    if (!r.body.data.valid) expect(r.body.data.error).toMatch(/内存|超时/);
  });

  it('validates the body: script must be a string of at most 100 000 characters', async () => {
    const missing = await t.api.post('/basic/validate/script', t.adminToken, {});
    expect(missing.status).toBe(400);
    expect(missing.body.tipMsg).toBe('script不能为空');
    expect((await check(42)).status).toBe(400);
    expect((await check('x'.repeat(100_001))).status).toBe(400);
  });
});
