import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import type { RegionNode } from './region.service.ts';

describe.each(dbTargets(import.meta.url))('region dictionary on %s', (target) => {
  let t: TestApp;
  let tree: RegionNode[];
  beforeAll(async () => {
    t = await startTestApp(target);
    const r = await t.api.get<RegionNode[]>('/dictionary/region/query/tree', t.adminToken);
    expect(r.status).toBe(200);
    expect(r.body.errorCode).toBe('00000');
    tree = r.body.data;
  });
  afterAll(async () => t?.stop());

  const child = (nodes: RegionNode[] | undefined, name: string) => nodes?.find((n) => n.name === name);

  it('lists the 31 mainland provinces plus Taiwan, Hong Kong and Macao with six-digit GB/T 2260 codes', () => {
    expect(tree.length).toBe(34);
    const codes = tree.map((p) => p.code);
    expect(codes).toContain('110000');
    expect(codes).toContain('650000');
    expect(child(tree, '台湾省')?.code).toBe('710000');
    expect(child(tree, '香港特别行政区')?.code).toBe('810000');
    expect(child(tree, '澳门特别行政区')?.code).toBe('820000');
    for (const p of tree) expect(p.code, p.name).toMatch(/^\d{2}0000$/);
  });

  it('nests province → city → district with the real codes', () => {
    const beijing = child(tree, '北京市');
    expect(beijing?.code).toBe('110000');
    const urban = child(beijing?.children, '市辖区');
    expect(urban?.code).toBe('110100');
    expect(child(urban?.children, '东城区')?.code).toBe('110101');
    expect(child(urban?.children, '海淀区')?.code).toBe('110108');
    const guangdong = child(tree, '广东省');
    const shenzhen = child(guangdong?.children, '深圳市');
    expect(shenzhen?.code).toBe('440300');
    expect(child(shenzhen?.children, '南山区')?.code).toBe('440305');
    // Every district code starts with its city's and province's prefix.
    for (const p of tree.filter((x) => Number(x.code) < 710000)) {
      for (const c of p.children ?? []) {
        expect(c.code.slice(0, 2)).toBe(p.code.slice(0, 2));
        for (const d of c.children ?? []) expect(d.code.slice(0, 4)).toBe(c.code.slice(0, 4));
      }
    }
    expect(child(child(child(tree, '香港特别行政区')?.children, '香港岛')?.children, '湾仔区')).toBeDefined();
    // Leaves carry no empty children array.
    expect(child(urban?.children, '东城区')).not.toHaveProperty('children');
  });

  it('needs a signed-in user but no menu', async () => {
    expect((await t.api.get('/dictionary/region/query/tree', null)).status).toBe(401);
  });
});
