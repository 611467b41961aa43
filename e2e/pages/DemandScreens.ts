import type { Locator, Page } from 'playwright-core';
import { animationsSettled } from '../support/animations.ts';

/** The open dialog or drawer (antd keeps closed ones in the page, hidden). */
const dialog = (page: Page): Locator => page.locator('.ant-modal-wrap:visible .ant-modal-content').last();
/** The select dropdown that is open now. */
const OPEN_DROPDOWN = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';

/**
 * Picks an option of an antd Select by its label with the keyboard: the list is virtual (only the
 * options near the current one are in the page), so the active option is moved until it is the one.
 * The labels are ordered as text (times "HH:MM"), which says which way to go.
 */
export async function chooseByKeyboard(page: Page, select: Locator, label: string): Promise<void> {
  await select.click();
  const dropdown = page.locator(OPEN_DROPDOWN);
  await dropdown.waitFor();
  await animationsSettled(page);
  const active = () => dropdown.locator('.ant-select-item-option-active').getAttribute('title');
  for (let i = 0; i < 100; i++) {
    const now = await active();
    if (now === label) {
      await page.keyboard.press('Enter');
      await dropdown.waitFor({ state: 'hidden' });
      return;
    }
    await page.keyboard.press(now !== null && now > label ? 'ArrowUp' : 'ArrowDown');
  }
  throw new Error(`no option ${label}`);
}

/**
 * The demand screens (/demand/setting, /demand/track, /demand/reconcile, /demand/analysis), the
 * strategy screen (/operatecfg/strategy) and the storage control of a PCS or EMS page, as a person
 * works them.
 */
export class DemandScreens {
  constructor(readonly page: Page, private readonly base: string) {}

  private async go(path: string, ready: string): Promise<void> {
    await this.page.goto(`${this.base}${path}`);
    await this.page.locator(ready).first().waitFor();
    await this.idle();
  }

  /** Nothing in the page is loading (no spinner, no loading card). */
  async idle(): Promise<void> {
    await this.page.waitForFunction(() => !document.querySelector('main .ant-spin-spinning, main .ant-card-loading'));
  }

  /** A figure of a summary card by its test id: its shown value. */
  async figure(testId: string): Promise<string> {
    return (await this.page.locator(`[data-testid=${testId}] .ant-statistic-content`).innerText()).trim();
  }

  /** Picks a month (YYYY-MM) in the screen's month field. */
  async chooseMonth(month: string): Promise<void> {
    const input = this.page.locator('#demand-month');
    if ((await input.inputValue()) === month) return;
    await input.click();
    await input.fill(month);
    await input.press('Enter');
    await this.page.waitForFunction((m) => (document.querySelector<HTMLInputElement>('#demand-month')?.value ?? '') === m, month);
    await this.idle();
  }

  // ── Setting ──

  async openSettings(): Promise<void> {
    await this.go('/demand/setting', 'main .ant-table-row, main .ant-table-placeholder');
  }

  // ── Track ──

  async openTrack(month: string): Promise<void> {
    await this.go('/demand/track', '[data-testid=track-max]');
    await this.chooseMonth(month);
    await this.page.locator('[data-testid=track-days] .ant-table-row').first().waitFor();
  }

  /** Opens a day of the month's table (its date link): the day view with its windows. */
  async openDay(date: string): Promise<void> {
    await this.page.locator('[data-testid=track-days] .ant-table-row').filter({ hasText: date }).getByTestId('track-day-link').click();
    await this.page.locator('[data-testid=track-windows] .ant-table-row').first().waitFor();
    await this.idle();
  }

  // ── Reconcile ──

  async openReconcile(): Promise<void> {
    await this.go('/demand/reconcile', '[data-testid=reconcile-table] .ant-table-row');
  }

  reconcileRow(siteName: string, month: string): Locator {
    return this.page.locator('[data-testid=reconcile-table] .ant-table-row').filter({ hasText: siteName }).filter({ hasText: month });
  }

  /** Enters the bill's maximum demand of a station-month in its dialog and saves it. */
  async enterBill(siteName: string, month: string, kw: number): Promise<void> {
    await this.reconcileRow(siteName, month).getByTestId('bill-edit').click();
    const form = dialog(this.page);
    await form.getByTestId('bill-form').waitFor();
    await animationsSettled(this.page);
    await form.getByTestId('bill-kw').fill(String(kw));
    await this.page.getByTestId('bill-ok').click();
    await form.waitFor({ state: 'detached' });
    await this.idle();
  }

  // ── Analysis ──

  async openAnalysis(month: string): Promise<void> {
    await this.go('/demand/analysis', '[data-testid=analysis-measured]');
    await this.chooseMonth(month);
    await this.page.locator('[data-testid=analysis-measures] .ant-table-row').first().waitFor();
    await this.idle();
  }

  /** Opens the detail drawer of a measure by the window's local time. */
  async openMeasure(localTime: string): Promise<Locator> {
    await this.page.locator('[data-testid=analysis-measures] .ant-table-row').filter({ hasText: localTime }).getByTestId('measure-open').click();
    const drawer = this.page.locator('.ant-drawer-open [data-testid=measure-detail], .ant-drawer-open.ant-drawer-content, .ant-drawer-open .ant-drawer-content').first();
    await drawer.waitFor();
    await this.page.locator('.ant-drawer-open .ant-descriptions').first().waitFor();
    return this.page.locator('.ant-drawer-open');
  }

  // ── Strategy ──

  async openStrategy(): Promise<void> {
    await this.go('/operatecfg/strategy', '[data-testid=strategy-save]');
  }

  /** The windows editor of the strategy's first schedule: one row per window. */
  windowRows(): Locator {
    return this.page.locator('[data-testid=strategy-schedule]').first().locator('[data-testid=strategy-windows] .ant-table-row');
  }

  async setWindowEnd(i: number, end: string): Promise<void> {
    await chooseByKeyboard(this.page, this.windowRows().nth(i).getByTestId('window-end'), end);
  }

  async setWindowMode(i: number, label: string): Promise<void> {
    await this.windowRows().nth(i).getByTestId('window-mode').click();
    await this.page.locator(`${OPEN_DROPDOWN} .ant-select-item-option`).filter({ hasText: new RegExp(`^${label}$`) }).click();
    // Closed before the next row's list opens: one still leaving showed its options beside the next one's.
    await this.page.waitForFunction((sel) => !document.querySelector(sel), OPEN_DROPDOWN);
  }

  async setWindowPower(i: number, kw: number): Promise<void> {
    await this.windowRows().nth(i).getByTestId('window-power').fill(String(kw));
  }

  /** The rules' messages under the editor. */
  strategyIssues(): Promise<string[]> {
    return this.page.locator('[data-testid=strategy-issues] li').allTextContents();
  }

  syncState(): Locator {
    return this.page.getByTestId('strategy-sync-state');
  }

  // ── Storage control (a PCS or EMS page) ──

  storageCard(): Locator {
    return this.page.getByTestId('storage-control');
  }

  /** Fills the storage control's form: manual charge or discharge at a power for minutes, or another mode. */
  async storageForm(mode: 'auto' | 'manual' | 'standby', manual?: { power: number; minutes: number }): Promise<void> {
    // The test id is on the radio's hidden input: its label is what a person clicks.
    await this.page.locator('label.ant-radio-button-wrapper').filter({ has: this.page.getByTestId(`storage-mode-${mode}`) }).click();
    if (manual) {
      await this.page.getByTestId('storage-power').fill(String(manual.power));
      await this.page.getByTestId('storage-duration').fill(String(manual.minutes));
    }
    await this.page.getByTestId('storage-send').click();
  }

  /** The confirmation dialog of the storage control (with the secondary password when it is asked). */
  storageDialog(): Locator {
    return dialog(this.page);
  }

  async confirmStorage(password: string): Promise<void> {
    const d = this.storageDialog();
    await d.waitFor();
    await animationsSettled(this.page);
    const pwd = d.getByTestId('storage-password');
    if (await pwd.isVisible()) await pwd.fill(password);
    await this.page.locator('#storage-confirm').click();
  }
}
