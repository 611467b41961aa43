import type { Locator, Page } from 'playwright-core';

/** /operatecfg/pricedetail: a template's cycles as day bars, and the cycle editor. */
export class PriceDetailScreen {
  constructor(readonly page: Page) {}

  async loaded(): Promise<void> {
    await this.page.locator('main .ant-card-head-title').first().waitFor();
    await this.page.waitForFunction(() => !document.querySelector('main .ant-spin-spinning'));
  }

  cycle(name: string): Locator {
    return this.page.locator(`[data-testid="cycle-${name}"]`);
  }

  /** The bands of a cycle's day bar, as "start–end type price" (their accessible names). */
  async bands(name: string): Promise<string[]> {
    return this.cycle(name).getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''));
  }

  editor(): Locator {
    return this.page.locator('.ant-modal-wrap:visible .ant-modal-content').last();
  }

  band(i: number): Locator {
    return this.editor().locator(`[data-testid="band-${i}"]`);
  }

  /** Picks a band's period type from its select. */
  async setBandType(i: number, label: string): Promise<void> {
    await this.band(i).locator('.ant-select').nth(2).click();
    await this.page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${label}$`) }).click();
  }

  async issues(): Promise<string[]> {
    return this.editor().locator('[data-testid="cycle-issues"] li').allTextContents();
  }
}
