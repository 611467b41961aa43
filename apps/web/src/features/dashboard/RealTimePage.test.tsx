import type { LiveSite } from '@ess/contract/comprehensive';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { curvesOption, zonedTime } from './charts.ts';
import { DASHBOARD_LIVE_MS } from './comprehensive.api.ts';
import { RealTimePage } from './RealTimePage.tsx';

const site = (storage: number, status: LiveSite['status']): LiveSite => ({
  id: 3, name: '洛杉矶光储充电站', code: 'LA01', companyId: 3, companyName: '华南储能有限公司', siteType: 'storagePvCharging', timeZone: 'America/Los_Angeles',
  address: null, status, devices: { total: 50, online: status === 'online' ? 50 : 20, offline: status === 'online' ? 0 : 30, disabled: 0, inactive: 0 },
  power: { grid: 100, storage, pv: 40, load: 68, piles: 22 }, soc: 55,
  subsystems: { storage: true, pv: true, pvCoupling: 'ac', charging: true, transformer: true, mainMeter: true },
  maintenance: null, ts: '2026-01-01T00:00:00.000Z',
});

const renderPage = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <MemoryRouter>
          <RealTimePage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );

describe('real-time monitoring', () => {
  afterEach(cleanup);

  it('shows each station’s live power and reads it again every few seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    useUserStore.setState({ authPaths: ['/synthesis/realTime', '/overview/station'] });
    let round = 0;
    const { calls } = mockFetch((call) => {
      if (call.url.includes('/comprehensive/site/list')) {
        round++;
        const s = round === 1 ? site(-50, 'online') : site(120, 'partial');
        return json(envelope({ records: [s], total: 1, current: 1, pageSize: 12 }));
      }
      return json(envelope(null));
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <App>
          <MemoryRouter initialEntries={['/synthesis/realTime']}>
            <RealTimePage />
          </MemoryRouter>
        </App>
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(10));
    const card = screen.getByTestId('live-site');
    expect(within(card).getByTestId('power-storage').textContent).toBe('储能 · 充电50 kW');
    expect(within(card).getByTestId('power-grid').textContent).toBe('电网 · 取电100 kW');
    expect(within(card).getByTestId('site-status').dataset.status).toBe('online');
    expect(within(card).getByRole('link').getAttribute('href')).toBe('/overview/station?siteId=3');

    await act(() => vi.advanceTimersByTimeAsync(DASHBOARD_LIVE_MS));
    expect(within(screen.getByTestId('live-site')).getByTestId('power-storage').textContent).toBe('储能 · 放电120 kW');
    expect(within(screen.getByTestId('live-site')).getByTestId('site-status').dataset.status).toBe('partial');
    expect(calls.filter((c) => c.url.includes('/comprehensive/site/list')).length).toBe(2);
    client.clear();
  }, 30_000);

  it('sums every part of the balance in the summary, charging piles included, so its numbers add up', async () => {
    useUserStore.setState({ authPaths: ['/synthesis/realTime'] });
    const other = { ...site(30, 'online'), id: 4, code: 'LA02', power: { grid: 10, storage: 30, pv: 0, load: 25, piles: 15 } };
    mockFetch(() => json(envelope({ records: [site(-50, 'online'), other], total: 2, current: 1, pageSize: 12 })));
    renderPage();
    await screen.findAllByTestId('live-site');
    const totals = screen.getByTestId('live-totals');
    const figure = (key: string) => Number(within(totals).getByTestId(`total-${key}`).querySelector('.ant-statistic-content-value')!.textContent);
    expect(figure('piles')).toBe(37);
    expect([figure('grid'), figure('storage'), figure('pv'), figure('load')]).toEqual([110, -20, 40, 93]);
    // grid + storage + PV = load + piles
    expect(figure('grid') + figure('storage') + figure('pv')).toBe(figure('load') + figure('piles'));
    cleanup();
  });

  it('links a station only for users who may open the single-station view', async () => {
    useUserStore.setState({ authPaths: ['/synthesis/realTime'] });
    mockFetch(() => json(envelope({ records: [site(0, 'online')], total: 1, current: 1, pageSize: 12 })));
    renderPage();
    expect(await screen.findByTestId('live-site')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe('day curves', () => {
  it('read in the station’s own hours, over its whole local day', () => {
    expect(zonedTime('America/Los_Angeles', Date.parse('2026-01-01T08:00:00Z'))).toBe('00:00');
    expect(zonedTime('Europe/Berlin', Date.parse('2025-03-30T01:00:00Z'))).toBe('03:00');
    const option = curvesOption(
      {
        siteId: 2, date: '2025-03-30', timeZone: 'Europe/Berlin', start: '2025-03-29T23:00:00.000Z', end: '2025-03-30T22:00:00.000Z', interval: 300_000,
        series: [{ key: 'grid', name: '电网功率', unit: 'kW', points: [[Date.parse('2025-03-29T23:00:00Z'), 50]] }],
      },
      (s) => s,
      '今日暂无数据',
    ) as { xAxis: { min: number; max: number; axisLabel: { formatter: (v: number) => string } }; graphic: unknown[] };
    expect(option.xAxis.min).toBe(Date.parse('2025-03-29T23:00:00Z'));
    expect(option.xAxis.max).toBe(Date.parse('2025-03-30T22:00:00Z'));
    expect(option.xAxis.axisLabel.formatter(Date.parse('2025-03-29T23:00:00Z'))).toBe('00:00');
    expect(option.graphic).toEqual([]);
  });
});
