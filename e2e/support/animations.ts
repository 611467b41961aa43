import type { Page } from 'playwright-core';

/**
 * Resolves once every finite animation has ended (a dialog zooming in, a drawer sliding, a notice
 * appearing); status dots pulse for ever and are ignored. A click at a point measured while a
 * dialog still zooms can land beside it, on the mask, which closes the dialog.
 */
export const animationsSettled = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
