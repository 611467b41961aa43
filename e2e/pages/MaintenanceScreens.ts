import type { Locator, Page } from 'playwright-core';
import { animationsSettled } from '../support/animations.ts';

/** The open action form (antd modal) of the maintenance screens. */
const modal = (page: Page): Locator => page.locator('.ant-modal-wrap:visible .ant-modal-content');

/**
 * The maintenance screens as a person works them: plans, the work order list and detail (results
 * with photos), defects, the repair order list and detail with its action forms.
 */
export class MaintenanceScreens {
  constructor(readonly page: Page, private readonly base: string) {}

  private async go(path: string, ready: string): Promise<void> {
    await this.page.goto(`${this.base}${path}`);
    await this.page.locator(ready).first().waitFor();
    await this.page.waitForFunction(() => !document.querySelector('main .ant-spin-spinning'));
  }

  /** A list row (any resource list) by a text it shows. */
  row(text: string): Locator {
    return this.page.locator('main .ant-table-tbody tr.ant-table-row').filter({ hasText: text });
  }

  /** Answers the open popconfirm with its OK button. */
  private async confirm(ok: RegExp): Promise<void> {
    await this.page.locator('.ant-popover:visible').getByRole('button', { name: ok }).click();
  }

  /** Picks the assignee in the open allocation or dispatch form and confirms it. */
  async assign(username: string): Promise<void> {
    const form = modal(this.page);
    await form.locator('.ant-select-selector').click();
    await form.locator('.ant-select input').fill(username);
    await this.page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: `(${username})` }).first().click();
    await this.ok('assign-form');
  }

  /** Confirms the open action form of a test id, and waits until it has closed (the call succeeded). */
  async ok(form: string): Promise<void> {
    // The dialog has finished zooming in: a click on its button while it still moves can land beside it.
    await animationsSettled(this.page);
    await this.page.getByTestId(`${form}-ok`).click();
    await this.page.locator(`[data-testid=${form}]`).waitFor({ state: 'detached' });
  }

  // ── Plans ──

  async startPlan(name: string): Promise<void> {
    await this.go('/patrol/plan', 'main .ant-table-row');
    await this.row(name).getByTestId('plan-start').click();
    await this.confirm(/启\s*动/);
    await this.row(name).getByText('执行中', { exact: true }).waitFor();
  }

  // ── Work orders ──

  /** Allocates an order from the list. */
  async allocateOrder(no: string, username: string): Promise<void> {
    await this.go('/patrol/order', 'main .ant-table-row');
    await this.row(no).getByTestId('order-allocate').click();
    await this.assign(username);
    await this.row(no).getByText('待处理', { exact: true }).waitFor();
  }

  async openOrder(id: number): Promise<void> {
    await this.go(`/patrol/order-detail?id=${id}`, '[data-testid=order-items]');
  }

  /** The result inputs of an item of the open order, by the item's name. */
  itemEditor(name: string): Locator {
    return this.page.locator(`[data-item-name="${name}"] [data-testid^=item-editor-]`);
  }

  /** Records an item as failed (异常) with a note and a photo file; waits for the photo's thumbnail. */
  async failItem(name: string, note: string, photo: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    const editor = this.itemEditor(name);
    await editor.getByText('异常', { exact: true }).click();
    await editor.getByLabel('检查记录').fill(note);
    await editor.getByTestId('photo-input').setInputFiles(photo);
    await editor.getByTestId('stored-photo').waitFor();
  }

  async completeOrder(): Promise<void> {
    await this.page.getByTestId('handle-complete').click();
    await this.page.locator('[data-testid=order-detail] .ant-card-head').getByText('已完成', { exact: true }).waitFor();
  }

  // ── Defects ──

  /** Raises a repair order from a defect on /patrol/flaw; the repair order's detail opens. */
  async raiseRepair(defectNo: string): Promise<void> {
    await this.go('/patrol/flaw', 'main .ant-table-row');
    await this.row(defectNo).getByTestId('defect-repair').click();
    await this.confirm(/创建维修工单/);
    await this.page.waitForURL((u) => u.pathname === '/repair/order-detail');
    await this.repairLoaded();
  }

  // ── Repair orders ──

  async openRepair(id: number): Promise<void> {
    await this.page.goto(`${this.base}/repair/order-detail?id=${id}`);
    await this.repairLoaded();
  }

  async repairLoaded(): Promise<void> {
    await this.page.getByTestId('repair-detail').waitFor();
  }

  /** The state the repair detail's header shows. */
  async waitForRepairState(label: string): Promise<void> {
    await this.page.locator('[data-testid=repair-detail] .ant-card-head').first().getByText(label, { exact: true }).waitFor();
  }

  async dispatchRepair(username: string): Promise<void> {
    await this.page.getByTestId('repair-allocate').click();
    await this.assign(username);
    await this.waitForRepairState('待处理');
  }

  async checkIn(address: string): Promise<void> {
    await this.page.getByTestId('repair-checkIn').click();
    await modal(this.page).getByLabel('地址').fill(address);
    await this.ok('repair-checkin-form');
    await this.waitForRepairState('处理中');
  }

  async handleRepair(workDone: string): Promise<void> {
    await this.page.getByTestId('repair-handle').click();
    await modal(this.page).getByLabel('处理内容').fill(workDone);
    await this.ok('repair-handle-form');
    await this.waitForRepairState('待验收');
  }

  async rejectRepair(reason: string): Promise<void> {
    await this.page.getByTestId('repair-accept').click();
    await modal(this.page).getByText('验收驳回', { exact: true }).click();
    await modal(this.page).getByLabel('驳回原因').fill(reason);
    await this.ok('repair-accept-form');
    await this.waitForRepairState('处理中');
  }

  /** Accepts; for an order from an alarm, optionally resetting its source (with the secondary password). */
  async acceptRepair(reset?: { password: string }): Promise<void> {
    await this.page.getByTestId('repair-accept').click();
    if (reset) {
      await modal(this.page).getByText('复位告警源', { exact: true }).click();
      await modal(this.page).getByTestId('secondary-password').fill(reset.password);
    }
    await this.ok('repair-accept-form');
    await this.waitForRepairState('已完成');
  }
}
