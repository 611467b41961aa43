import type { Locator, Page } from 'playwright-core';

/**
 * A screen rendered by the shared resource layer (components/crud): a list with its search form,
 * toolbar and row actions, and its add/edit form in a modal or drawer.
 */
export class ResourceScreen {
  constructor(
    readonly page: Page,
    private readonly base: string,
    readonly path: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.base}${this.path}`);
    await this.loaded();
  }

  /** The list has rendered its rows (or its empty state) and nothing is loading. */
  async loaded(): Promise<void> {
    await this.page.locator('main .ant-table-row, main .ant-table-placeholder').first().waitFor();
    await this.page.waitForFunction(() => !document.querySelector('main .ant-spin-spinning'));
  }

  rows(): Locator {
    return this.page.locator('main .ant-table-tbody tr.ant-table-row');
  }

  row(text: string): Locator {
    return this.rows().filter({ hasText: text });
  }

  async toolbar(name: RegExp | string): Promise<void> {
    await this.page.locator('main .ess-resource-toolbar').getByRole('button', { name }).click();
  }

  async rowAction(rowText: string, name: RegExp | string): Promise<void> {
    await this.row(rowText).getByRole('button', { name }).click();
  }

  /** The open form (modal or drawer). */
  form(): Locator {
    return this.page.locator('.ant-modal-wrap:visible .ant-modal-content, .ant-drawer-open .ant-drawer-content').last();
  }

  field(label: string): Locator {
    return this.form().getByLabel(label, { exact: true });
  }

  async fill(label: string, value: string): Promise<void> {
    await this.field(label).fill(value);
  }

  /** Picks options of an antd Select or TreeSelect by the texts they show. */
  async choose(label: string, ...options: string[]): Promise<void> {
    const item = this.form().locator('.ant-form-item').filter({ has: this.page.getByText(label, { exact: true }) }).first();
    await item.locator('.ant-select-selector').click();
    for (const option of options) {
      await item.locator('input').first().fill(option);
      const dropdown = this.page.locator('.ant-select-dropdown:visible');
      await dropdown.locator('.ant-select-item-option, .ant-select-tree-node-content-wrapper').filter({ hasText: option }).first().click();
    }
    // Close a multiple select's list by clicking the form's title (Escape would close a drawer).
    if (await this.page.locator('.ant-select-dropdown:visible').count()) await this.form().locator('.ant-modal-title, .ant-drawer-title').click();
  }

  async radio(label: string): Promise<void> {
    await this.form().getByText(label, { exact: true }).click();
  }

  async save(): Promise<void> {
    await this.form().getByRole('button', { name: /保\s*存/ }).click();
  }

  /** The messages under the form's fields. */
  fieldErrors(): Locator {
    return this.form().locator('.ant-form-item-explain-error');
  }

  toast(text: string): Locator {
    return this.page.locator('.ant-message').getByText(text);
  }
}
