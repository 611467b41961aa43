#!/usr/bin/env node
// `npm test`: the static checks (scripts/static-checks.mjs: typecheck, lint, copy-paste) and the
// Vitest run side by side instead of one after the other (docs/decisions/0019). Vitest leaves part
// of the two cores idle while tests wait on servers, browsers and timers; the static checks, one
// process at a time here, fill that time. Vitest's output streams as usual; the static checks'
// report is printed when they end and again at the end. Fails when either fails.
import { spawn } from 'node:child_process';

const started = Date.now();
const secs = () => ((Date.now() - started) / 1000).toFixed(0);

function run(cmd, args, opts) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, opts);
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const staticChecks = run('node', ['scripts/static-checks.mjs'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STATIC_CHECK_SLOTS: '1' } }).then((r) => {
  process.stdout.write(`\n── static checks ${r.code === 0 ? 'passed' : 'FAILED'} after ${secs()} s ──\n${r.out}\n`);
  return r;
});
const tests = run('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });

const [s, t] = await Promise.all([staticChecks, tests]);
process.stdout.write(`\n── static checks (${s.code === 0 ? 'passed' : 'FAILED'}) ──\n${s.out}\n── tests ${t.code === 0 ? 'passed' : 'FAILED'}; whole run ${secs()} s ──\n`);
process.exit(s.code === 0 && t.code === 0 ? 0 : 1);
