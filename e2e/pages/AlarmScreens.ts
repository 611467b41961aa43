import type { Locator, Page } from 'playwright-core';
import { ResourceScreen } from './ResourceScreen.ts';

/** /alarm/alarmKanban: counts by level, the open alarms, charts; live. */
export class AlarmKanbanScreen {
  constructor(readonly page: Page, private readonly base: string) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.base}/alarm/alarmKanban`);
    await this.page.locator('[data-testid=alarm-kanban]').waitFor();
    await this.page.locator('[data-testid=active-level-1] .ant-statistic-content-value').waitFor();
  }

  /** The number of alarms in progress of a level, as the card shows it. */
  async active(level: number): Promise<number> {
    return Number(await this.page.locator(`[data-testid=active-level-${level}] .ant-statistic-content-value`).innerText());
  }

  async waitForActive(level: number, n: number, timeout = 20_000): Promise<void> {
    await this.page.waitForFunction(
      ([l, want]) => document.querySelector(`[data-testid=active-level-${l}] .ant-statistic-content-value`)?.textContent === String(want),
      [level, n] as const,
      { timeout },
    );
  }

  /** The row of an open alarm by its number. */
  openAlarm(no: string): Locator {
    return this.page.locator(`[data-testid=open-alarms] tr[data-alarm-no="${no}"]`);
  }

  /** The popup of a newly opened alarm. */
  popup(text: string): Locator {
    return this.page.locator('.alarm-popup').filter({ hasText: text });
  }
}

/** /alarm/monitor: the alarm list with filters, detail, export and shields. */
export class AlarmMonitorScreen extends ResourceScreen {
  constructor(page: Page, base: string) {
    super(page, base, '/alarm/monitor');
  }

  async waitForStatus(no: string, status: '进行中' | '已结束', timeout = 20_000): Promise<void> {
    await this.row(no).getByText(status, { exact: true }).waitFor({ timeout });
  }

  /** Opens the shield form of the row's source and writes a remark; the validity stays the default (from now, 2 hours). */
  async openShield(no: string, remark: string): Promise<void> {
    await this.row(no).getByTestId('alarm-shield-open').click();
    await this.shieldForm().getByLabel('备注').fill(remark);
  }

  shieldForm(): Locator {
    return this.page.locator('.ant-modal-wrap:visible .ant-modal-content');
  }

  /** Confirms the open shield form; the row then shows the shield's validity. */
  async confirmShield(no: string): Promise<void> {
    await this.shieldForm().getByRole('button', { name: /屏\s*蔽/ }).click();
    await this.row(no).getByTestId('alarm-shield').waitFor();
  }

  async cancelShield(no: string): Promise<void> {
    await this.row(no).getByTestId('alarm-unshield').click();
    await this.page.locator('.ant-popover:visible').getByRole('button', { name: '取消屏蔽' }).click();
    await this.row(no).getByTestId('alarm-shield-open').waitFor();
  }
}
