import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGRAM_MAX_DEPTH, type DiagramRecord } from '@ess/contract';
import { distributionDiagram, site } from '../../db/schema/site.ts';
import { seedDemoOnce } from '../../demo/demo-seed.ts';
import { quietestRun } from '../../../test/event-loop.ts';
import { DB_TARGETS, startTestApp, type TestApp } from '../../../test/harness.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg">';
const nested = (depth: number) => `${SVG}${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`;

function upload(t: TestApp, siteId: number, body: string) {
  const f = new FormData();
  f.append('siteId', String(siteId));
  f.append('file', new Blob([body], { type: 'image/svg+xml' }), 'deep.svg');
  return t.api.call<DiagramRecord>('POST', '/configure/distribution/diagram/upload', { token: t.adminToken, rawBody: f });
}

describe.each(DB_TARGETS)('distribution diagram limits on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seedDemoOnce(t.ctx.db);
    siteId = (await t.ctx.db.select({ id: site.id }).from(site).limit(1))[0]!.id;
  });
  afterAll(async () => t?.stop());

  it.each([
    ['10,000 nested groups (70 KB)', 10_000],
    ['150,000 nested groups (1 MB)', 150_000],
  ])('refuses %s at once with 406 naming the depth limit; the server keeps answering meanwhile', async (_name, depth) => {
    const { value, stallMs, tookMs } = await quietestRun(async () => {
      const [res, ping] = await Promise.all([upload(t, siteId, nested(depth)), t.api.get('/system/user/profile/info', t.adminToken)]);
      return { res, ping };
    });
    expect(value.res.status).toBe(406);
    expect(value.res.body).toMatchObject({ errorCode: 'A0406', tipMsg: `配电图的元素嵌套不能超过 ${DIAGRAM_MAX_DEPTH} 层`, data: null });
    expect(value.ping.status).toBe(200);
    expect(stallMs).toBeLessThan(100);
    expect(tookMs).toBeLessThan(2000);
  });

  it('accepts a diagram at the depth limit (sanitised off the event loop)', async () => {
    const { value, stallMs } = await quietestRun(() => upload(t, siteId, nested(DIAGRAM_MAX_DEPTH - 1).replace('<g>', '<g id="top">')));
    expect(value.body.errorCode).toBe('00000');
    expect(value.body.data.elementIds).toEqual(['top']);
    expect(stallMs).toBeLessThan(100);
  });

  it('serves a stored diagram as stored: a 2,000-deep one (stored before the limit) loads without parsing it', async () => {
    const svg = `${SVG}${Array.from({ length: 2000 }, (_, i) => `<g id="g${i}">`).join('')}${'</g>'.repeat(2000)}</svg>`;
    await t.ctx.db
      .insert(distributionDiagram)
      .values({ siteId, fileName: 'legacy.svg', svg, bindings: [] })
      .onConflictDoUpdate({ target: distributionDiagram.siteId, set: { svg, bindings: [] } });
    // The first load warms the route; the second is measured.
    await t.api.get('/configure/distribution/diagram/load', t.adminToken, { siteId });
    const { value, stallMs, tookMs } = await quietestRun(() => t.api.get<DiagramRecord>('/configure/distribution/diagram/load', t.adminToken, { siteId }));
    expect(value.body.data.svg).toBe(svg);
    expect(value.body.data.elementIds).toHaveLength(2000);
    expect(stallMs).toBeLessThan(100);
    expect(tookMs).toBeLessThan(300);
  });
});
