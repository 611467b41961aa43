import {
  DEMAND_MARGIN_RANGE, demandEndpoints, type DemandAnalysisInfo, type DemandMonthInfo, type DemandReconcileRecord,
} from '@ess/contract/demand';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { AnalysisPage } from './AnalysisPage.tsx';
import { billBody, currentMonth, settingBody } from './demand.model.ts';
import { ReconcilePage } from './ReconcilePage.tsx';
import { SettingPage } from './SettingPage.tsx';
import { TrackPage } from './TrackPage.tsx';

pageTests();

const SITE = { id: 4, name: '上海站', code: 'SH01', timeZone: 'Asia/Shanghai', companyId: 1, companyName: '华东', currency: 'CNY', siteType: 'storage' };
const MONTH = currentMonth('Asia/Shanghai');

function serve(answers: Record<string, (c: Call) => unknown>) {
  return mockFetch((c) => {
    const p = path(c);
    if (p === '/configure/site/query/list') return json(envelope([SITE]));
    const a = answers[p];
    return a ? json(envelope(a(c))) : json(envelope({ records: [], total: 0, current: 1, pageSize: 20 }));
  });
}

function renderPage(page: ReactNode) {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>{page}</MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

const callsTo = (calls: Call[], p: string) => calls.filter((c) => path(c) === p);

describe('demand requests checked with the contract before they are sent', () => {
  it('sends a bill figure with its station and month, clears it with null, and refuses a negative one', () => {
    const row = { siteId: 4, month: '2026-10' };
    expect(billBody(row, { billMaxKw: 812.5, note: ' 10月电费单 ' })).toEqual({ ok: true, body: { siteId: 4, month: '2026-10', billMaxKw: 812.5, note: '10月电费单' } });
    expect(billBody(row, { billMaxKw: null })).toEqual({ ok: true, body: { siteId: 4, month: '2026-10', billMaxKw: null, note: null } });
    expect(billBody(row, { billMaxKw: -1 })).toEqual({ ok: false, issue: '账单需量不能为负数', field: 'billMaxKw' });
  });

  it('sends a standing target without a month, a month target with it, and refuses a margin above the target', () => {
    expect(settingBody({ siteId: 4, month: null, targetKw: 800, marginKw: 50 })).toEqual({
      ok: true, body: { siteId: 4, month: null, targetKw: 800, marginKw: 50, allowDischarge: false, alarmLevel: 2 },
    });
    expect(settingBody({ siteId: 4, month: '2026-12', targetKw: 800, marginKw: 50, allowDischarge: true, alarmLevel: 1 })).toMatchObject({ ok: true, body: { month: '2026-12', allowDischarge: true, alarmLevel: 1 } });
    expect(settingBody({ siteId: 4, targetKw: 800, marginKw: 900 })).toEqual({ ok: false, issue: DEMAND_MARGIN_RANGE, field: 'marginKw' });
    expect(settingBody({ siteId: 4, targetKw: 800, marginKw: 800 })).toEqual({ ok: false, issue: DEMAND_MARGIN_RANGE, field: 'marginKw' });
  });
});

// Hand-worked: the month's maximum window holds 215.25 kWh in 15 min: × 4 = 861 kW
// at 2026-xx-12 14:15; target 800 kW: headroom 800 − 861 = −61 kW (exceeded);
// demand charge 861 kW × 40 CNY/kW·month = 34,440.00 CNY.
const monthInfo = (): DemandMonthInfo => ({
  siteId: 4, siteName: '上海站', timeZone: 'Asia/Shanghai', currency: 'CNY',
  month: MONTH, maxDemandKw: 861, maxDemandTime: '2026-11-12T06:15:00.000Z', maxDemandLocalTime: `${MONTH}-12 14:15`, maxDemandEstimated: false,
  targetKw: 800, headroomKw: -61, exceeded: true, demandPrice: '40', demandCharge: '34440.00', windows: 1056, estimatedWindows: 3, preAlarms: 2, guardRequests: 1,
  target: { settingId: 1, month: null, targetKw: 800, marginKw: 50, preAlarmKw: 750, allowDischarge: true, alarmLevel: 2 },
  price: { kind: 'demand', price: '40', priceCycleId: 1, templateId: 1, templateName: '两部制' },
  days: [{
    date: `${MONTH}-12`, maxDemandKw: 861, maxDemandTime: '2026-11-12T06:15:00.000Z', maxDemandLocalTime: `${MONTH}-12 14:15`, maxDemandEstimated: false,
    targetKw: 800, headroomKw: -61, exceeded: true, windows: 96, estimatedWindows: 0, preAlarms: 2, guardRequests: 1,
  }],
  curve: [{ ts: '2026-11-12T06:15:00.000Z', demandKw: 861, estimated: false }],
  months: [],
});

describe('demand track page', () => {
  it('asks for the first station’s current month and shows its maximum, time, target, headroom and charge; a day opens the day', async () => {
    const srv = serve({
      [demandEndpoints.monthlyInfo.path]: monthInfo,
      [demandEndpoints.dailyInfo.path]: () => ({
        ...monthInfo(), date: `${MONTH}-12`, monthMaxDemandKw: 861, monthMaxDemandTime: null, live: null, curve: [],
        windows: [{
          id: 7, ts: '2026-11-12T06:15:00.000Z', localTime: '14:15', demandKw: 861, counterfactualKw: 905, estimated: false, targetKw: 800,
          preAlarmed: true, guardRequested: true, guardGrantedKw: 44, exceeded: true, outcome: 'exceeded',
        }],
      }),
    });
    renderPage(<TrackPage />);
    const max = await screen.findByTestId('track-max', {}, { timeout: 20_000 });
    await within(max).findByText('861 kW');
    expect(within(screen.getByTestId('track-headroom')).getByText('-61 kW')).toBeTruthy();
    expect(within(screen.getByTestId('track-charge')).getByText('34,440.00 CNY')).toBeTruthy();
    expect(within(screen.getByTestId('track-max-time')).getByText(`${MONTH}-12 14:15`)).toBeTruthy();
    expect(body(callsTo(srv.calls, demandEndpoints.monthlyInfo.path)[0]!)).toEqual({ siteId: 4, month: MONTH });
    // The day row opens that day: its windows with the guard's outcome.
    fireEvent.click(await within(screen.getByTestId('track-days')).findByText(`${MONTH}-12`));
    await waitFor(() => expect(callsTo(srv.calls, demandEndpoints.dailyInfo.path).length).toBe(1));
    expect(body(callsTo(srv.calls, demandEndpoints.dailyInfo.path)[0]!)).toEqual({ siteId: 4, date: `${MONTH}-12` });
    const windows = await screen.findByTestId('track-windows');
    const row = (await within(windows).findByText('14:15')).closest('tr')!;
    expect(within(row).getByText('905')).toBeTruthy();
    expect(within(row).getByText('超目标')).toBeTruthy();
  });

  it('says so when the month has no window', async () => {
    serve({ [demandEndpoints.monthlyInfo.path]: () => ({ ...monthInfo(), windows: 0, maxDemandKw: null, curve: [], days: [] }) });
    renderPage(<TrackPage />);
    await screen.findByText('暂无需量数据：需要站点关口表的电量数据', {}, { timeout: 20_000 });
  });

  it('shows the reason of a refused load', async () => {
    mockFetch((c) =>
      path(c) === '/configure/site/query/list' ? json(envelope([SITE])) : json(envelope(null, 'A0400', '该站点没有关口表')),
    );
    renderPage(<TrackPage />);
    const error = await screen.findByTestId('demand-error', {}, { timeout: 20_000 });
    expect(error.textContent).toContain('该站点没有关口表');
  });
});

// Hand-worked: without storage the maximum would have been 905 kW, with it 861 kW: 44 kW shaved,
// × 40 CNY/kW·month = 1,760.00 CNY saved.
const analysis = (): DemandAnalysisInfo => ({
  siteId: 4, siteName: '上海站', timeZone: 'Asia/Shanghai', currency: 'CNY', month: MONTH,
  measuredMaxKw: 861, measuredMaxTime: null, counterfactualMaxKw: 905, counterfactualMaxTime: null, shavedKw: 44, demandPrice: '40',
  measuredCharge: '34440.00', counterfactualCharge: '36200.00', saving: '1760.00', measures: 12, hasStorageMeter: true,
  price: { kind: 'demand', price: '40', priceCycleId: 1, templateId: 1, templateName: '两部制' },
  days: [], curve: [{ ts: '2026-11-12T06:15:00.000Z', demandKw: 861, estimated: false, counterfactualKw: 905, shavedKw: 44 }],
  months: [{
    month: MONTH, measuredMaxKw: 861, measuredMaxTime: null, counterfactualMaxKw: 905, counterfactualMaxTime: null, shavedKw: 44, demandPrice: '40',
    measuredCharge: '34440.00', counterfactualCharge: '36200.00', saving: '1760.00', measures: 12,
  }],
});
const measure = {
  id: 31, siteId: 4, siteName: '上海站', ts: '2026-11-12T06:15:00.000Z', windowEnd: '2026-11-12T06:30:00.000Z', localTime: `${MONTH}-12 14:15`,
  demandKw: 861, counterfactualKw: 905, shavedKw: 44, dischargeKwh: 11, chargeKwh: 0, isMonthMax: true, estimated: false, targetKw: 800,
  preAlarmed: true, guardRequested: true, guardGrantedKw: 44, exceeded: true, outcome: 'guarded',
};

describe('demand analysis page', () => {
  it('shows the month’s measured and counterfactual maxima and the saving, lists the measures and opens one', async () => {
    const srv = serve({
      [demandEndpoints.analysisInfo.path]: analysis,
      [demandEndpoints.measure.path]: () => ({ records: [measure], total: 1, current: 1, pageSize: 10 }),
      [demandEndpoints.measureOne.path]: () => ({
        ...measure, timeZone: 'Asia/Shanghai', currency: 'CNY', importKwh: 215.25, startRegisterKwh: 10_000, endRegisterKwh: 10_215.25, projectedKw: 880,
        preAlarmAt: '2026-11-12T06:20:00.000Z', alarmId: null, target: null, samples: [], around: [],
        guard: { commandId: 5, deviceCode: 'SH01-EMS-01', requestedAt: '2026-11-12T06:20:00.000Z', dischargeKw: 61, until: '2026-11-12T06:30:00.000Z', grantedKw: 44, status: 'success' },
      }),
    });
    renderPage(<AnalysisPage />);
    const saving = await screen.findByTestId('analysis-saving', {}, { timeout: 20_000 });
    await within(saving).findByText('1,760.00 CNY');
    expect(within(screen.getByTestId('analysis-shaved')).getByText('44 kW')).toBeTruthy();
    expect(within(screen.getByTestId('analysis-counterfactual')).getByText('905 kW')).toBeTruthy();
    expect(body(callsTo(srv.calls, demandEndpoints.analysisInfo.path)[0]!)).toEqual({ siteId: 4, month: MONTH });
    await waitFor(() => expect(callsTo(srv.calls, demandEndpoints.measure.path).length).toBeGreaterThan(0));
    expect(body(callsTo(srv.calls, demandEndpoints.measure.path)[0]!)).toEqual({ siteId: 4, month: MONTH, shavedOnly: true, current: 1, pageSize: 10 });
    fireEvent.click(await within(screen.getByTestId('analysis-measures')).findByTestId('measure-open'));
    const detail = await screen.findByTestId('measure-guard', {}, { timeout: 20_000 });
    expect(within(detail).getByText('SH01-EMS-01')).toBeTruthy();
    expect(body(callsTo(srv.calls, demandEndpoints.measureOne.path)[0]!)).toEqual({ id: 31 });
  });
});

const recon = (over: Partial<DemandReconcileRecord> = {}): DemandReconcileRecord => ({
  siteId: 4, siteName: '上海站', timeZone: 'Asia/Shanghai', currency: 'CNY', month: '2026-10', consoleMaxKw: 861, consoleMaxTime: null, meterMaxKw: 862, meterMaxTime: null,
  billMaxKw: 900, billNote: null, billEnteredBy: null, billEnteredAt: null, meterDiffKw: 1, billDiffKw: 39, meterFlagged: false, billFlagged: true,
  state: 'mismatched', demandPrice: '40', consoleCharge: '34440.00', billCharge: '36000.00', ...over,
});

describe('demand reconciliation page', () => {
  it('lists the three figures with the difference beyond tolerance flagged, and enters the bill’s figure', async () => {
    useUserStore.setState({ permissions: new Set([demandEndpoints.reconcilePage.path, demandEndpoints.reconcileEdit.path]) });
    const srv = serve({
      [demandEndpoints.reconcileHeader.path]: () => ({
        total: 2, matched: 0, mismatched: 1, incomplete: 1, tolerancePercent: 2, toleranceMinKw: 0.5, consoleCharge: null, billCharge: null, currency: null,
        charges: [{ currency: 'CNY', consoleCharge: '34440.00', billCharge: '36000.00' }, { currency: 'EUR', consoleCharge: '1200.00', billCharge: null }],
      }),
      [demandEndpoints.reconcilePage.path]: () => ({
        records: [recon(), recon({ siteId: 5, siteName: '柏林站', currency: 'EUR', month: '2026-09', billMaxKw: null, billDiffKw: null, billFlagged: false, state: 'incomplete', consoleCharge: '1200.00', billCharge: null })],
        total: 2, current: 1, pageSize: 20,
      }),
      [demandEndpoints.reconcileEdit.path]: () => null,
    });
    renderPage(<ReconcilePage />);
    const table = await screen.findByTestId('reconcile-table');
    const row = (await within(table).findByText('2026-10', {}, { timeout: 20_000 })).closest('tr')!;
    // Money per currency: one line of sums per currency in the header, each row in its station's currency; never 35640 of mixed money.
    const sums = screen.getAllByTestId('reconcile-charges');
    expect(sums.map((x) => x.getAttribute('data-currency'))).toEqual(['CNY', 'EUR']);
    expect(within(sums[0]!).getByText('34,440.00 CNY')).toBeTruthy();
    expect(within(sums[0]!).getByText('36,000.00 CNY')).toBeTruthy();
    expect(within(sums[1]!).getByText('1,200.00 EUR')).toBeTruthy();
    expect(screen.queryByText(/35,640/)).toBeNull();
    expect(within(row).getByText('34,440.00 CNY')).toBeTruthy();
    // 900 − 861 = 39 kW is beyond max(2 % of 861 = 17.22, 0.5) kW: flagged; 1 kW is within it.
    expect(within(row).getByTestId('bill-diff').textContent).toBe('+39 kW');
    expect(within(row).getByTestId('bill-diff').className).toContain('ant-tag');
    expect(within(row).getByTestId('meter-diff').className).not.toContain('ant-tag');
    expect(within(screen.getByTestId('reconcile-mismatched')).getByText('1')).toBeTruthy();
    expect(screen.getByText('容差：平台需量的 2% 或 0.5 kW，取较大者')).toBeTruthy();
    expect(body(callsTo(srv.calls, demandEndpoints.reconcilePage.path)[0]!)).toEqual({ current: 1, pageSize: 20 });
    fireEvent.click(within(row).getByTestId('bill-edit'));
    const input = await screen.findByTestId('bill-kw');
    fireEvent.change(input, { target: { value: '-5' } });
    fireEvent.click(screen.getByTestId('bill-ok'));
    await screen.findByText('账单需量不能为负数');
    expect(callsTo(srv.calls, demandEndpoints.reconcileEdit.path)).toEqual([]);
    fireEvent.change(input, { target: { value: '861.5' } });
    fireEvent.click(screen.getByTestId('bill-ok'));
    await waitFor(() => expect(callsTo(srv.calls, demandEndpoints.reconcileEdit.path).length).toBe(1));
    expect(body(callsTo(srv.calls, demandEndpoints.reconcileEdit.path)[0]!)).toEqual({ siteId: 4, month: '2026-10', billMaxKw: 861.5, note: null });
  });

  it('offers no entry without the edit permission', async () => {
    useUserStore.setState({ permissions: new Set([demandEndpoints.reconcilePage.path]) });
    serve({ [demandEndpoints.reconcilePage.path]: () => ({ records: [recon()], total: 1, current: 1, pageSize: 20 }) });
    renderPage(<ReconcilePage />);
    await within(await screen.findByTestId('reconcile-table')).findByText('2026-10', {}, { timeout: 20_000 });
    expect(screen.queryByTestId('bill-edit')).toBeNull();
  });
});

describe('demand setting page', () => {
  it('lists the targets, standing ones as such', async () => {
    useUserStore.setState({ permissions: new Set([demandEndpoints.settingPage.path, demandEndpoints.settingAdd.path]) });
    const srv = serve({
      [demandEndpoints.settingPage.path]: () => ({
        records: [{
          id: 1, siteId: 4, siteName: '上海站', companyId: 1, month: null, targetKw: 800, marginKw: 50, preAlarmKw: 750, allowDischarge: true, alarmLevel: 2,
          version: 1, current: true, replacedAt: null, createdBy: 'admin', createdAt: '2026-11-01T00:00:00.000Z',
        }],
        total: 1, current: 1, pageSize: 20,
      }),
    });
    renderPage(<SettingPage />);
    const cell = await screen.findByText('长期', {}, { timeout: 20_000 });
    const row = cell.closest('tr')!;
    expect(within(row).getByText('750')).toBeTruthy();
    expect(within(row).getByText('生效中')).toBeTruthy();
    expect(body(callsTo(srv.calls, demandEndpoints.settingPage.path)[0]!)).toMatchObject({ current: 1, pageSize: 20 });
  });
});

describe('demand setting form', () => {
  it('refuses a margin above the target with the contract’s message, then adds a standing target', async () => {
    useUserStore.setState({ permissions: new Set([demandEndpoints.settingPage.path, demandEndpoints.settingAdd.path]) });
    const srv = serve({ [demandEndpoints.settingAdd.path]: () => ({ id: 2 }) });
    renderPage(<SettingPage />);
    fireEvent.click(await screen.findByRole('button', { name: /新\s*增/ }, { timeout: 20_000 }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByLabelText('站点'));
    fireEvent.click(await screen.findByText('上海站 (SH01)'));
    fireEvent.change(within(dialog).getByLabelText('目标需量 (kW)'), { target: { value: '800' } });
    fireEvent.change(within(dialog).getByLabelText('预警裕量 (kW)'), { target: { value: '900' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText(DEMAND_MARGIN_RANGE)).toBeTruthy();
    expect(callsTo(srv.calls, demandEndpoints.settingAdd.path)).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('预警裕量 (kW)'), { target: { value: '50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(callsTo(srv.calls, demandEndpoints.settingAdd.path).length).toBe(1));
    expect(body(callsTo(srv.calls, demandEndpoints.settingAdd.path)[0]!)).toEqual({ siteId: 4, month: null, targetKw: 800, marginKw: 50, allowDischarge: false, alarmLevel: 2 });
  });
});
