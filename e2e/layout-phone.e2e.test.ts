import { describe, expect, it } from 'vitest';
import { animationsSettled } from './support/animations.ts';
import { seriousViolations, type Violation } from './support/axe.ts';
import { cutLabels } from './support/layout.ts';
import { demoWalk, KNOWN, ROUTES, SHOTS, sidewaysWalk } from './support/route-walk.ts';

/**
 * Every built screen with the demo stations on a phone's 390 px, in English and German: no page
 * scrolls sideways (tables and rows of filters scroll or wrap inside their cards), the header's
 * title is whole, and the menu opens as a drawer; and axe-core finds no serious or critical
 * violation on any screen with the demo's data in it (at 1440 px). The 1024 and 1440 px layout
 * walks are in layout.e2e.test.ts (two files of about equal length, so they can run beside each other).
 */
describe('every built screen with the demo stations on a phone (390 px)', { timeout: 600_000 }, () => {
  const walk = demoWalk('layout-phone-e2e');

  it('knows the built routes', () => {
    expect(ROUTES.length).toBeGreaterThan(30);
    expect(ROUTES).toContain('/home/index');
    expect(ROUTES).toContain('/monitor/device');
  });

  for (const locale of ['en-US', 'de-DE']) {
    it(`at 390 px in ${locale} no built screen scrolls sideways`, async () => {
      const { overflowing, title } = await sidewaysWalk(walk, 390, locale);
      expect(overflowing).toEqual([]);
      expect(title, `${title.text}`).toMatchObject({ cut: false });
    });
  }

  it('on a phone the menu opens as a drawer over the home page, whole, and closes on a choice', async () => {
    const { page } = walk;
    await page.setViewportSize({ width: 390, height: 844 });
    await walk.useLocale('en-US', '/home/index');
    await walk.fewTabs();
    // No menu column beside the page.
    await expect(page.locator('.ess-sider').count()).resolves.toBe(0);
    const button = page.getByTestId('menu-button');
    await expect(button.getAttribute('aria-expanded')).resolves.toBe('false');
    await button.click();
    const drawer = page.locator('.ess-menu-drawer-root .ant-drawer-content');
    await drawer.getByRole('navigation').locator('.ant-menu-item-selected').waitFor();
    await animationsSettled(page);
    await page.locator('.ess-menu-drawer-root.ant-drawer-open').waitFor();
    await expect(button.getAttribute('aria-expanded')).resolves.toBe('true');
    expect(await cutLabels(page, '.ess-menu-drawer-root')).toEqual([]);
    expect((await seriousViolations(page)).filter((v) => !KNOWN(v))).toEqual([]);
    await page.mouse.move(0, 843);
    await page.screenshot({ path: `${SHOTS}/phone-drawer.png`, animations: 'disabled', caret: 'hide' });
    // A page in another directory: the directory opens, the page is chosen, the drawer closes.
    await drawer.locator('[data-menu-id$="-/overview"]').click();
    await drawer.locator('a[href="/overview/apparatus"]').click();
    await page.waitForURL((u) => u.pathname === '/overview/apparatus');
    await page.locator('.ess-menu-drawer-root.ant-drawer-open').waitFor({ state: 'detached' });
    await expect(button.getAttribute('aria-expanded')).resolves.toBe('false');
  });

  it('no built screen has a serious or critical accessibility violation with the demo data (1440 px)', async () => {
    const { page } = walk;
    await page.setViewportSize({ width: 1440, height: 900 });
    await walk.useLocale('zh-CN', ROUTES[0]!);
    const found: Record<string, Violation[]> = {};
    for (const path of ROUTES) {
      await walk.fewTabs();
      await walk.visit(path);
      const v = (await seriousViolations(page)).filter((x) => !KNOWN(x));
      if (v.length) found[path] = v;
    }
    expect(found).toEqual({});
  });
});
