import {
  meterReadingEndpoints, PERIOD_ORDER, periodReadingPage, READING_RANGE_TOO_LONG, REMETER_ACCEPTED, REMETER_HINT, zeroReadingPage,
  type PeriodReadingDetail, type PeriodReadingRecord, type ReMeterTask,
} from '@ess/contract/meter-reading';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { filtersToBody } from '../../components/crud/index.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, recordUi } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { zeroResource } from './readings.resource.tsx';
import { reMeterKey, taskActive } from './remeter.tsx';
import { SUBSYSTEM_RESOURCES } from './subsystem.resource.tsx';
import { reMeterRequest, StorageMeterPage } from './SubsystemReadingPage.tsx';

pageTests();

const task = (id: number, state: ReMeterTask['state'], progress: number): ReMeterTask => ({
  id, deviceId: 12, subsystem: 'storage', periodStart: '2026-10-01', periodEnd: '2026-10-31', state, progress, message: REMETER_ACCEPTED,
  startedAt: null, endedAt: null, changed: null, error: null, createdAt: '2026-11-01T00:00:00Z',
});

const row = (id: number, deviceId: number, extra: Partial<PeriodReadingRecord> = {}): PeriodReadingRecord => ({
  id, subsystem: 'storage', siteId: 4, siteName: '上海站', timeZone: 'Asia/Shanghai', deviceId, deviceCode: `MTR-${deviceId}`, deviceName: `储能表${deviceId}`,
  periodStart: '2026-10-01', periodEnd: '2026-10-31', startAt: '2026-09-30T16:00:00Z', endAt: '2026-10-31T16:00:00Z',
  start: { forwardActiveEnergy: 1000 }, end: { forwardActiveEnergy: 1450.5 }, difference: { forwardActiveEnergy: 450.5, reverseActiveEnergy: 401.25 },
  quality: 'measured', flags: {}, readAt: '2026-11-01T00:10:00Z', task: null, ...extra,
});

describe('reading filters', () => {
  it('sends station, meter, purpose, quality and the station-local dates as the contract asks', () => {
    const sent = filtersToBody(zeroResource.filters, {
      siteId: 4, deviceId: 12, meterPurpose: 'storage', quality: 'estimated', range: [dayjs('2026-10-01T00:00:00'), dayjs('2026-10-31T00:00:00')],
    });
    expect(sent).toEqual({ siteId: 4, deviceId: 12, meterPurpose: 'storage', quality: 'estimated', startDate: '2026-10-01', endDate: '2026-10-31' });
    expect(zeroReadingPage.safeParse({ current: 1, pageSize: 20, ...sent }).success).toBe(true);
    const period = filtersToBody(SUBSYSTEM_RESOURCES.pv.filters, { siteId: 4, quality: 'spike_clamped', range: [dayjs('2026-10-01'), dayjs('2026-10-15')] });
    expect(period).toEqual({ siteId: 4, quality: 'spike_clamped', startDate: '2026-10-01', endDate: '2026-10-15' });
    expect(periodReadingPage.safeParse({ current: 1, pageSize: 20, ...period }).success).toBe(true);
  });

  it('checks a re-meter of any meter and period before sending: a meter, an end not before the start, at most 366 days', () => {
    expect(reMeterRequest(null, [dayjs('2026-10-01'), dayjs('2026-10-31')])).toEqual({ ok: false, issue: '请选择电表' });
    expect(reMeterRequest(12, null)).toEqual({ ok: false, issue: '请选择抄表周期' });
    expect(reMeterRequest(12, [dayjs('2026-10-31'), dayjs('2026-10-01')])).toEqual({ ok: false, issue: PERIOD_ORDER });
    expect(reMeterRequest(12, [dayjs('2024-12-31'), dayjs('2026-01-01')])).toEqual({ ok: false, issue: READING_RANGE_TOO_LONG });
    expect(reMeterRequest(12, [dayjs('2026-10-01'), dayjs('2026-10-31')])).toEqual({ ok: true, body: { deviceId: 12, periodStart: '2026-10-01', periodEnd: '2026-10-31' } });
  });

  it('knows a task at work and keys a request by meter and period', () => {
    expect(taskActive(task(1, 'queued', 0))).toBe(true);
    expect(taskActive(task(1, 'running', 40))).toBe(true);
    expect(taskActive(task(1, 'done', 100))).toBe(false);
    expect(taskActive(null)).toBe(false);
    expect(reMeterKey({ deviceId: 12, periodStart: '2026-10-01', periodEnd: '2026-10-31' })).toBe('12:2026-10-01:2026-10-31');
  });
});

const detail = (r: PeriodReadingRecord): PeriodReadingDetail => ({
  ...r,
  currency: 'CNY',
  amount: '181.45',
  lines: [
    { register: 'forwardActiveEnergyValley', direction: 'forward', period: 'valley', start: 600, end: 1000.5, difference: 400.5, flags: ['measured'], price: '0.3100', priceChanged: false, amount: '124.16' },
    { register: 'forwardActiveEnergyPeak', direction: 'forward', period: 'peak', start: 400, end: 450, difference: 50, flags: ['estimated'], price: '1.1458', priceChanged: true, amount: '57.29' },
  ],
  segments: [],
  days: [{ date: '2026-10-01', quality: 'measured', difference: { forwardActiveEnergy: 14.5, reverseActiveEnergy: 13 } }],
});

function renderPage() {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <StorageMeterPage />
        </MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

describe('storage readings screen', () => {
  it('re-meters a period once: asks first with the 5–10 minutes hint, answers at once, blocks the same meter and period until the task ends', async () => {
    const ui = recordUi();
    const rows = [row(1, 12), row(2, 13, { task: task(7, 'running', 40) })];
    let reMeters = 0;
    const srv = mockFetch((c) => {
      const p = path(c);
      if (p === meterReadingEndpoints.storagePage.path) return json(envelope({ records: rows, total: 2, current: 1, pageSize: 20 }));
      if (p === meterReadingEndpoints.storageReMeter.path) {
        reMeters += 1;
        return json(envelope(task(8, 'queued', 0)));
      }
      if (p === meterReadingEndpoints.storageOne.path) return json(envelope(detail(rows[0]!)));
      return json(envelope([]));
    });
    useUserStore.setState({ permissions: new Set([meterReadingEndpoints.storagePage.path, meterReadingEndpoints.storageReMeter.path, meterReadingEndpoints.storageOne.path]) });
    renderPage();
    expect((await screen.findByTestId('remeter-hint')).textContent).toContain(REMETER_HINT);
    const rowOf = async (name: string) => (await screen.findByText(`${name} (MTR-${name.slice(-2)})`, {}, { timeout: 25_000 })).closest('tr')!;
    // The running task shows its progress, and its row cannot be re-metered.
    const running = await rowOf('储能表13');
    expect(within(running).getByTestId('remeter-progress').textContent).toContain('40%');
    expect(within(running).getByTestId('remeter').closest('button')!.disabled).toBe(true);

    const first = await rowOf('储能表12');
    const button = within(first).getByTestId('remeter').closest('button')!;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    // Asked first, with how long it takes.
    expect((await screen.findAllByText(REMETER_HINT)).length).toBeGreaterThan(1);
    fireEvent.click(await screen.findByTestId('remeter-ok'));
    await waitFor(() => expect(reMeters).toBe(1));
    expect(body(srv.calls.find((c) => path(c) === meterReadingEndpoints.storageReMeter.path)!)).toEqual({ deviceId: 12, periodStart: '2026-10-01', periodEnd: '2026-10-31' });
    await waitFor(() => expect(ui.toasts.map((x) => x.text)).toContain(REMETER_ACCEPTED));
    // Blocked now: a second click sends nothing.
    await waitFor(() => expect(within(first).getByTestId('remeter').closest('button')!.disabled).toBe(true));
    fireEvent.click(within(first).getByTestId('remeter').closest('button')!);
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(reMeters).toBe(1);
  });

  it('shows the period detail with the registers side by side, and no re-meter without its permission', async () => {
    const rows = [row(1, 12)];
    mockFetch((c) => {
      const p = path(c);
      if (p === meterReadingEndpoints.storagePage.path) return json(envelope({ records: rows, total: 1, current: 1, pageSize: 20 }));
      if (p === meterReadingEndpoints.storageOne.path) return json(envelope(detail(rows[0]!)));
      return json(envelope([]));
    });
    useUserStore.setState({ permissions: new Set([meterReadingEndpoints.storagePage.path, meterReadingEndpoints.storageOne.path]) });
    renderPage();
    const name = await screen.findByText('储能表12 (MTR-12)', {}, { timeout: 25_000 });
    const tr = name.closest('tr')!;
    expect(within(tr).queryByTestId('remeter')).toBeNull();
    expect(screen.queryByTestId('remeter-hint')).toBeNull();
    // The period's energy per register in the list.
    expect(within(tr).getByText('450.5')).toBeTruthy();
    fireEvent.click(within(tr).getByTestId('period-open'));
    const lines = await screen.findByTestId('period-lines', {}, { timeout: 25_000 });
    const valley = within(lines).getByText('正向有功电能（谷）').closest('tr')!;
    expect([...valley.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent)).toEqual(['正向有功电能（谷）', '600', '1,000.5', '400.5', '0.3100', '124.16']);
    const peak = within(lines).getByText('正向有功电能（峰）').closest('tr')!;
    expect(within(peak).getByText('1.1458 *')).toBeTruthy();
    expect(within(peak).getByText('估算')).toBeTruthy();
    expect(screen.getByTestId('period-amount').textContent).toBe('181.45 CNY');
  });
});
