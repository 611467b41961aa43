import type { DeviceProperty, DeviceRecord } from '@ess/contract/device';
import { monitorEndpoints as M } from '@ess/contract/monitor';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { callBody, callPath, pageTests } from '../../test/page-test.ts';
import { closePasswordWindow } from './controls.ts';
import { StorageControl } from './StorageControl.tsx';
import { ratedPowerOf, readReply, storageBody } from './storage.ts';

pageTests();
afterEach(() => closePasswordWindow());

const pcs = (over: Partial<DeviceRecord> = {}) =>
  ({ id: 5, code: 'SH01-PCS-01', name: '1#储能变流器', type: 'pcs', status: 'online', disabled: false, parentId: 9, ratedPower: 200, ...over }) as unknown as DeviceRecord;

const prop = (identifier: string, value: number): DeviceProperty =>
  ({ identifier, name: identifier, unit: '', dataType: 'int', value, cumulative: false, writable: false });

/** The parent EMS reports auto; the storage call answers as the simulator does; a password check opens the window. */
function server(reply: (c: Call) => Response = () =>
  json(envelope({ requestId: 'r1', command: 'storageMode', ok: true, result: { mode: 'manual', powerKw: 100, durationMin: 15, until: Date.UTC(2026, 0, 1, 4, 15) }, durationMs: 42 }))) {
  return mockFetch((c) => {
    const path = callPath(c);
    if (path === M.essOne.path) return json(envelope({ device: { id: 9 }, ts: null, summary: [], properties: [prop('runMode', 0), prop('manualEndTime', 0)] }));
    if (path === M.checkPassword.path) return json(envelope({ ok: true, validUntil: new Date(Date.now() + 300_000).toISOString() }));
    if (path === M.storageControl.path) return reply(c);
    return json(envelope(null));
  });
}

function draw(device: DeviceRecord) {
  useUserStore.setState({ permissions: new Set([M.storageControl.path, M.checkPassword.path]) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <StorageControl device={device} properties={[]} />
      </App>
    </QueryClientProvider>,
  );
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('storage control on the PCS page', () => {
  it('builds the body: discharge positive, charge negative, duration only for manual', () => {
    expect(storageBody(5, { mode: 'manual', direction: 'discharge', power: 100, durationMin: 15 }, 'pw')).toEqual({ deviceId: 5, mode: 'manual', powerKw: 100, durationMin: 15, password: 'pw' });
    expect(storageBody(5, { mode: 'manual', direction: 'charge', power: 60, durationMin: 30 }, undefined)).toEqual({ deviceId: 5, mode: 'manual', powerKw: -60, durationMin: 30 });
    expect(storageBody(5, { mode: 'standby', direction: 'charge', power: 60, durationMin: 30 }, undefined)).toEqual({ deviceId: 5, mode: 'standby' });
    expect(ratedPowerOf(pcs())).toBe(200);
    expect(ratedPowerOf(pcs({ type: 'ems' }))).toBeNull();
    expect(readReply({ requestId: 'r', command: 'storageMode', ok: true, result: { mode: 'standby', powerKw: 0, until: null }, durationMs: 7 })).toEqual({ mode: 'standby', powerKw: 0, until: null, durationMs: 7 });
  });

  it('sends a manual discharge with the secondary password and shows what the device confirmed', async () => {
    const { calls } = server();
    draw(pcs());
    await waitFor(() => expect(screen.getByTestId('storage-current-mode').textContent).toBe('自动（跟随策略）'));
    fireEvent.click(screen.getByText('手动'));
    await screen.findByTestId('storage-power');
    type('storage-power', '100');
    fireEvent.click(screen.getByTestId('storage-send'));
    await screen.findByText('确定要将储能切换为：手动放电 100 kW，持续 15 分钟，之后自动恢复跟随策略？');
    type('storage-password', 'Admin@123');
    act(() => {
      fireEvent.click(document.getElementById('storage-confirm')!);
    });
    const reply = await screen.findByTestId('storage-reply');
    expect(reply.textContent).toContain('设备已确认（42 ms）');
    expect(reply.textContent).toContain('100 kW');
    const sent = calls.filter((c) => callPath(c) === M.storageControl.path);
    expect(sent.map(callBody)).toEqual([{ deviceId: 5, mode: 'manual', powerKw: 100, durationMin: 15, password: 'Admin@123' }]);
    expect(calls.filter((c) => callPath(c) === M.checkPassword.path)).toHaveLength(1);
  });

  it('keeps a power above the rating in the form: nothing is sent', async () => {
    const { calls } = server();
    draw(pcs());
    fireEvent.click(screen.getByText('手动'));
    await screen.findByTestId('storage-power');
    type('storage-power', '250');
    fireEvent.blur(screen.getByTestId('storage-power'));
    fireEvent.click(screen.getByTestId('storage-send'));
    expect(await screen.findByText('功率应为0.1-200 kW')).toBeTruthy();
    expect(screen.queryByText(/确定要将储能切换为/)).toBeNull();
    expect(calls.filter((c) => callPath(c) === M.storageControl.path)).toHaveLength(0);
  });

  it("shows the server's refusal of a faulted device in the dialog", async () => {
    server(() => json(envelope(null, 'A0406', '设备存在未恢复的故障，不能下发储能控制，请先排除故障'), 406));
    draw(pcs());
    fireEvent.click(screen.getByText('待机'));
    fireEvent.click(screen.getByTestId('storage-send'));
    await screen.findByText('确定要将储能切换为：待机？');
    type('storage-password', 'Admin@123');
    act(() => {
      fireEvent.click(document.getElementById('storage-confirm')!);
    });
    expect((await screen.findByTestId('storage-error')).textContent).toContain('设备存在未恢复的故障');
    expect(screen.queryByTestId('storage-reply')).toBeNull();
  });

  it('offers nothing to send while the device is offline', () => {
    server();
    draw(pcs({ status: 'offline' }));
    expect(screen.getByTestId('storage-send').closest('button')!.disabled).toBe(true);
    expect(screen.getByText('设备在线时才能远程控制')).toBeTruthy();
  });

  it('is not drawn for a user who may not make the call', () => {
    server();
    draw(pcs());
    act(() => useUserStore.setState({ permissions: new Set() }));
    expect(screen.queryByTestId('storage-control')).toBeNull();
  });
});
