import { maintenanceEndpoints } from '@ess/contract/maintenance';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../platform/i18n/translate.ts';
import { useUserStore } from '../platform/user-store.ts';
import { envelope, json, mockFetch, recordUi, type Call } from '../test/http.ts';
import { RepairFromAlarm } from './RepairFromAlarm.tsx';

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

const sentTo = (calls: Call[], endpoint: { path: string }) =>
  calls.filter((c) => c.url.split('?')[0]!.endsWith(endpoint.path)).map((c) => JSON.parse(c.init.body as string) as Record<string, unknown>);

/** Where the action went: the repair order detail's route shows its query. */
function Opened() {
  const { search } = useLocation();
  return <div data-testid="opened">{search}</div>;
}

const mount = () =>
  render(
    <App>
      <MemoryRouter initialEntries={['/alarm/monitor']}>
        <Routes>
          <Route path="/alarm/monitor" element={<RepairFromAlarm alarm={{ id: 77, no: 'GJ202611270077' }} />} />
          <Route path="/repair/order-detail" element={<Opened />} />
        </Routes>
      </MemoryRouter>
    </App>,
  );

const signedIn = (paths: string[]) => useUserStore.setState({ info: { companyId: 7 } as never, permissions: new Set(paths) });

/** Clicks "create repair order" on the alarm row and confirms. */
async function create() {
  fireEvent.click(screen.getByTestId('alarm-repair'));
  const ok = await screen.findByRole('button', { name: '创建维修工单' }, { timeout: 25_000 });
  fireEvent.click(ok);
}

describe('"create repair order" on an alarm row (monitor and kanban)', () => {
  it('is not offered to a user who may not create repair orders', () => {
    signedIn([maintenanceEndpoints.repairList.path]);
    mount();
    expect(screen.queryByTestId('alarm-repair')).toBeNull();
  });

  it('creates the order from the alarm alone in one action and opens it', async () => {
    signedIn([maintenanceEndpoints.repairAdd.path, maintenanceEndpoints.repairList.path]);
    recordUi();
    const srv = mockFetch(() => json(envelope({ id: 41 })));
    mount();
    await create();
    expect((await screen.findByTestId('opened', {}, { timeout: 25_000 })).textContent).toBe('?id=41');
    // Only the alarm: the server carries device, level, description and the last hour of telemetry.
    expect(sentTo(srv.calls, maintenanceEndpoints.repairAdd)).toEqual([{ alarmId: 77 }]);
    expect(sentTo(srv.calls, maintenanceEndpoints.repairList)).toEqual([]);
  });

  it('opens the order the alarm already has (one per alarm) instead of a refusal', async () => {
    signedIn([maintenanceEndpoints.repairAdd.path, maintenanceEndpoints.repairList.path]);
    const ui = recordUi();
    const srv = mockFetch((c) =>
      c.url.endsWith(maintenanceEndpoints.repairAdd.path) ? json(envelope(null, 'A0406', '该告警已有维修工单'), 406) : json(envelope([{ id: 12 }])),
    );
    mount();
    await create();
    expect((await screen.findByTestId('opened', {}, { timeout: 25_000 })).textContent).toBe('?id=12');
    expect(sentTo(srv.calls, maintenanceEndpoints.repairList)).toEqual([{ alarmId: 77 }]);
    await waitFor(() => expect(ui.toasts).toEqual([]));
  });
});
