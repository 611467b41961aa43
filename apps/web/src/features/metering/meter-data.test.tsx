import { meterEndpoints, meterElectricDataBody } from '@ess/contract/monitor';
import { deviceEndpoints } from '@ess/contract/device';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { electricBody, electricWindow, REGISTER_COLUMNS } from './electric.ts';
import { MeterDataPage } from './MeterDataPage.tsx';

pageTests();

describe('meter data window', () => {
  it('asks for the station-local day for 5-minute and hour buckets, the local month for day buckets', () => {
    // Shanghai is UTC+8: its 2026-11-05 runs from 11-04 16:00 UTC to 11-05 16:00 UTC.
    expect(electricWindow('Asia/Shanghai', '1h', '2026-11-05')).toEqual({ start: Date.UTC(2026, 10, 4, 16), end: Date.UTC(2026, 10, 5, 16) });
    expect(electricWindow('Asia/Shanghai', '1d', '2026-11-01')).toEqual({ start: Date.UTC(2026, 9, 31, 16), end: Date.UTC(2026, 10, 30, 16) });
    // Berlin's 2026-10-25 has 25 hours (summer time ends): the server allows 24 at most.
    const dst = electricWindow('Europe/Berlin', '5m', '2026-10-25');
    expect(dst).toEqual({ start: Date.UTC(2026, 9, 24, 22), end: Date.UTC(2026, 9, 25, 22) });
    const sent = electricBody('M-01', 'Europe/Berlin', '5m', '2026-10-25');
    expect(meterElectricDataBody.safeParse(sent).success).toBe(true);
  });

  it('lists the registers forward then reverse, total then tip to deep valley', () => {
    expect(REGISTER_COLUMNS.map((c) => c.key)).toEqual([
      'forwardActiveEnergy', 'forwardActiveEnergyTip', 'forwardActiveEnergyPeak', 'forwardActiveEnergyFlat', 'forwardActiveEnergyValley', 'forwardActiveEnergyDeepValley',
      'reverseActiveEnergy', 'reverseActiveEnergyTip', 'reverseActiveEnergyPeak', 'reverseActiveEnergyFlat', 'reverseActiveEnergyValley', 'reverseActiveEnergyDeepValley',
    ]);
    expect(REGISTER_COLUMNS[1]!.title).toBe('正向有功电能（尖）');
  });
});

describe('meter data page', () => {
  it('picks the first station and its first meter, asks for its day by hour, and shows the rows', async () => {
    const srv = mockFetch((c) => {
      const p = path(c);
      if (p === '/configure/site/query/list') {
        return json(envelope([{ id: 4, name: '上海站', code: 'SH01', timeZone: 'Asia/Shanghai', companyId: 1, companyName: 'x', currency: 'CNY', siteType: 'storage' }]));
      }
      if (p === deviceEndpoints.list.path) return json(envelope([{ id: 9, code: 'MTR-9', name: '储能表', siteName: '上海站' }]));
      if (p === meterEndpoints.electricData.path) {
        return json(envelope({
          deviceId: 9, deviceCode: 'MTR-9', deviceName: '储能表', siteName: '上海站', timeZone: 'Asia/Shanghai', interval: '1h',
          rows: [{
            time: '2026-11-04T16:00:00.000Z', localTime: '2026-11-05 00:00', activePowerAvg: 120.5, activePowerMax: 130, demandMax: 131.25,
            registers: { forwardActiveEnergy: 1520.5, reverseActiveEnergyValley: 88 }, forwardEnergy: 120.5, reverseEnergy: 0,
          }],
        }));
      }
      return json(envelope([]));
    });
    render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <MeterDataPage />
          </MemoryRouter>
        </QueryClientProvider>
      </App>,
    );
    const table = await screen.findByTestId('meter-data-table');
    const cell = await within(table).findByText('2026-11-05 00:00', {}, { timeout: 25_000 });
    const row = cell.closest('tr')!;
    expect(within(row).getByText('1,520.5')).toBeTruthy();
    expect(within(row).getByText('131.25')).toBeTruthy();
    // The meter list asked for the station's meters; the data for its first meter.
    expect(body(srv.calls.find((c) => path(c) === deviceEndpoints.list.path)!)).toEqual({ type: 'meter', siteId: 4 });
    await waitFor(() => expect(srv.calls.some((c) => path(c) === meterEndpoints.electricData.path)).toBe(true));
    const sent = body(srv.calls.find((c) => path(c) === meterEndpoints.electricData.path)!);
    expect(sent).toMatchObject({ deviceCode: 'MTR-9', interval: '1h' });
    expect(Number(sent.end) - Number(sent.start)).toBe(86_400_000);
  });
});
