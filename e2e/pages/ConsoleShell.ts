import type { Page } from 'playwright-core';

/** The shared layout: header, breadcrumbs, tab strip. */
export class ConsoleShell {
  constructor(readonly page: Page) {}

  breadcrumb() {
    return this.page.locator('.ant-breadcrumb');
  }

  tabs() {
    return this.page.locator('.ess-tab-strip .ant-tabs-tab');
  }

  async chooseLanguage(name: string): Promise<void> {
    await this.page.click('[data-testid=language-switch]');
    await this.page.click(`.ant-dropdown-menu-item:has-text("${name}")`);
  }

  async tabAction(label: string): Promise<void> {
    await this.page.click('.ess-tab-strip .ant-tabs-extra-content button');
    await this.page.click(`.ant-dropdown-menu-item:has-text("${label}")`);
  }

  async signOut(label = '退出登录'): Promise<void> {
    await this.page.hover('[data-testid=user-menu]');
    await this.page.click(`.ant-dropdown-menu-item:has-text("${label}")`);
  }
}
