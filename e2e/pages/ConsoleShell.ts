import type { Page } from 'playwright-core';
import { animationsSettled } from '../support/animations.ts';

/** The dropdown menu that is open now (antd keeps closed ones in the page, hidden). */
const OPEN_DROPDOWN = '.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu';

/** The shared layout: header, side menu, breadcrumbs, tab strip. */
export class ConsoleShell {
  constructor(readonly page: Page) {}

  breadcrumb() {
    return this.page.locator('.ant-breadcrumb');
  }

  /** Names of the menu entries shown in the side menu (open directories show their pages). */
  menuNames() {
    return this.page.locator('.ess-sider .ant-menu-title-content').allTextContents();
  }

  /**
   * Goes to a page the way a person does, by its side-menu entry (opening its directory first
   * when it is closed), whatever the language; resolves once the page is shown in the active tab
   * (a screen's code may still be loading after the address has changed).
   */
  async navigate(path: string): Promise<void> {
    const link = this.page.locator(`.ess-sider a[href="${path}"]`);
    // A directory that is opening or closing (after the active page moved to another directory)
    // would answer "visible" and then disappear under the click.
    await this.page.waitForFunction(() => !document.querySelector('.ess-sider [class*="ant-motion-collapse"]'));
    if (!(await link.isVisible())) {
      const dir = path.slice(0, path.lastIndexOf('/'));
      await this.page.locator(`.ess-sider [data-menu-id$="-${dir}"]`).click();
    }
    // A click while the menu re-renders (after a language switch) can be lost: clicked again.
    for (let attempt = 1; ; attempt++) {
      await link.click();
      try {
        await this.page.waitForURL((u) => u.pathname === path, { timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
    await this.activeTab(path).waitFor();
  }

  /** Resolves once a signed-in page is shown in the active tab, whatever page it is. */
  async landed(): Promise<void> {
    await this.page.waitForURL((u) => u.pathname !== '/login');
    await this.page.locator('.ess-tab-strip .ant-tabs-tab-active').waitFor();
  }

  /** The tab of a page when it is the active one. */
  activeTab(path: string) {
    return this.page.locator(`.ess-tab-strip .ant-tabs-tab-active[data-node-key="${path}"]`);
  }

  unreadBadge() {
    return this.page.locator('[data-testid=unread-bell] .ant-scroll-number');
  }

  /** A notice of a PopupWindow live event. */
  popup(title: string) {
    return this.page.locator('.ant-notification-notice').filter({ hasText: title });
  }

  async closePopup(title: string): Promise<void> {
    await this.popup(title).locator('.ant-notification-notice-close').click();
    await this.popup(title).waitFor({ state: 'detached' });
  }

  tabs() {
    return this.page.locator('.ess-tab-strip .ant-tabs-tab');
  }

  /** The titles of the open tabs, left to right. */
  async tabTitles(): Promise<string[]> {
    return (await this.tabs().locator('.ant-tabs-tab-btn').allTextContents()).map((s) => s.trim());
  }

  async activeTabTitle(): Promise<string> {
    return ((await this.page.locator('.ess-tab-strip .ant-tabs-tab-active .ant-tabs-tab-btn').textContent()) ?? '').trim();
  }

  tab(title: string) {
    return this.tabs().filter({ has: this.page.getByText(title, { exact: true }) });
  }

  async chooseLanguage(name: string): Promise<void> {
    const button = this.page.locator('[data-testid=language-switch]');
    const menu = this.page.locator(OPEN_DROPDOWN);
    // The menu is loaded on first use and slides in: a click measured while it moves can land on
    // another language, so the switch's own label confirms the choice (tried again if not).
    for (let attempt = 1; ; attempt++) {
      await button.click();
      await menu.waitFor();
      await animationsSettled(this.page);
      await menu.locator('.ant-dropdown-menu-item').filter({ hasText: name }).click();
      // The console re-renders in the new language and direction; the menu may stay open over it.
      if (await menu.isVisible()) await this.page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      try {
        await this.page.waitForFunction(
          (want) => document.querySelector('[data-testid=language-switch]')?.textContent?.trim() === want,
          name,
          { timeout: 10_000 },
        );
        return;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
  }

  /** Opens the tab strip's actions menu (beside the tabs; it acts on the active tab). */
  async openTabActions(): Promise<void> {
    await this.page.click('[data-testid=tab-actions]');
    await this.page.locator(OPEN_DROPDOWN).waitFor();
  }

  /** An action of the tab strip's menu, on the active tab. */
  async tabAction(label: string): Promise<void> {
    await this.openTabActions();
    await this.chooseOpenMenuItem(label);
  }

  /** An action of a tab's own context menu (right click on its title). */
  async tabContextAction(title: string, label: string): Promise<void> {
    await this.tab(title).getByText(title, { exact: true }).click({ button: 'right' });
    await this.chooseOpenMenuItem(label);
  }

  private async chooseOpenMenuItem(label: string): Promise<void> {
    const menu = this.page.locator(OPEN_DROPDOWN);
    // A menu still sliding in can take the click on another item than the one measured.
    await menu.waitFor();
    await animationsSettled(this.page);
    await menu.locator('.ant-dropdown-menu-item').filter({ hasText: label }).click();
    await menu.waitFor({ state: 'hidden' });
  }

  /** Signs out from the user menu, which opens on hover (hovered again if a busy page let it close). */
  async signOut(label = '退出登录'): Promise<void> {
    const item = this.page.locator('.ant-dropdown-menu-item:visible').filter({ hasText: label });
    for (let attempt = 1; ; attempt++) {
      await this.page.mouse.move(0, 0);
      await this.page.hover('[data-testid=user-menu]');
      try {
        await item.click({ timeout: 10_000 });
        return;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
  }
}
