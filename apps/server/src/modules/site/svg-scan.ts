/**
 * One linear pass over SVG text, without building a tree: what a parser would see as tags. It
 * checks an upload's shape (nesting depth, element count) before any parser gets the text, and
 * reads the element ids of stored (already sanitised) markup, so neither needs a DOM.
 *
 * Comments, CDATA sections, processing instructions and declarations are skipped; quoted
 * attribute values may hold '>'. An end tag closes the innermost open element only when it names
 * that element (as in well-formed XML); any other end tag closes nothing, so a malformed document
 * can only look deeper than it is, never shallower. The scan stops as soon as a visitor asks.
 * On the event loop the text is walked in slices with a turn of the loop between them, so even
 * megabytes of tags hold nothing else up for more than a few milliseconds.
 */

interface TagVisitor {
  /** A start tag; `id` is its first id attribute. Return false to stop. */
  start(name: string, selfClosing: boolean, id: string | undefined): boolean;
  /** An end tag. Return false to stop. */
  end(name: string): boolean;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Walks the tags from `from`; returns where the next tag may start once it has passed `until`
 * (to go on from there), or -1 at the end of the text or when a visitor stopped the walk.
 */
function walkTags(s: string, visit: TagVisitor, from = 0, until = Infinity): number {
  const n = s.length;
  let i = from;
  while (i < n) {
    if (i >= until) return i;
    const lt = s.indexOf('<', i);
    if (lt < 0) return -1;
    const c = s.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      let end: number;
      if (s.startsWith('--', lt + 2)) {
        // <!--> and <!---> are whole (empty) comments to an HTML parser.
        if (s.charCodeAt(lt + 4) === 62) end = lt + 5;
        else if (s.startsWith('->', lt + 4)) end = lt + 6;
        else {
          const a = s.indexOf('-->', lt + 4);
          const b = s.indexOf('--!>', lt + 4);
          if (a < 0 && b < 0) return -1;
          end = a >= 0 && (b < 0 || a < b) ? a + 3 : b + 4;
        }
      } else if (s.startsWith('[CDATA[', lt + 2)) {
        const e = s.indexOf(']]>', lt + 9);
        if (e < 0) return -1;
        end = e + 3;
      } else {
        const e = s.indexOf('>', lt + 2);
        if (e < 0) return -1;
        end = e + 1;
      }
      i = end;
      continue;
    }
    if (c === 63 /* ? */) {
      const e = s.indexOf('>', lt + 2);
      if (e < 0) return -1;
      i = e + 1;
      continue;
    }
    const closing = c === 47; /* / */
    const nameStart = closing ? lt + 2 : lt + 1;
    if (!isLetter(s.charCodeAt(nameStart))) {
      // '</>' is dropped, '</3…>' is a bogus comment, and '<' before anything else is text.
      if (closing) {
        const e = s.indexOf('>', lt + 2);
        if (e < 0) return -1;
        i = e + 1;
      } else {
        i = lt + 1;
      }
      continue;
    }
    let j = nameStart + 1;
    while (j < n) {
      const k = s.charCodeAt(j);
      if (isSpace(k) || k === 47 || k === 62) break;
      j++;
    }
    const name = s.slice(nameStart, j).toLowerCase();
    // Attributes, up to the tag's '>'.
    let selfClosing = false;
    let id: string | undefined;
    for (;;) {
      while (j < n && isSpace(s.charCodeAt(j))) j++;
      if (j >= n) return -1; // a tag cut off by the end of the text is no tag
      const k = s.charCodeAt(j);
      if (k === 62) {
        j++;
        break;
      }
      if (k === 47) {
        if (s.charCodeAt(j + 1) === 62) {
          selfClosing = true;
          j += 2;
          break;
        }
        j++;
        continue;
      }
      const attrStart = j++;
      while (j < n) {
        const a = s.charCodeAt(j);
        if (isSpace(a) || a === 47 || a === 62 || a === 61) break;
        j++;
      }
      const attr = s.slice(attrStart, j);
      while (j < n && isSpace(s.charCodeAt(j))) j++;
      let value = '';
      if (s.charCodeAt(j) === 61 /* = */) {
        j++;
        while (j < n && isSpace(s.charCodeAt(j))) j++;
        const q = s.charCodeAt(j);
        if (q === 34 || q === 39) {
          const close = s.indexOf(q === 34 ? '"' : "'", j + 1);
          if (close < 0) return -1;
          value = s.slice(j + 1, close);
          j = close + 1;
        } else {
          const vs = j;
          while (j < n && !isSpace(s.charCodeAt(j)) && s.charCodeAt(j) !== 62) j++;
          value = s.slice(vs, j);
        }
      }
      if (id === undefined && attr.length === 2 && attr.toLowerCase() === 'id') id = value;
    }
    i = j;
    if (!(closing ? visit.end(name) : visit.start(name, selfClosing, id))) return -1;
  }
  return -1;
}

/** Characters walked between two turns of the event loop. */
export const SCAN_SLICE = 16 * 1024;

async function walkYielding(s: string, visit: TagVisitor): Promise<void> {
  for (let i = walkTags(s, visit, 0, SCAN_SLICE); i >= 0; i = walkTags(s, visit, i, i + SCAN_SLICE)) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export interface SvgShape {
  /** Start tags seen. */
  elements: number;
  /** Deepest nesting seen. */
  depth: number;
}

function shapeVisitor(limits: { depth: number; elements: number }) {
  const open: string[] = [];
  const shape: SvgShape = { elements: 0, depth: 0 };
  const visit: TagVisitor = {
    start(name, selfClosing) {
      shape.elements++;
      if (!selfClosing) open.push(name);
      if (open.length > shape.depth) shape.depth = open.length;
      return shape.elements <= limits.elements && shape.depth <= limits.depth;
    },
    end(name) {
      if (open[open.length - 1] === name) open.pop();
      return true;
    },
  };
  return { shape, visit };
}

const ELEMENT_ID = /^[A-Za-z_][\w.:-]*$/;

function idVisitor() {
  const ids: string[] = [];
  const visit: TagVisitor = {
    start(_name, _selfClosing, id) {
      if (id !== undefined && ELEMENT_ID.test(id)) ids.push(id);
      return true;
    },
    end: () => true,
  };
  return { ids, visit };
}

/**
 * Counts elements and nesting, stopping as soon as either passes its limit (so a document far
 * over a limit costs no more than its first few kilobytes). Yields to the event loop between slices.
 */
export async function measureSvg(markup: string, limits: { depth: number; elements: number }): Promise<SvgShape> {
  const { shape, visit } = shapeVisitor(limits);
  await walkYielding(markup, visit);
  return shape;
}

/** Ids of the markup's elements (those a binding may name), in document order. Yields to the event loop between slices. */
export async function svgElementIds(markup: string): Promise<string[]> {
  const { ids, visit } = idVisitor();
  await walkYielding(markup, visit);
  return ids;
}

/** measureSvg in one go, for the sanitiser's worker thread (which has no one else to wait for it). */
export function measureSvgSync(markup: string, limits: { depth: number; elements: number }): SvgShape {
  const { shape, visit } = shapeVisitor(limits);
  walkTags(markup, visit);
  return shape;
}

/** svgElementIds in one go, for the sanitiser's worker thread. */
export function svgElementIdsSync(markup: string): string[] {
  const { ids, visit } = idVisitor();
  walkTags(markup, visit);
  return ids;
}
