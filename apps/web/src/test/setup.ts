import { afterAll, afterEach, vi } from 'vitest';

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
