import type { Page } from 'playwright-core';
import { animationsSettled } from './animations.ts';

/**
 * Leaves one page tab in the strip (the tab actions' "close others"): on a phone (390 px) a few long
 * titles overflow the strip into its menu, and axe then finds a tablist with no tab in view.
 */
export async function closeOtherTabs(page: Page): Promise<void> {
  if ((await page.locator('.ess-tab-strip .ant-tabs-tab').count()) < 2) return;
  await page.click('[data-testid=tab-actions]');
  const item = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item[data-menu-id$="-others"]');
  await item.waitFor();
  await animationsSettled(page);
  await item.click();
  await page.waitForFunction(() => document.querySelectorAll('.ess-tab-strip .ant-tabs-tab').length === 1);
}
