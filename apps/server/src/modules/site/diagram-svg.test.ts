import { afterAll, describe, expect, it } from 'vitest';
import { DIAGRAM_MAX_DEPTH, DIAGRAM_MAX_ELEMENTS } from '@ess/contract';
import { AppError } from '../../platform/http/errors.ts';
import { createLogger } from '../../platform/logging.ts';
import { SvgSanitiser } from './diagram-svg.ts';
import { measureSvg, measureSvgSync, svgElementIds } from './svg-scan.ts';
import { quietestRun } from '../../../test/event-loop.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg">';
const nested = (depth: number, tag = 'g') => `${SVG}${`<${tag}>`.repeat(depth)}${`</${tag}>`.repeat(depth)}</svg>`;
const LIMITS = { depth: DIAGRAM_MAX_DEPTH, elements: DIAGRAM_MAX_ELEMENTS };

describe('SVG shape scan', () => {
  it('counts elements and nesting like a parser: self-closing tags, comments, CDATA, quoted ">" and declarations', async () => {
    expect(await measureSvg(nested(3), LIMITS)).toEqual({ elements: 4, depth: 4 });
    const doc = `<?xml version="1.0"?><!DOCTYPE svg><!-- <g><g> -->${SVG}<style><![CDATA[ <g><g> ]]></style><rect title="a > <g>" /><g><path d='<g>'/></g><!---><g></g></svg>`;
    expect(await measureSvg(doc, LIMITS)).toEqual({ elements: 6, depth: 2 });
  });

  it('never counts a malformed document shallower than a parser would build it', async () => {
    // End tags that do not close the innermost element close nothing.
    expect((await measureSvg(`${SVG}${'<g></x>'.repeat(50)}</svg>`, LIMITS)).depth).toBe(51);
    expect((await measureSvg(`${SVG}${'<g><a></g>'.repeat(40)}`, LIMITS)).depth).toBe(81);
  });

  it('stops at the first element over a limit, so a huge document costs only its start', async () => {
    const deep = nested(150_000);
    const t = performance.now();
    expect(await measureSvg(deep, LIMITS)).toEqual({ elements: DIAGRAM_MAX_DEPTH + 1, depth: DIAGRAM_MAX_DEPTH + 1 });
    expect(performance.now() - t).toBeLessThan(20);
    expect((await measureSvg(`${SVG}${'<rect/>'.repeat(100_000)}</svg>`, LIMITS)).elements).toBe(DIAGRAM_MAX_ELEMENTS + 1);
  });

  it('walks megabytes of markup in slices, letting the event loop turn between them; the one-go walk agrees', async () => {
    const texts = [`${SVG}<text>${'<'.repeat(1024 * 1024)}</text></svg>`, `${SVG}${'<rect id="r" x="1"/>'.repeat(19_000)}${'<g/>'.repeat(200_000)}</svg>`];
    for (const text of texts) {
      const { value, stallMs } = await quietestRun(() => measureSvg(text, LIMITS));
      expect(value).toEqual(measureSvgSync(text, LIMITS));
      expect(stallMs).toBeLessThan(100);
      expect((await quietestRun(() => svgElementIds(text))).stallMs).toBeLessThan(100);
    }
  });

  it('reads element ids from tags only, in order, without a DOM', async () => {
    const markup = `${SVG}<g id="bus1"><text id="pcs1-power" x="1">id="fake"</text></g><rect ID='r_2'/><circle id="no good"/><!-- <g id="commented"/> --></svg>`;
    expect(await svgElementIds(markup)).toEqual(['bus1', 'pcs1-power', 'r_2']);
    // A 2,000-deep stored diagram: linear, no parser.
    const deep = `${SVG}${Array.from({ length: 2000 }, (_, i) => `<g id="g${i}">`).join('')}${'</g>'.repeat(2000)}</svg>`;
    const t = performance.now();
    expect(await svgElementIds(deep)).toHaveLength(2000);
    expect(performance.now() - t).toBeLessThan(50);
  });
});

describe('SVG sanitiser worker', () => {
  const log = createLogger('silent');
  const sanitisers: SvgSanitiser[] = [];
  const make = (o: ConstructorParameters<typeof SvgSanitiser>[1] = {}) => {
    const s = new SvgSanitiser(log, o);
    sanitisers.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of sanitisers) await s.close();
  });

  it('refuses documents over the depth or element limit before parsing them, naming the limit, without holding up the event loop', async () => {
    const s = make();
    for (const doc of [nested(10_000), nested(150_000), nested(DIAGRAM_MAX_DEPTH + 1)]) {
      const { error, stallMs } = await quietestRun(() => s.sanitise(doc));
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(406);
      expect((error as AppError).tip).toBe(`配电图的元素嵌套不能超过 ${DIAGRAM_MAX_DEPTH} 层`);
      expect(stallMs).toBeLessThan(100);
    }
    const wide = await s.sanitise(`${SVG}${'<rect/>'.repeat(DIAGRAM_MAX_ELEMENTS)}</svg>`).catch((e: unknown) => e);
    expect((wide as AppError).tip).toBe(`配电图的元素不能超过 ${DIAGRAM_MAX_ELEMENTS} 个`);
  });

  it('sanitises in a worker thread: the event loop keeps turning while a large diagram is cleaned', async () => {
    const s = make();
    // Warm: the worker's first start loads jsdom (seconds), also off the event loop.
    expect((await s.sanitise(`${SVG}<rect id="a"/></svg>`)).elementIds).toEqual(['a']);
    const big = `${SVG}${Array.from({ length: 4000 }, (_, i) => `<rect id="r${i}" width="1" height="1" onclick="x()"/>`).join('')}</svg>`;
    const { value: clean, stallMs } = await quietestRun(() => s.sanitise(big));
    expect(clean.elementIds).toHaveLength(4000);
    expect(clean.svg).not.toContain('onclick');
    expect(stallMs).toBeLessThan(100);
  });

  it('ends a document that takes longer than the time limit with 406, and the next one is served by a new worker', async () => {
    const s = make({ timeoutMs: 1500 });
    await s.sanitise(`${SVG}<rect/></svg>`);
    // Inside <desc> an HTML parser nests every <div/> (the self-closing slash means nothing there):
    // 3 elements deep to the scan, thousands to jsdom, whose cost grows with the square of the depth.
    const trap = `${SVG}<desc>${'<div/>'.repeat(15_000)}</desc></svg>`;
    expect((await measureSvg(trap, LIMITS)).depth).toBeLessThanOrEqual(DIAGRAM_MAX_DEPTH);
    const { error, stallMs } = await quietestRun(() => s.sanitise(trap), 100, 2);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(406);
    expect((error as AppError).tip).toBe('配电图过于复杂，无法在 1.5 秒内完成处理');
    expect(stallMs).toBeLessThan(100);
    expect((await s.sanitise(`${SVG}<rect id="next"/></svg>`)).elementIds).toEqual(['next']);
  });

  it('refuses a document with no <svg> left, one that sanitising makes longer than 2.5 MB, and more documents than may wait', async () => {
    const s = make({ maxQueued: 1 });
    await expect(s.sanitise('<svg:x><script>alert(1)</script></svg:x>')).rejects.toMatchObject({ code: 'A0420' });
    // 700 KB of '<' is 2.8 MB of '&lt;'.
    await expect(s.sanitise(`${SVG}<text>${'<'.repeat(700_000)}</text></svg>`)).rejects.toMatchObject({ code: 'A0406', tip: '配电图清理后超过 2.5 MB，请精简后再上传' });
    const first = s.sanitise(`${SVG}<rect/></svg>`);
    const second = s.sanitise(`${SVG}<rect/></svg>`);
    await expect(s.sanitise(`${SVG}<rect/></svg>`)).rejects.toMatchObject({ code: 'A0440' });
    await Promise.all([first, second]);
  });
});
