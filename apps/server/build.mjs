#!/usr/bin/env node
// The server's production build: esbuild bundles the TypeScript sources, with the workspace
// packages it imports as source (@ess/contract, @ess/simulator), into dist/ as ES modules; every
// other package stays an import of node_modules (native addons, wasm, files read beside their own
// code, and jsdom/exceljs loaded on first use). Beside the bundle: the migrations and the language
// packs it reads at run time (see src/platform/dist.ts).
//
//   node build.mjs                 build into dist/
//   node build.mjs --if-stale      build only when the inputs changed since the last build
//   node build.mjs --outdir DIR    build into DIR (tests); DIR must lie below a node_modules
//                                  the server's packages resolve from
//
// Entry points: main.mjs (the server), svg-worker.mjs (the SVG sanitiser's worker thread),
// simulator.mjs (the station simulator's CLI, played by `npm start`); shared code and the demo
// (imported on first use) are chunks beside them.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build, version as esbuildVersion } from 'esbuild';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const { values: opts } = parseArgs({ options: { outdir: { type: 'string' }, 'if-stale': { type: 'boolean' } } });
const outdir = resolve(opts.outdir ?? join(here, 'dist'));
const stampFile = join(outdir, '.build-stamp');

// What the build reads: a change to any of these (a file added, removed, edited) makes it stale.
const inputs = [
  join(here, 'src'),
  join(here, 'build.mjs'),
  join(here, 'package.json'),
  join(root, 'apps/simulator/src'),
  join(root, 'apps/simulator/package.json'),
  // The demo hook's receiver, which the simulator hosts.
  join(root, 'scripts/hook-catcher.mjs'),
  join(root, 'packages/contract/src'),
  join(root, 'packages/contract/package.json'),
];

function walk(path, out) {
  const st = statSync(path);
  if (!st.isDirectory()) {
    out.push(`${relative(root, path)}\0${st.size}\0${st.mtimeMs}`);
    return;
  }
  for (const name of readdirSync(path).sort()) walk(join(path, name), out);
}

/** A digest of the inputs' names, sizes and modification times, and of esbuild's version. */
function inputsStamp() {
  const lines = [`esbuild ${esbuildVersion}`];
  for (const p of inputs) walk(p, lines);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

const stamp = inputsStamp();
if (opts['if-stale'] && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) process.exit(0);

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: join(here, 'src/main.ts'),
    'svg-worker': join(here, 'src/modules/site/svg-worker.ts'),
    simulator: join(root, 'apps/simulator/src/main.ts'),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Class and function names stay as written (error names, logs).
  keepNames: true,
  sourcemap: 'linked',
  // Tells src/platform/dist.ts that the code runs from the bundle.
  define: { ESS_DIST: 'true' },
  logLevel: 'warning',
  plugins: [
    {
      name: 'node-modules-external',
      setup(b) {
        // Bare imports stay imports, except the workspace packages, which are TypeScript source.
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@ess/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});

// Files read at run time, beside the bundle: drizzle's journal and the SQL (not the snapshots,
// which only drizzle-kit reads), and the language packs.
const migrations = join(here, 'src/db/migrations');
mkdirSync(join(outdir, 'migrations/meta'), { recursive: true });
for (const f of readdirSync(migrations)) if (f.endsWith('.sql')) cpSync(join(migrations, f), join(outdir, 'migrations', f));
cpSync(join(migrations, 'meta/_journal.json'), join(outdir, 'migrations/meta/_journal.json'));
cpSync(join(here, 'src/modules/i18n/packs'), join(outdir, 'packs'), { recursive: true });

// Written last: a build cut short is stale.
mkdirSync(dirname(stampFile), { recursive: true });
writeFileSync(stampFile, stamp);
console.log(`  Server built into ${relative(process.cwd(), outdir) || '.'} in ${Math.round(performance.now() - started)} ms`);
