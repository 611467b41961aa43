import type { Page } from 'playwright-core';

/**
 * Leaves one page tab in the strip, by each other tab's close button, so that what a walk measures
 * is the page, not how many tabs it opened (a strip with more tabs than it shows has its own test in
 * layout.e2e.test.ts). The buttons are pressed in the page, those of tabs scrolled out of the strip
 * too (the tab actions' "close others", a menu that animates open and shut, cost a walk of every
 * screen half a minute; it is tested in tabs.e2e.test.ts).
 */
export async function closeOtherTabs(page: Page): Promise<void> {
  const closing = await page.evaluate(() => {
    const buttons = document.querySelectorAll<HTMLElement>('.ess-tab-strip .ant-tabs-tab:not(.ant-tabs-tab-active) .ant-tabs-tab-remove');
    buttons.forEach((b) => b.click());
    return buttons.length;
  });
  if (closing) await page.waitForFunction(() => document.querySelectorAll('.ess-tab-strip .ant-tabs-tab').length === 1);
}
