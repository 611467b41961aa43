import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

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
