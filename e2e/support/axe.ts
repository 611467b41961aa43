import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { animationsSettled } from './animations.ts';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page at rest and returns the serious and critical violations. The pointer
 * is moved to the corner first and animations are let finish: a button under the pointer shows
 * its hover colour, and a dialog fading in is measured half transparent (a contrast failure that
 * no one sees once it has appeared).
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.mouse.move(0, 0);
  await animationsSettled(page);
  // Once per page load: a single-page app keeps it across its screens (half a megabyte to parse each time).
  if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function'))) await page.addScriptTag({ path: AXE_SCRIPT });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResults> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
