import type { Page } from 'playwright-core';

/** /monitor/device: the live device list. */
export class DeviceListScreen {
  constructor(readonly page: Page, private readonly base: string) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.base}/monitor/device`);
    await this.page.locator('[data-testid=device-table] .ant-table-row').first().waitFor();
  }

  /** Narrows the list to code/name/barcode containing the text. */
  async search(text: string): Promise<void> {
    const box = this.page.getByRole('searchbox');
    await box.fill(text);
    await box.press('Enter');
    await this.page.locator('[data-testid=device-table] .ant-table-row', { hasText: text }).first().waitFor();
  }

  row(text: string) {
    return this.page.locator('[data-testid=device-table] .ant-table-row', { hasText: text });
  }

  /** Resolves once the row's status badge shows the state. */
  async waitForStatus(text: string, status: string, timeout = 20_000): Promise<void> {
    await this.row(text).locator(`[data-testid=device-status][data-status=${status}]`).waitFor({ timeout });
  }
}

/** /product/equipmentDetail?id=: one device, live. */
export class DeviceDetailScreen {
  constructor(readonly page: Page) {}

  async loaded(): Promise<void> {
    await this.page.locator('[data-testid=device-detail]').waitFor();
  }

  status() {
    return this.page.locator('[data-testid=device-detail] [data-testid=device-status]').first();
  }

  async waitForStatus(status: string, timeout = 20_000): Promise<void> {
    await this.page.locator(`[data-testid=device-detail] [data-testid=device-status][data-status=${status}]`).first().waitFor({ timeout });
  }

  /** The shown text of a property in the "live values" grid. */
  value(identifier: string) {
    return this.page.locator(`[data-testid=prop-${identifier}]`).textContent();
  }

  /** Resolves with the property's text once it differs from `before`. */
  async waitForChange(identifier: string, before: string, timeout = 20_000): Promise<string> {
    await this.page.waitForFunction(
      ([id, old]) => {
        const el = document.querySelector(`[data-testid=prop-${id}]`);
        return !!el && el.textContent !== old && el.textContent !== '-';
      },
      [identifier, before] as const,
      { timeout },
    );
    return (await this.value(identifier)) ?? '';
  }

  /** Clicks a control, confirms (with the secondary password when asked) and waits for the dialog to close. */
  async control(key: string, password: string): Promise<void> {
    await this.page.locator(`[data-testid=control-${key}]`).click();
    const dialog = this.page.locator('.ant-modal-content');
    await dialog.waitFor();
    const pwd = dialog.locator('[data-testid=secondary-password]');
    if (await pwd.isVisible()) await pwd.fill(password);
    await this.page.locator('#control-confirm').click();
    await dialog.waitFor({ state: 'hidden', timeout: 20_000 });
  }
}
