import type { DeviceRecord } from '@ess/contract/device';
import type { MonitorDetail } from '@ess/contract/monitor';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { DeviceDetailPage, deviceIdParam } from './DeviceDetailPage.tsx';
import { LIVE_REFRESH_MS } from './monitor.api.ts';

vi.mock('../../components/chart/EChart.tsx', () => ({ EChart: ({ testId }: { testId?: string }) => <div data-testid={testId} /> }));

const device = (status: DeviceRecord['status']) =>
  ({
    id: 5, code: 'SH01-PCS-01', name: '1#储能变流器', type: 'pcs', status, siteName: '上海', parentId: null, parentName: null, productName: 'PCS',
    cabinetName: null, firmwareVersion: '2.8.4', lastSeenAt: null, disabled: false,
  }) as unknown as DeviceRecord;

const answer = (power: number, status: DeviceRecord['status']): MonitorDetail => ({
  device: device(status),
  summary: [],
  ts: '2026-01-01T00:00:00.000Z',
  properties: [
    { identifier: 'state', name: '运行状态', unit: '', dataType: 'enum', value: 2, valueLabel: '运行', colour: '#52c41a', cumulative: false, writable: false },
    { identifier: 'activePower', name: '有功功率（放电为正）', unit: 'kW', dataType: 'float', value: power, cumulative: false, writable: false },
  ],
});

describe('device page', () => {
  it('reads the id of ?id= and refuses anything else', () => {
    expect(deviceIdParam(new URLSearchParams('id=12'))).toBe(12);
    expect(deviceIdParam(new URLSearchParams('id=0'))).toBeNull();
    expect(deviceIdParam(new URLSearchParams('id=1e3'))).toBeNull();
    expect(deviceIdParam(new URLSearchParams(''))).toBeNull();
  });

  it('shows new values and the new state every few seconds without being opened again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    let round = 0;
    const { calls } = mockFetch((call) => {
      if (call.url.includes('/configure/device/query/one')) return json(envelope(device('online')));
      if (call.url.includes('/monitor/pcs/one?')) {
        round++;
        return json(envelope(round === 1 ? answer(12.5, 'online') : answer(-40, 'offline')));
      }
      if (call.url.includes('faultWarning')) return json(envelope({ active: [], recent: [] }));
      return json(envelope({ deviceId: 5, interval: 'raw', start: '', end: '', series: [] }));
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <App>
          <MemoryRouter initialEntries={['/product/equipmentDetail?id=5']}>
            <DeviceDetailPage />
          </MemoryRouter>
        </App>
      </QueryClientProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByTestId('prop-activePower').textContent).toBe('12.5 kW');
    expect(screen.getAllByTestId('device-status')[0]!.getAttribute('data-status')).toBe('online');

    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS - 100));
    expect(screen.getByTestId('prop-activePower').textContent).toBe('12.5 kW');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.getByTestId('prop-activePower').textContent).toBe('-40 kW');
    expect(screen.getAllByTestId('device-status')[0]!.getAttribute('data-status')).toBe('offline');
    expect(calls.filter((c) => c.url.endsWith('/monitor/pcs/one?deviceId=5'))).toHaveLength(2);
    expect(calls.filter((c) => c.url.includes('/configure/device/query/one'))).toHaveLength(1);
    client.clear();
  }, 30_000);
});
