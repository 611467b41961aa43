import type { Locator, Page } from 'playwright-core';
import { animationsSettled } from '../support/animations.ts';
import { ResourceScreen } from './ResourceScreen.ts';

/** Picks an option of an antd Select found by its accessible name (aria-label). */
export async function pick(page: Page, scope: Locator | Page, name: string, option: string): Promise<void> {
  const box = scope.getByRole('combobox', { name, exact: true });
  await box.waitFor();
  await animationsSettled(page);
  await box.click({ force: true });
  await box.fill(option);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

/** /product/equipment: the device registry list with its import, product data and EMS check tools. */
export class EquipmentScreen extends ResourceScreen {
  constructor(page: Page, base: string) {
    super(page, base, '/product/equipment');
  }

  /** Uploads a file through a toolbar import button (the browser's file chooser). */
  async upload(testId: string, file: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByTestId(testId).click();
    await (await chooser).setFiles(file);
  }

  /** The per-row report of a refused import. */
  report(): Locator {
    return this.page.getByTestId('import-errors');
  }

  /** Searches the list for one station. */
  async filterStation(name: string): Promise<void> {
    const search = this.page.locator('main .ess-resource-search');
    await pick(this.page, search, '所属站点', name);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    // Off the button: a hovered primary button is lighter than the contrast rule allows.
    await this.page.mouse.move(0, 0);
    await this.loaded();
  }
}

/** /product/replace: station → product → device, the new code and barcode, and the change list. */
export class ReplaceScreen extends ResourceScreen {
  constructor(page: Page, base: string) {
    super(page, base, '/product/replace');
  }

  async replace(station: string, device: string, newCode: string, newBarcode: string): Promise<void> {
    const card = this.page.locator('main .ant-card').first();
    await pick(this.page, card, '所属站点', station);
    await pick(this.page, card, '设备', device);
    await this.page.getByTestId('replace-current').waitFor();
    await this.page.getByTestId('replace-new-code').fill(newCode);
    await this.page.getByTestId('replace-new-barcode').fill(newBarcode);
    await this.page.getByTestId('replace-submit').click();
    await this.page.locator('.ant-popconfirm:visible').getByRole('button', { name: /确\s*定/ }).click();
  }
}
