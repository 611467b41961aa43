import type { Page } from 'playwright-core';

/** The shared layout: header, breadcrumbs, tab strip. */
export class ConsoleShell {
  constructor(readonly page: Page) {}

  breadcrumb() {
    return this.page.locator('.ant-breadcrumb');
  }

  /** Names of the menu entries shown in the side menu (open directories show their pages). */
  menuNames() {
    return this.page.locator('.ant-pro-sider .ant-menu-title-content').allTextContents();
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

  async chooseLanguage(name: string): Promise<void> {
    await this.page.click('[data-testid=language-switch]');
    await this.page.click(`.ant-dropdown-menu-item:has-text("${name}")`);
  }

  async tabAction(label: string): Promise<void> {
    await this.page.click('[data-testid=tab-actions]');
    await this.page.click(`.ant-dropdown-menu-item:has-text("${label}")`);
  }

  async signOut(label = '退出登录'): Promise<void> {
    await this.page.hover('[data-testid=user-menu]');
    await this.page.click(`.ant-dropdown-menu-item:has-text("${label}")`);
  }
}
