import type { AlarmKanbanSite } from '@ess/contract/alarm';
import type { LiveSite } from '@ess/contract/comprehensive';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { liveEvents } from '../../platform/live-events.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { KanbanPage } from './KanbanPage.tsx';

const site = (id: number, code: string, over: Partial<LiveSite> = {}): LiveSite => ({
  id, name: `站点${code}`, code, companyId: 1, companyName: '储能集团', siteType: 'storage', timeZone: 'Asia/Shanghai', address: null,
  status: 'online', devices: { total: 40, online: 40, offline: 0, disabled: 0, inactive: 0 },
  power: { grid: 10, storage: -50, pv: null, load: 60, piles: null }, soc: 74,
  subsystems: { storage: true, pv: false, pvCoupling: null, charging: false, transformer: false, mainMeter: true },
  maintenance: null, ts: '2026-01-01T00:00:00.000Z', ...over,
});
const levels = (active: number[]) => active.map((n, i) => ({ level: (i + 1) as 1, active: n, raised: n, ended: 0 }));
const alarms = (sh: number[]): AlarmKanbanSite => ({
  start: '', end: '', total: levels(sh),
  sites: [{ siteId: 1, siteName: '', siteCode: 'SH01', levels: levels(sh) }, { siteId: 2, siteName: '', siteCode: 'BE01', levels: levels([0, 0, 0, 0, 0]) }],
});

describe('operations board', () => {
  afterEach(cleanup);

  it('puts stations in lanes with units, and moves one to the alarm lane on RefreshAlarmKanban', async () => {
    useUserStore.setState({ authPaths: ['/overview/kanban', '/overview/station'] });
    let open = [0, 0, 0, 0, 0];
    const maintenance = { since: '2026-01-01T00:00:00.000Z', note: '更换空调', userId: 1, username: 'admin' };
    mockFetch((call) => {
      if (call.url.includes('/comprehensive/site/list')) {
        return json(envelope({ records: [site(1, 'SH01'), site(2, 'BE01', { maintenance }), site(3, 'LA01', { status: 'noData', soc: null, power: { grid: null, storage: null, pv: null, load: null, piles: null } })], total: 3, current: 1, pageSize: 500 }));
      }
      if (call.url.includes('/alarm/kanban/site')) return json(envelope(alarms(open)));
      return json(envelope(null));
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <App>
          <MemoryRouter>
            <KanbanPage />
          </MemoryRouter>
        </App>
      </QueryClientProvider>,
    );
    const tile = async (code: string) => (await screen.findAllByTestId('kanban-station')).find((e) => e.dataset.code === code)!;
    expect((await tile('SH01')).dataset.lane).toBe('normal');
    expect((await tile('BE01')).dataset.lane).toBe('maintenance');
    expect((await tile('LA01')).dataset.lane).toBe('offline');
    const sh = await tile('SH01');
    expect(within(sh).getByTestId('tile-storage').textContent).toBe('充电 50 kW');
    expect(within(sh).getByTestId('tile-load').textContent).toBe('60 kW');
    expect(within(sh).getByRole('link').getAttribute('href')).toBe('/overview/station?siteId=1');
    expect(within(await tile('LA01')).getByTestId('tile-load').textContent).toBe('-');
    expect(within(screen.getByTestId('lane-partial')).getByText('没有处于此状态的站点')).toBeTruthy();
    expect(screen.getByTestId('total-devices').textContent).toContain('120/120');

    open = [0, 2, 0, 1, 0];
    act(() => liveEvents.deliver({ event: 'RefreshAlarmKanban', data: '{"siteId":1}', id: '1' }));
    await screen.findByTestId('lane-alarm').then((lane) => within(lane).findByText('2级 2条'));
    expect((await tile('SH01')).dataset.lane).toBe('alarm');
    expect(within(await tile('SH01')).getAllByTestId('tile-alarm').map((e) => e.dataset.level)).toEqual(['2', '4']);
    expect(screen.getByTestId('total-alarms').textContent).toContain('3');
    client.clear();
  }, 30_000);

  it('says so when the user sees no station', async () => {
    mockFetch((call) => json(envelope(call.url.includes('/comprehensive/site/list') ? { records: [], total: 0, current: 1, pageSize: 500 } : { start: '', end: '', total: levels([0, 0, 0, 0, 0]), sites: [] })));
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <App>
          <MemoryRouter>
            <KanbanPage />
          </MemoryRouter>
        </App>
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('kanban-empty')).textContent).toContain('没有可查看的站点');
  });
});
