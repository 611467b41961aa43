import { STRATEGY_TEXTS, strategyEndpoints, type StrategyLimits, type StrategyRecord, type StrategyView } from '@ess/contract/strategy';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { draftIssues, draftOf, issueMessage, saveBody, withNewWindow } from './strategy.model.ts';

// The simulate panel's chart loads ECharts on first draw; loaded here first, so no import is still
// on its way when the file ends (one arrived after the environment was torn down in a full run).
beforeAll(async () => {
  await import('../../components/chart/echarts-setup.ts');
});
import { StrategyPage } from './StrategyPage.tsx';

pageTests();

/** Source texts with their placeholders filled, as the pack does for zh-CN. */
const t = (s: string, ...args: unknown[]) => s.replace(/\$(\d+)/g, (_, n: string) => String(args[Number(n) - 1]));

const SITE = { id: 4, name: '上海站', code: 'SH01', timeZone: 'Asia/Shanghai', companyId: 1, companyName: '华东', currency: 'CNY', siteType: 'storage' };
const LIMITS: StrategyLimits = { pcsRatedKw: 500, pcsCount: 2, depthOfDischarge: 90, transformerProtectionPower: 800, installedCapacity: 1000 };

const saved = (): StrategyRecord => ({
  id: 12, siteId: 4, socMin: 10, socMax: 100, transformerProtectionKw: 800, antiBackflow: true, demandTargetKw: 750, updatedByName: 'admin',
  createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-02T00:00:00.000Z',
  schedules: [{
    name: '全年', priority: 1, months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], weekdays: [1, 2, 3, 4, 5, 6, 7],
    windows: [
      { start: '00:00', end: '08:00', mode: 'charge', powerKw: 250, targetSoc: 95 },
      { start: '08:00', end: '10:00', mode: 'idle', powerKw: 0, targetSoc: null },
      { start: '10:00', end: '12:00', mode: 'discharge', powerKw: 400, targetSoc: 20 },
      { start: '12:00', end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null },
    ],
  }],
  sync: {
    strategyId: 12, state: 'pending', hash: '0123456789abcdef', syncedHash: '0123456789abcdef', appliedHash: null, reportedHash: null,
    deviceCode: 'SH01-EMS-01', deviceOnline: false, sentAt: '2026-11-02T00:00:05.000Z', appliedAt: null, reportedAt: null, attempts: 1, lastError: null,
  },
});
const view = (strategy: StrategyRecord | null): StrategyView => ({ siteId: 4, siteName: '上海站', siteCode: 'SH01', timeZone: 'Asia/Shanghai', limits: LIMITS, strategy });

function serve(strategy: StrategyRecord | null) {
  return mockFetch((c: Call) => {
    const p = path(c);
    if (p === '/configure/site/query/list') return json(envelope([SITE]));
    if (p === strategyEndpoints.unique.path) return json(envelope(view(strategy)));
    if (p === strategyEndpoints.add.path) return json(envelope({ id: 12 }));
    if (p === strategyEndpoints.edit.path) return json(envelope(null));
    if (p === strategyEndpoints.synchronization.path) return json(envelope({ ...saved().sync, state: 'applied', appliedHash: '0123456789abcdef', deviceOnline: true }));
    return json(envelope([]));
  });
}

const renderPage = () =>
  render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <StrategyPage />
        </MemoryRouter>
      </QueryClientProvider>
    </App>,
  );

describe('strategy drafts', () => {
  it('starts a station without a strategy idle all day, within its depth of discharge, at its transformer protection power', () => {
    const d = draftOf(null, LIMITS);
    // DoD 90 %: SOC 10–100 %.
    expect(d).toMatchObject({ socMin: 10, socMax: 100, transformerProtectionKw: 800, antiBackflow: true, demandTargetKw: null });
    expect(d.schedules[0]!.windows).toEqual([{ start: '00:00', end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null }]);
    expect(draftIssues(d, LIMITS)).toEqual([]);
    expect(saveBody(4, null, d)).toMatchObject({ ok: true, kind: 'add', body: { siteId: 4, socMin: 10 } });
    expect(saveBody(4, { id: 12 }, d)).toMatchObject({ ok: true, kind: 'edit', body: { id: 12 } });
  });

  it('adds a window after the last one, splitting a window that reaches 24:00', () => {
    expect(withNewWindow([{ start: '00:00', end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null }])).toEqual([
      { start: '00:00', end: '12:00', mode: 'idle', powerKw: 0, targetSoc: null },
      { start: '12:00', end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null },
    ]);
    expect(withNewWindow([{ start: '00:00', end: '06:00', mode: 'charge', powerKw: 100, targetSoc: null }]).at(-1)).toEqual({ start: '06:00', end: '24:00', mode: 'idle', powerKw: 0, targetSoc: null });
  });

  it('names the window of each issue, with the contract’s labels through the pack', () => {
    const d = draftOf(saved(), LIMITS);
    d.schedules[0]!.windows[2] = { start: '09:00', end: '12:00', mode: 'discharge', powerKw: 600, targetSoc: 20 };
    const messages = draftIssues(d, LIMITS).map((i) => issueMessage(i, t));
    expect(messages).toEqual([
      '方案「全年」时段3（09:00–12:00）功率 600 kW 超过PCS额定功率 500 kW',
      '方案「全年」时段3（09:00–12:00）与时段2（08:00–10:00）重叠',
    ]);
    const pack = new Map([['周六', 'Sat'], ['周日', 'Sun'], ['、', ', ']]);
    const en = (s: string, ...a: unknown[]) => t(pack.get(s) ?? s, ...a);
    expect(issueMessage({ text: STRATEGY_TEXTS.uncovered, args: [3, '周六、周日'] }, en)).toBe('3月的Sat, Sun没有适用的方案');
  });
});

describe('strategy page', () => {
  it('shows the saved strategy with its windows as a bar and its EMS state, and synchronises', async () => {
    useUserStore.setState({ permissions: new Set([strategyEndpoints.unique.path, strategyEndpoints.edit.path, strategyEndpoints.synchronization.path]) });
    const srv = serve(saved());
    renderPage();
    const state = await screen.findByTestId('strategy-sync-state', {}, { timeout: 20_000 });
    expect(state.textContent).toBe('同步中');
    expect(body(srv.calls.find((c) => path(c) === strategyEndpoints.unique.path)!)).toEqual({ siteId: 4 });
    const bar = screen.getByTestId('strategy-bar');
    expect([...bar.querySelectorAll('[data-mode]')].map((e) => e.getAttribute('aria-label'))).toEqual([
      '00:00–08:00 充电 250 kW → SOC 95%', '08:00–10:00 待机', '10:00–12:00 放电 400 kW → SOC 20%', '12:00–24:00 待机',
    ]);
    fireEvent.click(screen.getByTestId('strategy-synchronise'));
    await waitFor(() => expect(screen.getByTestId('strategy-sync-state').textContent).toBe('已生效'));
    const sync = srv.calls.find((c) => path(c) === strategyEndpoints.synchronization.path)!;
    expect(sync.init.method).toBe('GET');
    expect(new URL(sync.url, 'http://console').searchParams.get('id')).toBe('12');
  });

  it('refuses to save a set-point above the PCS rating, naming the window, and saves the edit once they are fixed', async () => {
    useUserStore.setState({ permissions: new Set([strategyEndpoints.unique.path, strategyEndpoints.edit.path]) });
    const srv = serve(saved());
    renderPage();
    const windows = await screen.findByTestId('strategy-windows', {}, { timeout: 20_000 });
    // Window 3 (10:00–12:00) at 600 kW: above the two PCS' 500 kW rating.
    const power = within(windows).getAllByTestId('window-power');
    fireEvent.change(power[2]!, { target: { value: '600' } });
    fireEvent.click(screen.getByTestId('strategy-save'));
    const issues = await screen.findByTestId('strategy-issues');
    expect(issues.textContent).toContain('方案「全年」时段3（10:00–12:00）功率 600 kW 超过PCS额定功率 500 kW');
    expect(srv.calls.some((c) => path(c) === strategyEndpoints.edit.path)).toBe(false);
    fireEvent.change(power[2]!, { target: { value: '450' } });
    await waitFor(() => expect(screen.queryByTestId('strategy-issues')).toBeNull());
    fireEvent.click(screen.getByTestId('strategy-save'));
    await waitFor(() => expect(srv.calls.some((c) => path(c) === strategyEndpoints.edit.path)).toBe(true));
    const sent = body(srv.calls.find((c) => path(c) === strategyEndpoints.edit.path)!);
    expect(sent).toMatchObject({ id: 12, socMin: 10, socMax: 100, antiBackflow: true, demandTargetKw: 750 });
    expect((sent.schedules as { windows: { powerKw: number }[] }[])[0]!.windows.map((w) => w.powerKw)).toEqual([250, 0, 450, 0]);
  });

  it('offers a new strategy with the defaults to a station without one, and adds it', async () => {
    useUserStore.setState({ permissions: new Set([strategyEndpoints.unique.path, strategyEndpoints.add.path]) });
    const srv = serve(null);
    renderPage();
    await screen.findByTestId('strategy-new', {}, { timeout: 20_000 });
    expect(screen.queryByTestId('strategy-sync')).toBeNull();
    fireEvent.click(screen.getByTestId('strategy-save'));
    await waitFor(() => expect(srv.calls.some((c) => path(c) === strategyEndpoints.add.path)).toBe(true));
    expect(body(srv.calls.find((c) => path(c) === strategyEndpoints.add.path)!)).toMatchObject({ siteId: 4, socMin: 10, socMax: 100, transformerProtectionKw: 800 });
  });
});

describe('strategy simulation', () => {
  it('runs the strategy being edited against a past day and compares it with what was measured', async () => {
    useUserStore.setState({ permissions: new Set([strategyEndpoints.unique.path, strategyEndpoints.edit.path, strategyEndpoints.simulate.path]) });
    const summary = (revenue: string, dischargeKwh: number) => ({
      revenue, chargeKwh: 500, dischargeKwh, cycles: 0.45, peakDemandKw: 620, transformerMinutes: 0, transformerWorstKw: null, backflowMinutes: 0, backflowKwh: 0,
    });
    const srv = mockFetch((c: Call) => {
      const p = path(c);
      if (p === '/configure/site/query/list') return json(envelope([SITE]));
      if (p === strategyEndpoints.unique.path) return json(envelope(view(saved())));
      if (p === strategyEndpoints.simulate.path) {
        return json(envelope({
          siteId: 4, date: '2026-11-28', timeZone: 'Asia/Shanghai', currency: 'CNY', stepMinutes: 15, capacityKwh: 900,
          steps: [{ time: '00:00', loadKw: 300, pvKw: 0, price: 0.3, batteryKw: -250, gridKw: 550, soc: 40, actualBatteryKw: -200, actualGridKw: 500, actualSoc: 41 }],
          expected: summary('412.50', 450), actual: summary('380.00', 420),
        }));
      }
      return json(envelope([]));
    });
    renderPage();
    await screen.findByTestId('strategy-simulate', {}, { timeout: 20_000 });
    // Edit before simulating: the unsaved set-point is what is simulated.
    fireEvent.change(within(screen.getByTestId('strategy-windows')).getAllByTestId('window-power')[2]!, { target: { value: '450' } });
    fireEvent.click(screen.getByTestId('simulate-run'));
    const table = await screen.findByTestId('simulate-summary', {}, { timeout: 20_000 });
    const revenue = within(table).getByText('储能收益 (CNY)').closest('tr')!;
    expect(within(revenue).getByText('412.50')).toBeTruthy();
    expect(within(revenue).getByText('380.00')).toBeTruthy();
    const sent = body(srv.calls.find((c) => path(c) === strategyEndpoints.simulate.path)!);
    expect(sent).toMatchObject({ siteId: 4, strategy: { socMin: 10, socMax: 100, antiBackflow: true } });
    expect(sent.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((sent.strategy as { schedules: { windows: { powerKw: number }[] }[] }).schedules[0]!.windows[2]!.powerKw).toBe(450);
    expect(srv.calls.some((c) => path(c) === strategyEndpoints.edit.path)).toBe(false);
  });
});
