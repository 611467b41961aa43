import createDOMPurify, { type Config } from 'dompurify';
import { createRequire } from 'node:module';
import { svgElementIdsSync } from './svg-scan.ts';

/**
 * Distribution diagrams are user-supplied SVG shown inline in the console, so they pass through
 * DOMPurify (SVG profiles only) on a jsdom window, plus rules of our own for what DOMPurify
 * lets through by design: every link must be a same-document fragment (#id), CSS may not load
 * anything (url() only to #id, no @import), and no <foreignObject>, <script>, <a>, <use> of
 * another file, event handler or javascript:/data: URL survives.
 *
 * jsdom is slow (milliseconds per element) and its cost grows faster than the nesting, so this
 * runs only in the sanitiser's worker thread (svg-worker.ts), never on the server's event loop;
 * diagram-svg.ts checks the text's shape first and bounds the worker's time.
 */
/** The few DOM members used here (the server build has no DOM library). */
interface El {
  nodeType: number;
  tagName: string;
  outerHTML: string;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  setAttribute(name: string, value: string): void;
}

const LINK_ATTRS = new Set(['href', 'xlink:href', 'src']);
/** url(...) whose target is not a same-document fragment. */
const EXTERNAL_URL = /url\s*\(\s*(?!['"]?\s*#)[^)]*\)/gi;
const IMPORT = /@import[^;]*;?/gi;

function cleanCss(css: string): string {
  // Escapes could spell url( or @import in pieces: decode them first, then apply the rules.
  const decoded = css
    .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_m, hex: string) => {
      const cp = parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    })
    .replace(/\\(.)/gs, '$1');
  // No '<' in CSS: it could only serve to close the style element.
  return decoded.replace(/</g, '').replace(IMPORT, '').replace(EXTERNAL_URL, 'none').replace(/expression\s*\(/gi, '(');
}

// jsdom ships no types and @types/jsdom would pull the DOM library into the server build, so it is
// loaded (it is CommonJS) with the one constructor used here typed by hand. It takes a second or two
// to load, so it is loaded on the first SVG, not with the server.
let dom: { purify: ReturnType<typeof createDOMPurify> } | null = null;
function sanitiser() {
  if (dom) return dom;
  const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
    JSDOM: new (html: string) => { window: unknown };
  };
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    if (name.startsWith('on')) {
      data.keepAttr = false;
      return;
    }
    if (LINK_ATTRS.has(name)) {
      if (!/^#[A-Za-z_][\w.:-]*$/.test(data.attrValue.trim())) data.keepAttr = false;
      return;
    }
    if (name === 'style') data.attrValue = cleanCss(data.attrValue);
    else if (/url\s*\(/i.test(data.attrValue)) data.attrValue = data.attrValue.replace(EXTERNAL_URL, 'none');
  });
  purify.addHook('uponSanitizeElement', (node, data) => {
    const el = node as unknown as El;
    if (data.tagName === 'style' && el.textContent) el.textContent = cleanCss(el.textContent);
  });
  dom = { purify };
  return dom;
}

/** Loads jsdom and DOMPurify now (the worker does it before taking its first document). */
export function loadSanitiser(): void {
  sanitiser();
}

const CONFIG: Config = {
  USE_PROFILES: { svg: true, svgFilters: true },
  FORBID_TAGS: ['foreignObject', 'foreignobject', 'script', 'image', 'feImage', 'animate', 'set', 'animateMotion', 'animateTransform', 'iframe', 'embed', 'object'],
  FORBID_ATTR: ['src', 'action', 'formaction', 'xmlns:xlink'],
  ADD_TAGS: ['use'],
  ALLOW_DATA_ATTR: false,
  KEEP_CONTENT: false,
};

export interface SanitisedSvg {
  svg: string;
  elementIds: string[];
}

let parsedHere = 0;
/**
 * Documents this thread has parsed with jsdom. The server's own thread never parses one (only the
 * sanitiser's worker does); its tests check that by this count.
 */
export function documentsParsedHere(): number {
  return parsedHere;
}

/** Returns the sanitised markup of the document's root <svg>, or null when none survives. */
export function sanitiseSvg(markup: string): SanitisedSvg | null {
  parsedHere++;
  // Entities declared in an internal DOCTYPE subset are never expanded; the parser treats SVG as
  // foreign content in an HTML body, so processing instructions become comments, which go too.
  const fragment = sanitiser().purify.sanitize(markup, { ...CONFIG, RETURN_DOM_FRAGMENT: true }) as unknown as El;
  const root = Array.from(fragment.childNodes).find((n) => n.nodeType === 1 && n.tagName.toLowerCase() === 'svg');
  if (!root) return null;
  root.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const svg = root.outerHTML;
  return { svg, elementIds: svgElementIdsSync(svg) };
}
