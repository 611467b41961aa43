import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGRAM_MAX_DEPTH, DIAGRAM_MAX_ELEMENTS } from '@ess/contract';
import { AppError } from '../../platform/http/errors.ts';
import { createLogger } from '../../platform/logging.ts';
import { SvgSanitiser } from './diagram-svg.ts';
import { measureSvg, svgElementIds } from './svg-scan.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg">';
const nested = (depth: number, tag = 'g') => `${SVG}${`<${tag}>`.repeat(depth)}${`</${tag}>`.repeat(depth)}</svg>`;
const LIMITS = { depth: DIAGRAM_MAX_DEPTH, elements: DIAGRAM_MAX_ELEMENTS };

/** Runs `fn` and reports the longest the event loop was held up meanwhile (ms). */
async function stallOf<T>(fn: () => Promise<T>): Promise<{ value: T | Error; stallMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  let value: T | Error;
  try {
    value = await fn();
  } catch (err) {
    value = err as Error;
  }
  h.disable();
  return { value, stallMs: h.max / 1e6 };
}

describe('SVG shape scan', () => {
  it('counts elements and nesting like a parser: self-closing tags, comments, CDATA, quoted ">" and declarations', () => {
    expect(measureSvg(nested(3), LIMITS)).toEqual({ elements: 4, depth: 4 });
    const doc = `<?xml version="1.0"?><!DOCTYPE svg><!-- <g><g> -->${SVG}<style><![CDATA[ <g><g> ]]></style><rect title="a > <g>" /><g><path d='<g>'/></g><!---><g></g></svg>`;
    expect(measureSvg(doc, LIMITS)).toEqual({ elements: 6, depth: 2 });
  });

  it('never counts a malformed document shallower than a parser would build it', () => {
    // End tags that do not close the innermost element close nothing.
    expect(measureSvg(`${SVG}${'<g></x>'.repeat(50)}</svg>`, LIMITS).depth).toBe(51);
    expect(measureSvg(`${SVG}${'<g><a></g>'.repeat(40)}`, LIMITS).depth).toBe(81);
  });

  it('stops at the first element over a limit, so a huge document costs only its start', () => {
    const deep = nested(150_000);
    const t = performance.now();
    expect(measureSvg(deep, LIMITS)).toEqual({ elements: DIAGRAM_MAX_DEPTH + 1, depth: DIAGRAM_MAX_DEPTH + 1 });
    expect(performance.now() - t).toBeLessThan(20);
    expect(measureSvg(`${SVG}${'<rect/>'.repeat(100_000)}</svg>`, LIMITS).elements).toBe(DIAGRAM_MAX_ELEMENTS + 1);
  });

  it('reads element ids from tags only, in order, without a DOM', () => {
    const markup = `${SVG}<g id="bus1"><text id="pcs1-power" x="1">id="fake"</text></g><rect ID='r_2'/><circle id="no good"/><!-- <g id="commented"/> --></svg>`;
    expect(svgElementIds(markup)).toEqual(['bus1', 'pcs1-power', 'r_2']);
    // A 2,000-deep stored diagram: linear, no parser.
    const deep = `${SVG}${Array.from({ length: 2000 }, (_, i) => `<g id="g${i}">`).join('')}${'</g>'.repeat(2000)}</svg>`;
    const t = performance.now();
    expect(svgElementIds(deep)).toHaveLength(2000);
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
      const { value, stallMs } = await stallOf(() => s.sanitise(doc));
      expect(value).toBeInstanceOf(AppError);
      expect((value as AppError).status).toBe(406);
      expect((value as AppError).tip).toBe(`配电图的元素嵌套不能超过 ${DIAGRAM_MAX_DEPTH} 层`);
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
    const { value, stallMs } = await stallOf(() => s.sanitise(big));
    const clean = value as { svg: string; elementIds: string[] };
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
    expect(measureSvg(trap, LIMITS).depth).toBeLessThanOrEqual(DIAGRAM_MAX_DEPTH);
    const { value, stallMs } = await stallOf(() => s.sanitise(trap));
    expect(value).toBeInstanceOf(AppError);
    expect((value as AppError).status).toBe(406);
    expect((value as AppError).tip).toBe('配电图过于复杂，无法在 1.5 秒内完成处理');
    expect(stallMs).toBeLessThan(100);
    expect((await s.sanitise(`${SVG}<rect id="next"/></svg>`)).elementIds).toEqual(['next']);
  });

  it('refuses a document with no <svg> left, and more documents than may wait', async () => {
    const s = make({ maxQueued: 1 });
    await expect(s.sanitise('<svg:x><script>alert(1)</script></svg:x>')).rejects.toMatchObject({ code: 'A0420' });
    const first = s.sanitise(`${SVG}<rect/></svg>`);
    const second = s.sanitise(`${SVG}<rect/></svg>`);
    await expect(s.sanitise(`${SVG}<rect/></svg>`)).rejects.toMatchObject({ code: 'A0440' });
    await Promise.all([first, second]);
  });
});
