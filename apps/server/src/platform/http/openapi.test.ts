import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../modules/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { buildOpenApi } from './openapi.ts';

describe('OpenAPI', () => {
  it('the committed openapi.json equals what the code generates (run `npm run openapi` after changing routes)', () => {
    const committed: unknown = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi(allRoutes))));
  });

  it('documents every registered route', () => {
    const doc = buildOpenApi(allRoutes) as { paths: Record<string, Record<string, unknown>> };
    for (const r of allRoutes) expect(doc.paths[`/api/manager${r.path}`]?.[r.method.toLowerCase()], r.path).toBeDefined();
  });

  it('documents a response schema for every JSON answer, and every reference resolves in the document', () => {
    const doc = buildOpenApi(allRoutes) as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema?: unknown }> }> }>>; components: { schemas: Record<string, unknown> } };
    for (const r of allRoutes.filter((x) => !x.raw)) {
      const schema = doc.paths[`/api/manager${r.path}`]![r.method.toLowerCase()]!.responses['200']!.content['application/json']!.schema as { allOf?: unknown[] };
      expect(schema.allOf, r.path).toHaveLength(2);
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((ref) => !ref.startsWith('#/components/schemas/') || !(ref.slice('#/components/schemas/'.length) in doc.components.schemas))).toEqual([]);
  });

  describe('served', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp('pglite');
    });
    afterAll(async () => t?.stop());
    it('GET /api/manager/openapi.json serves the document', async () => {
      const res = await fetch(`${t.url}/api/manager/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.0.3');
      expect(Object.keys(doc.paths)).toContain('/api/manager/basic/user/login');
    });
  });
});
