import { describe, expect, it } from 'vitest';
import { animationsSettled } from './support/animations.ts';
import { cutLabels } from './support/layout.ts';
import { demoWalk, SHOTS, sidewaysWalk } from './support/route-walk.ts';

/**
 * Every built screen as `npm start` shows it (the three demo stations, days of their history and
 * their revenue, then played live) at a small laptop's 1024 px in English and German: no page
 * scrolls sideways; at 1440 px the German device overview and business overview show every label
 * whole; axe-core finds no serious or critical violation on any screen with the demo's data in it.
 * The phone (390 px) walks and the drawer are in layout-phone.e2e.test.ts.
 */
describe('every built screen with the demo stations: layout at 1024 and 1440 px', { timeout: 600_000 }, () => {
  const walk = demoWalk('layout-e2e');

  for (const locale of ['en-US', 'de-DE']) {
    it(`at 1024 px in ${locale} no built screen scrolls sideways`, async () => {
      const { overflowing, title } = await sidewaysWalk(walk, 1024, locale);
      expect(overflowing).toEqual([]);
      expect(title, `${title.text}`).toMatchObject({ cut: false });
    });
  }

  it('at 1440 px in German the device overview, the business overview and the side menu show every label whole', async () => {
    const { page } = walk;
    await page.setViewportSize({ width: 1440, height: 900 });
    await walk.useLocale('de-DE', '/overview/apparatus');
    await page.locator('[data-testid=apparatus-total]').getByText('114').waitFor();
    expect(await cutLabels(page, 'main')).toEqual([]);
    await walk.visit('/synthesis/businessOverview');
    await page.locator('[data-testid=arbitrage-detail] .ant-table-row').first().waitFor();
    await walk.settled();
    expect(await cutLabels(page, 'main')).toEqual([]);
    // Every directory of the side menu open: each entry's label whole, a long one wrapped between words.
    const closed = page.locator('.ess-sider .ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
    while ((await closed.count()) > 0) {
      await closed.first().click();
      await animationsSettled(page);
    }
    expect(await cutLabels(page, '.ess-sider')).toEqual([]);
  });

  it('at 1024 px the device list shows its rows (photographed)', async () => {
    const { page } = walk;
    await page.setViewportSize({ width: 1024, height: 768 });
    await walk.useLocale('zh-CN', '/monitor/device');
    await walk.fewTabs();
    await page.locator('main .ant-table-row').first().waitFor();
    await walk.settled();
    await page.mouse.move(0, 767);
    await page.screenshot({ path: `${SHOTS}/device-list-1024.png`, animations: 'disabled', caret: 'hide' });
  });
});
