import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * The import boundaries of ARCHITECTURE.md §3–§4, checked over source files (tests excluded: they
 * may reach into what they test):
 * - the server's platform/ and db/ import no module and not the demo;
 * - a module imports another module only through its index.ts, and never the demo;
 * - only the server's demo/ imports the station simulator (@ess/simulator);
 * - the console's platform/ and components/ import no feature, and a feature imports no other
 *   feature (shared parts — charts, formatters, pickers, option sources — live in components/);
 * - the console's query keys come from key factories (`*.keys.ts`), never a literal in a page.
 */
export interface SourceFile {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  source: string;
}

const SERVER = 'apps/server/src/';
const WEB = 'apps/web/src/';
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const isTest = (p: string) => /\.test\.tsx?$|test-helpers\.ts$|\/test\//.test(p);

function importsOf(f: SourceFile): { spec: string; target: string | null }[] {
  const out: { spec: string; target: string | null }[] = [];
  for (const m of f.source.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2])!;
    const target = spec.startsWith('.') ? normalize(join(dirname(f.path), spec)).replaceAll('\\', '/') : null;
    out.push({ spec, target });
  }
  return out;
}

const featureOf = (p: string) => (p.startsWith(`${WEB}features/`) ? (p.slice(`${WEB}features/`.length).split('/')[0] ?? null) : null);
const LITERAL_KEY = /queryKey:\s*\[/;

const moduleOf = (p: string) => (p.startsWith(`${SERVER}modules/`) ? (p.slice(`${SERVER}modules/`.length).split('/')[0] ?? null) : null);

/** Every import that crosses a boundary, as "file → import: rule". */
export function boundaryViolations(files: readonly SourceFile[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (isTest(f.path)) continue;
    if (f.path.startsWith(WEB) && !f.path.endsWith('.keys.ts') && LITERAL_KEY.test(f.source)) {
      out.push(`${f.path}: a literal query key (keys come from a key factory, *.keys.ts)`);
    }
    for (const { spec, target } of importsOf(f)) {
      const say = (rule: string) => out.push(`${f.path} → ${spec}: ${rule}`);
      if (spec === '@ess/simulator' || spec.startsWith('@ess/simulator/')) {
        if (f.path.startsWith(SERVER) && !f.path.startsWith(`${SERVER}demo/`)) say('only the demo folder imports the simulator');
        continue;
      }
      if (!target) continue;
      if (f.path.startsWith(`${SERVER}platform/`) || f.path.startsWith(`${SERVER}db/`)) {
        if (target.startsWith(`${SERVER}modules/`)) say('platform/ and db/ import no module');
        else if (target.startsWith(`${SERVER}demo/`)) say('platform/ and db/ do not import the demo');
      }
      const from = moduleOf(f.path);
      if (from !== null) {
        const to = moduleOf(target);
        if (to !== null && to !== from && target !== `${SERVER}modules/${to}/index.ts`) say(`a module imports another only through its index.ts (modules/${to}/index.ts)`);
        if (target.startsWith(`${SERVER}demo/`)) say('modules do not import the demo');
      }
      if ((f.path.startsWith(`${WEB}platform/`) || f.path.startsWith(`${WEB}components/`)) && target.startsWith(`${WEB}features/`)) {
        say('web platform/ and components/ import no feature');
      }
      const feature = featureOf(f.path);
      const other = featureOf(target);
      if (feature !== null && other !== null && other !== feature) say(`a feature imports no other feature (features/${other}); shared parts live in components/`);
    }
  }
  return out;
}

/** The project's TypeScript sources under the given folders. */
export function sourcesUnder(root: string, folders: readonly string[]): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) out.push({ path: relative(root, p).replaceAll('\\', '/'), source: readFileSync(p, 'utf8') });
    }
  };
  for (const f of folders) walk(join(root, f));
  return out;
}
