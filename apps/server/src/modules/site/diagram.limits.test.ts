import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGRAM_MAX_DEPTH, type DiagramRecord } from '@ess/contract';
import { distributionDiagram, site } from '../../db/schema/site.ts';
import { seedDemoOnce } from '../../demo/demo-seed.ts';
import { dbTargets, startTestApp, type TestApp } from '../../../test/harness.ts';
import { diagramSanitiser } from './diagram.service.ts';
import { documentsParsedHere } from './svg-sanitize.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg">';
const nested = (depth: number) => `${SVG}${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`;

function upload(t: TestApp, siteId: number, body: string) {
  const f = new FormData();
  f.append('siteId', String(siteId));
  f.append('file', new Blob([body], { type: 'image/svg+xml' }), 'deep.svg');
  return t.api.call<DiagramRecord>('POST', '/configure/distribution/diagram/upload', { token: t.adminToken, rawBody: f });
}

describe.each(dbTargets(import.meta.url))('distribution diagram limits on %s', (target) => {
  let t: TestApp;
  let siteId: number;
  beforeAll(async () => {
    t = await startTestApp(target);
    await seedDemoOnce(t.ctx.db);
    siteId = (await t.ctx.db.select({ id: site.id }).from(site).limit(1))[0]!.id;
  });
  afterAll(async () => t?.stop());

  /**
   * What `fn` had parsed: documents the app's sanitiser handed to its worker, and documents parsed
   * with jsdom on this thread (the server's event loop), which must stay none.
   */
  async function parsing<T>(fn: () => Promise<T>): Promise<{ value: T; workerJobs: number; parsedHere: number }> {
    const sanitiser = diagramSanitiser.require(t.ctx);
    const [jobs, parsed] = [sanitiser.jobs, documentsParsedHere()];
    const value = await fn();
    return { value, workerJobs: sanitiser.jobs - jobs, parsedHere: documentsParsedHere() - parsed };
  }

  it.each([
    ['10,000 nested groups (70 KB)', 10_000],
    ['150,000 nested groups (1 MB)', 150_000],
  ])('refuses %s at once with 406 naming the depth limit, before any parser sees it; the server keeps answering meanwhile', async (_name, depth) => {
    const { value, workerJobs, parsedHere } = await parsing(async () => {
      const [res, ping] = await Promise.all([upload(t, siteId, nested(depth)), t.api.get('/system/user/profile/info', t.adminToken)]);
      return { res, ping };
    });
    expect(value.res.status).toBe(406);
    expect(value.res.body).toMatchObject({ errorCode: 'A0406', tipMsg: `配电图的元素嵌套不能超过 ${DIAGRAM_MAX_DEPTH} 层`, data: null });
    expect(value.ping.status).toBe(200);
    expect(workerJobs).toBe(0);
    expect(parsedHere).toBe(0);
  });

  it('accepts a diagram at the depth limit (sanitised off the event loop)', async () => {
    const { value, workerJobs, parsedHere } = await parsing(() => upload(t, siteId, nested(DIAGRAM_MAX_DEPTH - 1).replace('<g>', '<g id="top">')));
    expect(value.body.errorCode).toBe('00000');
    expect(value.body.data.elementIds).toEqual(['top']);
    expect(workerJobs).toBe(1);
    expect(parsedHere).toBe(0);
  });

  it('serves a stored diagram as stored: a 2,000-deep one (stored before the limit) loads without parsing it', async () => {
    const svg = `${SVG}${Array.from({ length: 2000 }, (_, i) => `<g id="g${i}">`).join('')}${'</g>'.repeat(2000)}</svg>`;
    await t.ctx.db
      .insert(distributionDiagram)
      .values({ siteId, fileName: 'legacy.svg', svg, bindings: [] })
      .onConflictDoUpdate({ target: distributionDiagram.siteId, set: { svg, bindings: [] } });
    const { value, workerJobs, parsedHere } = await parsing(() => t.api.get<DiagramRecord>('/configure/distribution/diagram/load', t.adminToken, { siteId }));
    expect(value.body.data.svg).toBe(svg);
    expect(value.body.data.elementIds).toEqual(Array.from({ length: 2000 }, (_, i) => `g${i}`));
    // Neither sanitised again (no worker job) nor parsed on the event loop: ids come from the scan.
    expect(workerJobs).toBe(0);
    expect(parsedHere).toBe(0);
  });
});
