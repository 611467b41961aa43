import {
  BILLING_DAY_RANGE, PARTIES_DIFFER, SHARE_RATIO_RANGE, STATEMENT_STATES, statementEndpoints, statementPage,
  type StatementDetail, type StatementRecord, type StatementState, type WhatIfResult,
} from '@ess/contract/statement';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { filtersToBody } from '../../components/crud/index.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { lineName, signed, statementActions } from './statement.model.ts';
import { statementResource } from './statement.resource.tsx';
import { StatementDetailPage, WhatIfView } from './StatementDetailPage.tsx';
import { StatementPage } from './StatementPage.tsx';
import { settingsBody, settingsInitial } from './StatementSettings.tsx';

/** Source texts with their placeholders filled, as the pack does for zh-CN. */
const t = (s: string, ...args: unknown[]) => s.replace(/\$(\d)/g, (_, n: string) => String(args[Number(n) - 1]));

pageTests();

const ALL = { edit: true, update: true };

describe('statement lifecycle actions by state, role and permission', () => {
  it('offers the investor confirmation of a draft, the power user the next one, a lock once both confirmed, and none on a locked statement', () => {
    const of = (roles: string[], can = ALL) => Object.fromEntries(STATEMENT_STATES.map((s: StatementState) => [s, statementActions({ state: s, roles }, can)]));
    expect(of(['investor'])).toEqual({
      draft: ['recompute', 'confirmInvestor'], investor_confirmed: ['dispute'], power_user_confirmed: ['lock', 'dispute'], locked: [],
    });
    expect(of(['powerUser'])).toEqual({
      draft: ['recompute'], investor_confirmed: ['confirmPowerUser', 'dispute'], power_user_confirmed: ['lock', 'dispute'], locked: [],
    });
    // Neither party (an operator): recompute a draft, lock a confirmed one; no confirmation, no dispute.
    expect(of([])).toEqual({ draft: ['recompute'], investor_confirmed: [], power_user_confirmed: ['lock'], locked: [] });
    // Without the edit permission only the recompute stays; without update, not even that.
    expect(statementActions({ state: 'draft', roles: ['investor'] }, { edit: false, update: true })).toEqual(['recompute']);
    expect(statementActions({ state: 'draft', roles: ['investor'] }, { edit: false, update: false })).toEqual([]);
  });

  it('names lines by category and register, and writes differences with their sign', () => {
    expect(lineName('storageDischarge', 'peak', t)).toBe('储能放电 · 峰');
    expect(lineName('pileService', null, t)).toBe('充电桩服务费');
    expect(signed('12.30')).toBe('+12.30');
    expect(signed('-4.00')).toBe('-4.00');
    expect(signed('0.00')).toBe('0.00');
  });

  it('sends station, state and the month range of the list as the contract asks', () => {
    const sent = filtersToBody(statementResource.filters, { siteId: 4, state: 'draft', months: [dayjs('2026-09-01'), dayjs('2026-10-15')] });
    expect(sent).toEqual({ siteId: 4, state: 'draft', monthFrom: '2026-09', monthTo: '2026-10' });
    expect(statementPage.safeParse({ current: 1, pageSize: 20, ...sent }).success).toBe(true);
  });
});

describe('site statement settings', () => {
  const values = {
    investorName: '华东储能投资有限公司', investorUserId: 5, powerUserName: '上海某工厂', powerUserUserId: 6, investorShareRatio: 70, billingDay: 1,
    reconciliationContact: '王会计', reconciliationPhone: '13800000000', includePv: true, includePiles: false,
  };

  it('starts from the station fields when there are none, and adds; edits saved ones', () => {
    expect(settingsInitial(null, { investor: '华东储能', powerUser: '工厂', investorShareRatio: 65, reconciliationContact: null, reconciliationPhone: null })).toMatchObject({
      investorName: '华东储能', powerUserName: '工厂', investorShareRatio: 65, billingDay: 1, includePv: false, includePiles: false,
    });
    expect(settingsBody(4, null, values)).toEqual({ ok: true, kind: 'add', body: { siteId: 4, ...values } });
    expect(settingsBody(4, { id: 9 }, values)).toEqual({ ok: true, kind: 'edit', body: { id: 9, ...values } });
  });

  it('refuses a share ratio of 101, a billing day of 29 and one user confirming for both parties, before sending', () => {
    expect(settingsBody(4, null, { ...values, investorShareRatio: 101 })).toEqual({ ok: false, issue: SHARE_RATIO_RANGE, field: 'investorShareRatio' });
    expect(settingsBody(4, null, { ...values, billingDay: 29 })).toEqual({ ok: false, issue: BILLING_DAY_RANGE, field: 'billingDay' });
    expect(settingsBody(4, null, { ...values, powerUserUserId: 5 })).toEqual({ ok: false, issue: PARTIES_DIFFER, field: 'powerUserUserId' });
  });
});

const record = (id: number, state: StatementState, roles: string[]): StatementRecord => ({
  id, code: `JS-SH01-2026${String(id).padStart(2, '0')}`, siteId: 4, siteName: '上海站', companyId: 1, companyName: '华东', month: '2026-10',
  periodStart: '2026-10-01', periodEnd: '2026-10-31', currency: 'CNY', state, investorName: '华东储能', powerUserName: '工厂', investorShareRatio: 70,
  chargeEnergy: '1000.000', dischargeEnergy: '900.000', pvSelfUseEnergy: '0.000', pvExportEnergy: '0.000', pileEnergy: '0.000',
  storageRevenue: '612.40', pvRevenue: '0.00', pileRevenue: '0.00', totalRevenue: '612.40', investorAmount: '428.68', powerUserAmount: '183.72',
  flaggedLines: id === 1 ? 2 : 0, note: null, roles, computedAt: '2026-11-01T01:00:00Z', createdAt: '2026-11-01T01:00:00Z', updatedAt: '2026-11-01T01:00:00Z',
});

function renderAt(ui: React.ReactNode, at = '/') {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route path="*" element={ui} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

describe('statement list', () => {
  it('shows each row only the actions its state and the caller allow, and confirms through edit', async () => {
    const rows = [record(1, 'draft', ['investor']), record(2, 'investor_confirmed', ['investor']), record(3, 'locked', ['investor'])];
    const srv = mockFetch((c) => {
      const p = path(c);
      if (p === statementEndpoints.page.path) return json(envelope({ records: rows, total: 3, current: 1, pageSize: 20 }));
      if (p === statementEndpoints.edit.path) return json(envelope(true));
      return json(envelope([]));
    });
    useUserStore.setState({ permissions: new Set([statementEndpoints.page.path, statementEndpoints.edit.path, statementEndpoints.update.path, statementEndpoints.download.path]) });
    renderAt(<StatementPage />);
    const rowOf = async (id: number) => (await screen.findByText(record(id, 'draft', []).code, {}, { timeout: 25_000 })).closest('tr')!;
    const draft = await rowOf(1);
    expect(within(draft).getByTestId('statement-confirmInvestor')).toBeTruthy();
    expect(within(draft).getByTestId('statement-recompute')).toBeTruthy();
    expect(within(draft).getByText('2行非实测')).toBeTruthy();
    const confirmed = await rowOf(2);
    expect(within(confirmed).queryByTestId('statement-confirmInvestor')).toBeNull();
    expect(within(confirmed).queryByTestId('statement-confirmPowerUser')).toBeNull();
    expect(within(confirmed).getByTestId('statement-dispute')).toBeTruthy();
    const locked = await rowOf(3);
    expect(within(locked).queryByTestId(/statement-(recompute|confirm|lock|dispute)/)).toBeNull();
    expect(within(locked).getByTestId('statement-download')).toBeTruthy();
    // No add or settings without their permissions.
    expect(screen.queryByTestId('statement-add')).toBeNull();
    expect(screen.queryByTestId('statement-settings')).toBeNull();

    fireEvent.click(within(draft).getByTestId('statement-confirmInvestor'));
    fireEvent.click(await screen.findByTestId('statement-action-ok'));
    await waitFor(() => expect(srv.calls.some((c) => path(c) === statementEndpoints.edit.path)).toBe(true));
    expect(body(srv.calls.find((c) => path(c) === statementEndpoints.edit.path)!)).toEqual({ id: 1, action: 'confirmInvestor', note: null });
  });

  it('a dispute needs its reason before anything is sent', async () => {
    const rows = [record(2, 'investor_confirmed', ['powerUser'])];
    const srv = mockFetch((c) => {
      const p = path(c);
      if (p === statementEndpoints.page.path) return json(envelope({ records: rows, total: 1, current: 1, pageSize: 20 }));
      return json(envelope(true));
    });
    useUserStore.setState({ permissions: new Set([statementEndpoints.page.path, statementEndpoints.edit.path]) });
    renderAt(<StatementPage />);
    const tr = (await screen.findByText(rows[0]!.code, {}, { timeout: 25_000 })).closest('tr')!;
    expect(within(tr).getByTestId('statement-confirmPowerUser')).toBeTruthy();
    fireEvent.click(within(tr).getByTestId('statement-dispute'));
    fireEvent.click(await screen.findByTestId('statement-action-ok'));
    expect(await screen.findByText('退回结算单须填写原因')).toBeTruthy();
    expect(srv.calls.some((c) => path(c) === statementEndpoints.edit.path)).toBe(false);
    fireEvent.change(screen.getByTestId('statement-note'), { target: { value: ' 谷段电量与我方表计不符 ' } });
    fireEvent.click(screen.getByTestId('statement-action-ok'));
    await waitFor(() => expect(srv.calls.some((c) => path(c) === statementEndpoints.edit.path)).toBe(true));
    expect(body(srv.calls.find((c) => path(c) === statementEndpoints.edit.path)!)).toEqual({ id: 2, action: 'dispute', note: '谷段电量与我方表计不符' });
  });
});

const whatIf: WhatIfResult = {
  templateId: 3, templateName: '2027 工商业分时', totalRevenue: '650.40', investorAmount: '455.28', powerUserAmount: '195.12', difference: '38.00',
  lines: [],
  byRegister: [
    { category: 'storageDischarge', period: 'peak', difference: '45.00' },
    { category: 'storageCharge', period: 'valley', difference: '-7.00' },
  ],
};

describe('statement detail', () => {
  it('shows totals, lines with prices and quality, the journal, and the lifecycle the caller may take', async () => {
    const detail: StatementDetail = {
      ...record(7, 'power_user_confirmed', ['powerUser']),
      reconciliationContact: '王会计', reconciliationPhone: '13800000000', whatIf: null,
      lines: [
        {
          category: 'storageDischarge', period: 'peak', meterId: 12, meterName: '储能表', fromDate: '2026-10-01', toDate: '2026-10-14', energy: '420.000', price: '1.1000',
          amount: '462.00', priceSource: { kind: 'priceCycle', id: 1, name: '工商业分时 2026', templateId: 1, sitePriceId: 2 }, quality: ['meter_replaced'],
        },
      ],
      journal: [
        { id: 1, statementId: 7, action: 'generate', fromState: '', toState: 'draft', note: null, userId: null, username: '系统', difference: null, createdAt: '2026-11-01T01:00:00Z' },
        { id: 2, statementId: 7, action: 'recompute', fromState: 'draft', toState: 'draft', note: null, userId: 3, username: '运营甲', difference: '-1.20', createdAt: '2026-11-01T02:00:00Z' },
        { id: 3, statementId: 7, action: 'confirmInvestor', fromState: 'draft', toState: 'investor_confirmed', note: '无异议', userId: 5, username: '投资方乙', difference: null, createdAt: '2026-11-02T02:00:00Z' },
      ],
    };
    mockFetch((c) => (path(c) === statementEndpoints.one.path ? json(envelope(detail)) : json(envelope([]))));
    useUserStore.setState({ permissions: new Set([statementEndpoints.one.path, statementEndpoints.edit.path, statementEndpoints.download.path]) });
    renderAt(<StatementDetailPage />, '/operation/statementDetail?id=7');
    expect((await screen.findByTestId('total-revenue', {}, { timeout: 25_000 })).textContent).toBe('612.40');
    expect(screen.getByTestId('investor-amount').textContent).toBe('428.68');
    expect(screen.getByTestId('power-user-amount').textContent).toBe('183.72');
    const line = within(screen.getByTestId('statement-lines')).getByText('储能放电 · 峰').closest('tr')!;
    expect([...line.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['储能放电 · 峰', '储能表', '2026-10-01 ~ 2026-10-14', '420.000', '1.1000', '462.00', '工商业分时 2026', '换表']);
    const journal = screen.getByTestId('statement-journal');
    expect(within(journal).getByText('总收益变化 -1.20', { exact: false })).toBeTruthy();
    expect(within(journal).getByText('草稿 → 投资方已确认')).toBeTruthy();
    // Both confirmed: the power user may lock or send back; nothing to confirm any more.
    const actions = screen.getByTestId('statement-actions');
    expect(within(actions).getByTestId('statement-lock')).toBeTruthy();
    expect(within(actions).getByTestId('statement-dispute')).toBeTruthy();
    expect(within(actions).queryByTestId('statement-confirmPowerUser')).toBeNull();
    // No template list permission: no what-if panel.
    expect(screen.queryByTestId('whatif-panel')).toBeNull();
  });

  it('renders the what-if: the difference per register and the totals side by side', () => {
    render(<WhatIfView result={whatIf} statement={{ totalRevenue: '612.40', investorAmount: '428.68', powerUserAmount: '183.72', currency: 'CNY' }} t={t} />);
    expect(screen.getByTestId('whatif-difference').textContent).toBe('+38.00 CNY');
    const regs = screen.getByTestId('whatif-registers');
    expect(within(within(regs).getByText('储能放电 · 峰').closest('tr')!).getByText('+45.00')).toBeTruthy();
    expect(within(within(regs).getByText('储能充电 · 谷').closest('tr')!).getByText('-7.00')).toBeTruthy();
    const total = screen.getByText('总收益').closest('tr')!;
    expect([...total.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['总收益', '612.40', '650.40']);
  });
});
