import { alarmEndpoints } from '@ess/contract/alarm';
import { maintenanceEndpoints, type RepairDetail } from '@ess/contract/maintenance';
import { monitorEndpoints } from '@ess/contract/monitor';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { liveEvents } from '../../platform/live-events.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, recordUi } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { RepairOrderDetailPage } from './RepairOrderDetailPage.tsx';

pageTests();

/** An automatic repair order of an alarm, handled and waiting for acceptance. */
const order: RepairDetail = {
  id: 5, no: 'WX20261127000005', title: 'IGBT故障', description: 'IGBT故障（GJ20261127000001）', level: 1, source: 'autoAlarm', status: 'toBeAccepted',
  siteId: 1, siteName: '上海站', siteCode: 'SH01', timeZone: 'Asia/Shanghai', deviceId: 9, deviceCode: 'SH01-PCS-01', deviceName: 'PCS 1', deviceType: 'pcs',
  defectId: null, defectNo: null, alarmId: 3, alarmNo: 'GJ20261127000001', alarmStatus: 'active', alarmStartedAt: '2026-11-27T01:00:00Z', alarmEndedAt: null,
  photos: [], assigneeId: 1, assigneeName: '系统管理员', dueAt: null, overdue: false, dispatchedAt: '2026-11-27T01:01:00Z', acceptedAt: '2026-11-27T01:02:00Z',
  checkInAt: '2026-11-27T01:02:00Z', checkInLocation: null, workStartAt: '2026-11-27T01:02:00Z', workEndAt: '2026-11-27T01:30:00Z', workDone: '更换IGBT模块',
  parts: [], handlePhotos: [], completedAt: null, closedAt: null, rejectCount: 0, lastRejectReason: null, sourceAction: null, note: null, createdBy: null,
  createdByName: '系统', createdAt: '2026-11-27T01:00:00Z', updatedAt: '2026-11-27T01:30:00Z', telemetrySnapshot: null, timeline: [], roles: [],
};

describe('accepting a repair order of an alarm with a reset of its source', () => {
  it('asks the secondary password and checks it before accepting, then sends the reset', async () => {
    recordUi();
    const srv = mockFetch((c) => {
      const p = path(c);
      if (p === maintenanceEndpoints.repairOne.path) return json(envelope(order));
      if (p === monitorEndpoints.checkPassword.path) return json(envelope({ ok: true, validUntil: new Date(Date.now() + 300_000).toISOString() }));
      if (p === monitorEndpoints.faultRecover.path) return json(envelope({ ok: true, requestId: 'r1', result: { cleared: ['PCS_IGBT_FAULT'] }, durationMs: 20 }));
      return json(envelope(null));
    });
    useUserStore.setState({
      permissions: new Set([
        maintenanceEndpoints.repairOne.path, maintenanceEndpoints.repairAcceptance.path, monitorEndpoints.faultRecover.path, alarmEndpoints.createShield.path,
      ]),
    });
    render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter initialEntries={['/repair/order-detail?id=5']}>
            <RepairOrderDetailPage />
          </MemoryRouter>
        </QueryClientProvider>
      </App>,
    );
    fireEvent.click(await screen.findByTestId('repair-accept', {}, { timeout: 25_000 }));
    const form = await screen.findByTestId('repair-accept-form');
    // No password asked while the source is left alone.
    expect(within(form).queryByTestId('secondary-password')).toBeNull();
    fireEvent.click(within(form).getByLabelText('复位告警源'));
    const password = await within(form).findByTestId('secondary-password');

    // Without the password nothing is sent.
    const sent = () => srv.calls.map(path).filter((p) => p !== maintenanceEndpoints.repairOne.path);
    fireEvent.click(screen.getByTestId('repair-accept-form-ok'));
    await within(form).findByText('二级密码不能为空');
    expect(sent()).toEqual([]);

    fireEvent.change(password, { target: { value: 'Admin12345' } });
    fireEvent.click(screen.getByTestId('repair-accept-form-ok'));
    await waitFor(() => expect(sent()).toEqual([monitorEndpoints.checkPassword.path, maintenanceEndpoints.repairAcceptance.path, monitorEndpoints.faultRecover.path]));
    const [check, accept] = srv.calls.filter((c) => path(c) !== maintenanceEndpoints.repairOne.path);
    expect(body(check!)).toEqual({ deviceId: 9, password: 'Admin12345' });
    expect(body(accept!)).toEqual({ id: 5, pass: true, reason: null, sourceAction: 'reset' });
  });
});

describe("the repair order detail follows its alarm's state live", () => {
  it('reads the order again on RefreshAlarmKanban and shows the alarm ended, without a reload', async () => {
    const server = { order: { ...order, status: 'processing' as const } as RepairDetail };
    const srv = mockFetch((c) => (path(c) === maintenanceEndpoints.repairOne.path ? json(envelope(server.order)) : json(envelope(null))));
    useUserStore.setState({ permissions: new Set([maintenanceEndpoints.repairOne.path]) });
    render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter initialEntries={['/repair/order-detail?id=5']}>
            <RepairOrderDetailPage />
          </MemoryRouter>
        </QueryClientProvider>
      </App>,
    );
    const state = await screen.findByTestId('alarm-state', {}, { timeout: 25_000 });
    expect(state.getAttribute('data-status')).toBe('active');
    expect(within(state).getByText('告警进行中')).toBeTruthy();
    const reads = () => srv.calls.filter((c) => path(c) === maintenanceEndpoints.repairOne.path).length;
    const before = reads();

    // The alarm ends on the server; the live event alone makes the page read the order again.
    server.order = { ...server.order, alarmStatus: 'ended', alarmEndedAt: '2026-11-27T02:00:00Z' };
    act(() => liveEvents.deliver({ event: 'RefreshAlarmKanban', data: '{"siteId":1}', id: '1' }));
    await waitFor(() => expect(screen.getByTestId('alarm-state').getAttribute('data-status')).toBe('ended'));
    expect(within(screen.getByTestId('alarm-state')).getByText('告警已结束')).toBeTruthy();
    expect(reads()).toBe(before + 1);
    expect(body(srv.calls.filter((c) => path(c) === maintenanceEndpoints.repairOne.path).at(-1)!)).toEqual({ id: 5 });
  });
});
