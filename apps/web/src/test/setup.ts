import { configure } from '@testing-library/dom';
import { afterAll, afterEach, vi } from 'vitest';

// antd screens take a while to draw in jsdom, the more so since parts of a page are drawn in turns
// (components/Deferred.tsx): findBy/waitFor wait up to 5 s instead of 1 s before they fail.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

// After a file's last test nothing may ask for an animation frame: jsdom starts a fresh frame timer
// for a request made while its window closes (a chart's animation loop, a motion's next step), and
// that timer's callback then fails on the closed window's location, an uncaught error of the run.
afterAll(() => {
  window.requestAnimationFrame = () => 0;
});

// jsdom has no matchMedia; antd's responsive helpers and the side menu ask it.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: false,
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
