import { afterAll, describe, expect, it } from 'vitest';
import { DIAGRAM_MAX_DEPTH, DIAGRAM_MAX_ELEMENTS } from '@ess/contract';
import { AppError } from '../../platform/http/errors.ts';
import { createLogger } from '../../platform/logging.ts';
import { SvgSanitiser } from './diagram-svg.ts';
import { documentsParsedHere } from './svg-sanitize.ts';
import { measureSvg, measureSvgSync, SCAN_SLICE, svgElementIds } from './svg-scan.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg">';
const nested = (depth: number, tag = 'g') => `${SVG}${`<${tag}>`.repeat(depth)}${`</${tag}>`.repeat(depth)}</svg>`;
const LIMITS = { depth: DIAGRAM_MAX_DEPTH, elements: DIAGRAM_MAX_ELEMENTS };

/**
 * How many times the event loop turned while `fn` ran, counted by a callback that reschedules
 * itself: with 'immediate' once per pass of the loop (for work on this thread, which is what
 * yields); with 'timer' at most once a millisecond, leaving the CPU to a worker thread. Code that
 * holds the loop until it is done lets it turn no time at all; no figure here depends on how fast
 * the machine is, only on how the work is cut up (or, for a worker, on it running at all).
 */
async function countTurns<T>(fn: () => Promise<T>, via: 'immediate' | 'timer'): Promise<{ value?: T; error?: unknown; turns: number }> {
  let turns = 0;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    turns++;
    setImmediate(tick);
  };
  const interval = via === 'timer' ? setInterval(() => turns++, 1) : null;
  if (via === 'immediate') setImmediate(tick);
  try {
    return { value: await fn(), turns };
  } catch (error) {
    return { error, turns };
  } finally {
    stopped = true;
    if (interval) clearInterval(interval);
  }
}

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
    const deep = nested(150_000); // 1 MB, 64 slices
    const stopped = await countTurns(() => measureSvg(deep, LIMITS), 'immediate');
    expect(stopped.value).toEqual({ elements: DIAGRAM_MAX_DEPTH + 1, depth: DIAGRAM_MAX_DEPTH + 1 });
    // Done within its first slice: the walk never reached the first turn of the loop. The same
    // document with the limits lifted is walked to its end, slice by slice.
    expect(stopped.turns).toBeLessThanOrEqual(1);
    const whole = await countTurns(() => measureSvg(deep, { depth: Infinity, elements: Infinity }), 'immediate');
    expect(whole.value).toEqual({ elements: 150_001, depth: 150_001 });
    expect(whole.turns).toBeGreaterThanOrEqual(deep.length / SCAN_SLICE / 2);
    const wide = await countTurns(() => measureSvg(`${SVG}${'<rect/>'.repeat(100_000)}</svg>`, LIMITS), 'immediate');
    expect(wide.value?.elements).toBe(DIAGRAM_MAX_ELEMENTS + 1);
    // 20,001 rects are 140 KB of the 700 KB: about 9 slices, not 43.
    expect(wide.turns).toBeLessThanOrEqual((DIAGRAM_MAX_ELEMENTS * '<rect/>'.length) / SCAN_SLICE + 2);
  });

  it('walks megabytes of markup in slices, letting the event loop turn between them; the one-go walk agrees', async () => {
    const rects = '<rect id="r" x="1"/>'.repeat(19_000);
    const texts = [
      // 1 MB of '<', walked to the end by both scans.
      { text: `${SVG}<text>${'<'.repeat(1024 * 1024)}</text></svg>`, measured: 1024 * 1024, ids: 0 },
      // 1.2 MB, 219,000 elements: the shape scan stops after the 380 KB of rects and 1,001 <g/>; the id scan reads it all.
      { text: `${SVG}${rects}${'<g/>'.repeat(200_000)}</svg>`, measured: rects.length, ids: 19_000 },
    ];
    for (const { text, measured, ids: idCount } of texts) {
      const shape = await countTurns(() => measureSvg(text, LIMITS), 'immediate');
      expect(shape.value).toEqual(measureSvgSync(text, LIMITS));
      // A turn of the loop between slices: at least half as many turns as slices walked, where a
      // walk in one go (or a parser) lets the loop turn no time at all before it is done.
      expect(shape.turns).toBeGreaterThanOrEqual(measured / SCAN_SLICE / 2);
      const ids = await countTurns(() => svgElementIds(text), 'immediate');
      expect(ids.value).toHaveLength(idCount);
      expect(ids.turns).toBeGreaterThanOrEqual(text.length / SCAN_SLICE / 2);
    }
  }, 180_000); // megabytes walked twice, CPU-bound: a minute was not enough beside the other tiers on 2 cores

  it('reads element ids from tags only, in order, without a DOM', async () => {
    const markup = `${SVG}<g id="bus1"><text id="pcs1-power" x="1">id="fake"</text></g><rect ID='r_2'/><circle id="no good"/><!-- <g id="commented"/> --></svg>`;
    expect(await svgElementIds(markup)).toEqual(['bus1', 'pcs1-power', 'r_2']);
    // A 2,000-deep stored diagram: read by the scan, with no DOM in this thread.
    const deep = `${SVG}${Array.from({ length: 2000 }, (_, i) => `<g id="g${i}">`).join('')}${'</g>'.repeat(2000)}</svg>`;
    const parsed = documentsParsedHere();
    expect(await svgElementIds(deep)).toEqual(Array.from({ length: 2000 }, (_, i) => `g${i}`));
    expect(documentsParsedHere()).toBe(parsed);
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
    const parsed = documentsParsedHere();
    for (const doc of [nested(10_000), nested(150_000), nested(DIAGRAM_MAX_DEPTH + 1)]) {
      const { error, turns } = await countTurns(() => s.sanitise(doc), 'immediate');
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(406);
      expect((error as AppError).tip).toBe(`配电图的元素嵌套不能超过 ${DIAGRAM_MAX_DEPTH} 层`);
      // Refused within the scan's first slice (1 MB walked would be 64 turns).
      expect(turns).toBeLessThanOrEqual(1);
    }
    const wide = await s.sanitise(`${SVG}${'<rect/>'.repeat(DIAGRAM_MAX_ELEMENTS)}</svg>`).catch((e: unknown) => e);
    expect((wide as AppError).tip).toBe(`配电图的元素不能超过 ${DIAGRAM_MAX_ELEMENTS} 个`);
    // Nothing was parsed, neither here nor in a worker (none was started).
    expect(s.jobs).toBe(0);
    expect(documentsParsedHere()).toBe(parsed);
  });

  it('sanitises in a worker thread, not on the event loop, and the loop keeps turning meanwhile', async () => {
    const s = make();
    const parsed = documentsParsedHere();
    // The worker's first start loads jsdom (seconds), also off the event loop.
    expect((await s.sanitise(`${SVG}<rect id="a"/></svg>`)).elementIds).toEqual(['a']);
    const big = `${SVG}${Array.from({ length: 4000 }, (_, i) => `<rect id="r${i}" width="1" height="1" onclick="x()"/>`).join('')}</svg>`;
    const { value: clean, turns } = await countTurns(() => s.sanitise(big), 'timer');
    expect(clean!.elementIds).toHaveLength(4000);
    expect(clean!.svg).not.toContain('onclick');
    // Both documents went to the worker; this thread parsed none, and its loop turned while the
    // worker cleaned 4,000 elements (no DOM does that within a millisecond).
    expect(s.jobs).toBe(2);
    expect(documentsParsedHere()).toBe(parsed);
    expect(turns).toBeGreaterThanOrEqual(1);
  });

  it('ends a document that takes longer than the time limit with 406, and the next one is served by a new worker', async () => {
    const s = make({ timeoutMs: 1500 });
    await s.sanitise(`${SVG}<rect/></svg>`);
    // Inside <desc> an HTML parser nests every <div/> (the self-closing slash means nothing there):
    // 3 elements deep to the scan, thousands to jsdom, whose cost grows with the square of the depth.
    const trap = `${SVG}<desc>${'<div/>'.repeat(15_000)}</desc></svg>`;
    expect((await measureSvg(trap, LIMITS)).depth).toBeLessThanOrEqual(DIAGRAM_MAX_DEPTH);
    const parsed = documentsParsedHere();
    const { error, turns } = await countTurns(() => s.sanitise(trap), 'timer');
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(406);
    expect((error as AppError).tip).toBe('配电图过于复杂，无法在 1.5 秒内完成处理');
    // The worker ran into its 1.5 s limit while the loop kept turning (about once a millisecond;
    // a parse on this thread would have let it turn no time at all until it ended).
    expect(turns).toBeGreaterThanOrEqual(20);
    expect(documentsParsedHere()).toBe(parsed);
    expect((await s.sanitise(`${SVG}<rect id="next"/></svg>`)).elementIds).toEqual(['next']);
    expect(s.jobs).toBe(3);
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
