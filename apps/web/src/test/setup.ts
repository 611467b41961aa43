import { configure } from '@testing-library/dom';
import { afterAll, afterEach, vi } from 'vitest';

// antd screens take a while to draw in jsdom, the more so since parts of a page are drawn in turns
// (components/Deferred.tsx), and several times longer beside a browser test on a loaded machine:
// findBy/waitFor wait up to 10 s instead of 1 s before they fail (a hang guard, not a speed check).
configure({ asyncUtilTimeout: 10_000 });

/** A test of logic only runs in Node, without jsdom (`// @vitest-environment node`: no window to set up each time). */
const dom = typeof window !== 'undefined';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  if (!dom) return;
  localStorage.clear();
  sessionStorage.clear();
});

// After a file's last test nothing may ask for an animation frame: jsdom starts a fresh frame timer
// for a request made while its window closes (a chart's animation loop, a motion's next step), and
// that timer's callback then fails on the closed window's location, an uncaught error of the run.
afterAll(() => {
  if (dom) window.requestAnimationFrame = () => 0;
});

/**
 * Whether a width query ("(min-width: 768px)", "(max-width: 767.98px)", both joined by "and")
 * holds at the window's width (jsdom's innerWidth, 1024 unless a test sets it); other queries do not.
 */
function widthQueryMatches(query: string): boolean {
  const parts = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)px\)/g)];
  if (!parts.length) return false;
  return parts.every(([, kind, px]) => (kind === 'min' ? window.innerWidth >= Number(px) : window.innerWidth <= Number(px)));
}

// jsdom has no matchMedia; antd's responsive helpers and the layout ask it (a desktop of 1024 px by default).
if (dom && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: widthQueryMatches(query),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
