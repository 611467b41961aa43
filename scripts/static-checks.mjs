#!/usr/bin/env node
// The static half of `npm test`: the TypeScript check of every project, the lint (ESLint, and oxlint's
// type-aware rules) and the copy-paste check (scripts/copy-paste.mjs),
// two at a time (CI machines have two cores), lint first as it is the longest. Each check's output
// is printed when it ends; the script fails when any check fails.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

// The projects are those of the `typecheck` script, so the two lists cannot drift apart.
const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// TypeScript's native compiler (tsgo, @typescript/native-preview; decision 0058), one thread each.
const projects = [...scripts.typecheck.matchAll(/tsgo -p (\S+)/g)].map((m) => m[1]);
const checks = [
  // The lint in two parts (decision 0059): ESLint's rules that need no types and the React
  // Compiler's checks, then typescript-eslint's type-aware rules on TypeScript's native compiler
  // (oxlint --type-aware, .oxlintrc.json).
  { name: 'lint', cmd: 'npx', args: ['eslint', '.', '--max-warnings', '0'] },
  { name: 'type-aware lint', cmd: 'npx', args: ['oxlint', '--type-aware', '--deny-warnings'] },
  { name: 'copy-paste', cmd: 'node', args: ['scripts/copy-paste.mjs'] },
  // The console's text catalogue (refresh merges it into the database) must match the code.
  { name: 'text catalogue', cmd: 'node', args: ['scripts/scan-texts.mjs', '--check'] },
  ...projects.map((p) => ({ name: `typecheck ${p}`, cmd: 'npx', args: ['tsgo', '-p', p, '--singleThreaded'] })),
];

function run({ name, cmd, args, env }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const lines = out.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn')).join('\n');
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${lines ? `\n${lines}` : ''}`);
      resolve(code === 0);
    });
  });
}

const queue = [...checks];
// Two at a time on their own; one at a time beside the Vitest run (scripts/test-all.mjs).
const slots = Number(process.env.STATIC_CHECK_SLOTS) || Math.max(2, Math.min(availableParallelism(), 4));
const results = await Promise.all(
  Array.from({ length: slots }, async () => {
    let ok = true;
    for (let c = queue.shift(); c; c = queue.shift()) ok = (await run(c)) && ok;
    return ok;
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
