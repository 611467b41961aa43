import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundaryViolations, sourcesUnder } from './boundaries.ts';

const root = resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', '.git', 'dist', '.data', 'coverage']);
/** Listed folders whose line covers their subfolders too (one folder per locale). */
const COVERS_CHILDREN = new Set(['apps/server/src/modules/i18n/packs/']);

function folders(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory() || SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    const rel = `${relative(root, p)}/`;
    out.push(rel, ...(COVERS_CHILDREN.has(rel) ? [] : folders(p)));
  }
  return out;
}

describe('docs/ARCHITECTURE.md', () => {
  const listed = [...readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8').matchAll(/^([.\w/-]+\/)\s{2,}/gm)].map((m) => m[1]!);

  it('lists every folder of the project', () => {
    expect(folders(root).filter((f) => !listed.includes(f))).toEqual([]);
  });

  it('lists no folder that does not exist', () => {
    expect(listed.filter((f) => !existsSync(join(root, f)))).toEqual([]);
  });
});

describe('import boundaries (ARCHITECTURE.md §3–§4)', () => {
  it('hold on the project', () => {
    expect(boundaryViolations(sourcesUnder(root, ['apps/server/src', 'apps/web/src']))).toEqual([]);
  });

  // Each forbidden arrow, added to a fixture, is caught (and its allowed counterpart is not).
  const S = 'apps/server/src';
  const check = (path: string, source: string) => boundaryViolations([{ path, source }]);
  it.each([
    ['platform imports a module', `${S}/platform/context.ts`, "import type { X } from '../modules/telemetry/index.ts';"],
    ['db imports a module', `${S}/db/seed.ts`, "import { hashPassword } from '../modules/system/auth.service.ts';"],
    ['platform imports the demo', `${S}/platform/http/x.ts`, "import { demoModule } from '../../demo/index.ts';"],
    ["a module imports another's internals", `${S}/modules/alarm/alarm.engine.ts`, "import type { IngestRules } from '../telemetry/ingest.ts';"],
    ['a module re-exports internals of another', `${S}/modules/alarm/index.ts`, "export { x } from '../telemetry/rollup.ts';"],
    ['a module imports the demo', `${S}/modules/site/site.service.ts`, "import { seedDemoOnce } from '../../demo/demo-seed.ts';"],
    ['the server imports the simulator outside the demo', `${S}/main.ts`, "import { demoFleet } from '@ess/simulator';"],
    ['a module loads the simulator lazily', `${S}/modules/telemetry/runtime.ts`, "const sim = await import('@ess/simulator');"],
    ['web platform imports a feature', 'apps/web/src/platform/user-store.ts', "import { x } from '../features/system/user.model.ts';"],
    ['web components import a feature', 'apps/web/src/components/crud/ResourceTable.tsx', "import { siteSource } from '../../features/site/site.options.ts';"],
    ['a feature imports another feature', 'apps/web/src/features/dashboard/HomePage.tsx', "import { LevelTag } from '../alarm/LevelTag.tsx';"],
    ['a page writes a literal query key', 'apps/web/src/features/site/SitePage.tsx', "const q = useQuery({ queryKey: ['configure', 'site', id], queryFn });"],
  ])('fails when %s', (_what, path, source) => {
    expect(check(path, source)).toHaveLength(1);
  });

  it.each([
    ['a module imports another through its index.ts', `${S}/modules/alarm/alarm.runtime.ts`, "import { addIngestRules } from '../telemetry/index.ts';"],
    ['a module imports its own files', `${S}/modules/alarm/alarm.routes.ts`, "import * as dict from './alarm-dict.service.ts';"],
    ['the demo imports the simulator', `${S}/demo/demo-seed.ts`, "import { demoFleet } from '@ess/simulator';"],
    ['a test reaches into what it tests', `${S}/modules/alarm/alarm.ingest.test.ts`, "import { runSimulator } from '@ess/simulator';"],
    ['app.ts loads the demo', `${S}/app.ts`, "import { loadDemo } from './demo/load.ts';"],
    ['a feature imports a shared component', 'apps/web/src/features/dashboard/HomePage.tsx', "import { LevelTag } from '../../components/LevelTag.tsx';"],
    ['a key factory declares its keys', 'apps/web/src/features/site/site.keys.ts', "export const k = { x: () => ['configure', 'x'] as const, q: { queryKey: ['a'] } };"],
  ])('allows %s', (_what, path, source) => {
    expect(check(path, source)).toEqual([]);
  });
});
