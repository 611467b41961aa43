import type { Page } from 'playwright-core';

/** What sticks out of the page sideways: the page's scroll width and the outermost elements past the viewport's edge. */
export interface PageOverflow {
  viewport: number;
  scrollWidth: number;
  /** The outermost elements reaching past the right edge (or the left one, right to left), described. */
  culprits: string[];
}

/**
 * Measures whether the page scrolls sideways: the document's scroll width against the viewport,
 * and, when it does, the outermost elements past the edge (for the failure message). Elements
 * inside a box that scrolls or clips on its own (a table in its card) do not widen the page and
 * are not listed.
 */
export function pageOverflow(page: Page): Promise<PageOverflow> {
  return page.evaluate(() => {
    const de = document.documentElement;
    const viewport = de.clientWidth;
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).filter((c) => c && !c.startsWith('css-')).slice(0, 3).join('.') : '';
      const id = el.getAttribute('data-testid') ?? el.id;
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${id ? `#${id}` : ''} [${Math.round(r.left)}, ${Math.round(r.right)}]`;
    };
    const clips = (el: Element) => getComputedStyle(el).overflowX !== 'visible';
    const culprits: string[] = [];
    const walk = (el: Element) => {
      for (const child of el.children) {
        const r = child.getBoundingClientRect();
        if (r.width > 0 && (r.right > viewport + 1 || r.left < -1)) {
          culprits.push(describe(child));
          continue;
        }
        if (!clips(child)) walk(child);
      }
    };
    if (de.scrollWidth > viewport) walk(document.body);
    return { viewport, scrollWidth: de.scrollWidth, culprits: culprits.slice(0, 8) };
  });
}

/**
 * Text cut short inside `scope`: an element that clips its own content (overflow hidden, an
 * ellipsis) while its text is wider than its box, or a text element reaching out of its card (out
 * of sight in a table that scrolls inside it, or over its edge), or a word broken over two lines.
 * Each is described by its text.
 */
export function cutLabels(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const cut: string[] = [];
    for (const root of document.querySelectorAll(sel)) {
      for (const el of root.querySelectorAll<HTMLElement>('*')) {
        const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
        if (!text || el.closest('[aria-hidden=true], .ant-table-measure-row, .ess-visually-hidden, canvas')) continue;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || el.getClientRects().length === 0) continue;
        // A table cell cut with an ellipsis on purpose holds data (a station's name), not a label, and shows it whole on hover.
        const clipped = style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && !el.closest('.ant-table-cell-ellipsis');
        // Its box: a menu entry (a wrapped label must not spill over the next entry), else its card.
        const card = el.closest('.ant-menu-item, .ant-menu-submenu-title') ?? el.closest('.ant-card, .ant-statistic, .ant-drawer-content');
        const box = el.getBoundingClientRect();
        const outer = card?.getBoundingClientRect();
        const outside = !!outer && (box.right > outer.right + 1 || box.left < outer.left - 1 || box.bottom > outer.bottom + 1 || box.top < outer.top - 1);
        if (clipped || outside) cut.push(`${text.slice(0, 60)} (${clipped ? 'cut' : 'outside its box'})`);
        else {
          // A word split over two lines (a column too narrow for "Wirkungsgrad"): the lines may break
          // only between words, at a hyphen or a slash. Text in Chinese or Japanese breaks anywhere.
          for (const node of el.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue;
            const whole = node.textContent ?? '';
            for (const m of whole.matchAll(/[^\s\-/]+/g)) {
              if (/[\u2e80-\u9fff\uac00-\ud7af]/.test(m[0]) || m[0].length < 2) continue;
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
              if (lines.size > 1) cut.push(`${m[0]} (broken mid-word)`);
            }
          }
        }
      }
    }
    return cut;
  }, scope);
}
