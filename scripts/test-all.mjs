#!/usr/bin/env node
// `npm test`: the static checks (scripts/static-checks.mjs: typecheck, lint, copy-paste) and the
// Vitest run side by side instead of one after the other (docs/decisions/0019). Vitest leaves part
// of the two cores idle while tests wait on servers, browsers and timers; the static checks, one
// process at a time here, fill that time. Vitest's output streams as usual; the static checks'
// report is printed when they end and again at the end. Fails when either fails.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** The machine's CPU time so far (jiffies, all cores): busy and total, from /proc/stat (Linux). */
function cpuTimes() {
  try {
    const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3] - f[4], total };
  } catch {
    return null;
  }
}
const cpuAtStart = cpuTimes();
let cpuAtStaticEnd = null;
const busyShare = (from, to) => (from && to && to.total > from.total ? `${((100 * (to.busy - from.busy)) / (to.total - from.total)).toFixed(0)} %` : 'n/a');

const staticChecks = run('node', ['scripts/static-checks.mjs'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STATIC_CHECK_SLOTS: '1' } }).then((r) => {
  cpuAtStaticEnd = cpuTimes();
  process.stdout.write(`\n── static checks ${r.code === 0 ? 'passed' : 'FAILED'} after ${secs()} s ──\n${r.out}\n`);
  return r;
});
// Vitest's JSON report beside its usual output, for the slowest files printed at the end.
// Outside the project: the architecture test lists the project's folders.
const REPORT = join(tmpdir(), `ess-test-report-${process.pid}.json`);
const tests = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORT}`, ...process.argv.slice(2)], { stdio: 'inherit' });

/** The files that took longest, and the time per project: where to look when the run grows. */
function slowest(limit = 20) {
  let report;
  try {
    report = JSON.parse(readFileSync(REPORT, 'utf8'));
  } catch {
    return '';
  }
  const root = `${process.cwd()}/`;
  const files = report.testResults.map((f) => ({ name: f.name.replace(root, ''), ms: f.endTime - f.startTime }));
  const total = files.reduce((a, f) => a + f.ms, 0);
  const byArea = new Map();
  for (const f of files) {
    // A server module or platform part (apps/server/src/modules/iot), the browser tests (e2e), else the workspace.
    const parts = f.name.split('/');
    const area = parts.slice(0, f.name.startsWith('apps/server/src/') ? 5 : f.name.startsWith('e2e/') ? 1 : 2).join('/');
    byArea.set(area, (byArea.get(area) ?? 0) + f.ms);
  }
  const s = (ms) => `${(ms / 1000).toFixed(0).padStart(5)} s`;
  const top = [...files].sort((a, b) => b.ms - a.ms).slice(0, limit).map((f) => `${s(f.ms)}  ${f.name}`);
  const areas = [...byArea].sort((a, b) => b[1] - a[1]).map(([a, ms]) => `${s(ms)}  ${a}`);
  return `── test-file time: ${s(total)} over ${files.length} files; by area ──\n${areas.join('\n')}\n── the ${limit} slowest files ──\n${top.join('\n')}\n`;
}

const [s, t] = await Promise.all([staticChecks, tests]);
// How busy the cores were: a run that leaves them idle waits on timers and servers, not on CPU.
const cpuAtEnd = cpuTimes();
const cpu = `── CPU busy (all ${availableParallelism()} cores): ${busyShare(cpuAtStart, cpuAtEnd)} over the run; ${busyShare(cpuAtStart, cpuAtStaticEnd)} while the static checks ran, ${busyShare(cpuAtStaticEnd, cpuAtEnd)} after ──\n`;
process.stdout.write(`\n${slowest()}${cpu}\n── static checks (${s.code === 0 ? 'passed' : 'FAILED'}) ──\n${s.out}\n── tests ${t.code === 0 ? 'passed' : 'FAILED'}; whole run ${secs()} s ──\n`);
process.exit(s.code === 0 && t.code === 0 ? 0 : 1);
