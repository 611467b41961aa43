// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPack } from '../../test/packs.ts';
import { changeResource, deviceResource, importHistoryResource } from './device.resource.tsx';

describe('equipment screens', () => {
  it('declare the catalogue calls of the registry, the changes and the import history', () => {
    expect(deviceResource.endpoints).toMatchObject({
      page: { path: '/configure/device/query/page' }, one: { path: '/configure/device/query/one' }, edit: { path: '/configure/device/edit' },
      export: { path: '/configure/device/export' },
    });
    expect(changeResource.endpoints.page).toMatchObject({ path: '/configure/device/change/query/page' });
    expect(importHistoryResource.endpoints.page).toMatchObject({ path: '/configure/device/import/history/query/page' });
  });

  it('have every source text translated in en-US and ar-EG', () => {
    const texts = new Set<string>();
    for (const f of readdirSync(import.meta.dirname).filter((n) => /\.tsx?$/.test(n) && !n.includes('.test.'))) {
      const src = readFileSync(join(import.meta.dirname, f), 'utf8');
      for (const m of src.matchAll(/\bt\('([^']+)'/g)) texts.add(m[1]!);
      for (const m of src.matchAll(/\b(?:title|label|name):\s*'([^']*[\u4e00-\u9fff][^']*)'/g)) texts.add(m[1]!);
      for (const m of src.matchAll(/\blabel="([^"]+)"/g)) texts.add(m[1]!);
    }
    expect(texts.size).toBeGreaterThan(60);
    for (const locale of ['en-US', 'ar-EG']) {
      const pack = readPack(locale);
      expect([...texts].filter((s) => !pack[s]), locale).toEqual([]);
    }
  });
});
