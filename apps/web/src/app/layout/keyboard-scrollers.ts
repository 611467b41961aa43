import { useEffect, type RefObject } from 'react';

/** A table's own scroller (antd's .ant-table-content), scrolling sideways when the table is wider than its card. */
const SCROLLERS = '.ant-table-content';
const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';
const MARK = 'data-ess-scroller';

/**
 * Makes every table that scrolls sideways inside the page reachable by keyboard (WCAG 2.1.1; axe
 * scrollable-region-focusable): a scroller with nothing focusable inside takes the focus itself
 * (tabindex 0, named as a group) so arrow keys scroll it; it gives it back when it no longer
 * scrolls. Checked again whenever the page changes or resizes, in the next animation frame.
 */
export function useKeyboardScrollers(root: RefObject<HTMLElement | null>, label: string): void {
  useEffect(() => {
    const el = root.current;
    if (!el || typeof MutationObserver === 'undefined') return;
    let frame = 0;
    const check = () => {
      frame = 0;
      for (const s of el.querySelectorAll<HTMLElement>(SCROLLERS)) {
        const wants = s.scrollWidth > s.clientWidth + 1 && !s.querySelector(FOCUSABLE);
        if (wants && !s.hasAttribute(MARK)) {
          s.setAttribute(MARK, '');
          s.tabIndex = 0;
          s.setAttribute('role', 'group');
          s.setAttribute('aria-label', label);
        } else if (!wants && s.hasAttribute(MARK)) {
          s.removeAttribute(MARK);
          s.removeAttribute('tabindex');
          s.removeAttribute('role');
          s.removeAttribute('aria-label');
        }
      }
    };
    const later = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    const mutations = new MutationObserver(later);
    mutations.observe(el, { childList: true, subtree: true });
    const resizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(later);
    resizes?.observe(el);
    later();
    return () => {
      mutations.disconnect();
      resizes?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [root, label]);
}
