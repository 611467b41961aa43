import type { AlarmKanbanCabinet, AlarmKanbanChart, AlarmKanbanSite, AlarmLevelCount, AlarmRecord } from '@ess/contract/alarm';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { liveEvents } from '../../platform/live-events.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { raisedEndedOption } from './alarm.charts.ts';
import { formatDuration } from './alarm.options.ts';
import { AlarmKanbanPage } from './AlarmKanbanPage.tsx';
import { dictBody, modelOptions } from './dict.resource.tsx';

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

const t = (s: string, ...args: unknown[]) => args.reduce<string>((acc, a, i) => acc.replace(`$${i + 1}`, String(a)), s);
const path = (c: Call) => c.url.replace(/^\/api\/manager/, '').replace(/\?.*$/, '');

const levels = (active: number[]): AlarmLevelCount[] => active.map((n, i) => ({ level: (i + 1) as 1, active: n, raised: n, ended: 0 }));

function alarmRow(id: number, level: number, description: string): AlarmRecord {
  return {
    id, no: `ALM20260101${String(id).padStart(6, '0')}`, level: level as 1, alarmType: 'deviceFault', description, status: 'active',
    startedAt: '2026-01-01T00:00:00Z', endedAt: null, durationMs: 90 * 60_000, kind: 'event', code: 'X', triggerValue: null, clearValue: null, endReason: null, unit: null,
    message: null, dictId: 1, siteId: 1, siteName: '上海站', siteCode: 'SH01', deviceId: id, deviceCode: `SH01-PCS-0${id}`, deviceName: `PCS ${id}`,
    deviceType: 'pcs', cabinetId: null, cabinetName: null, shield: null,
  };
}

/** The kanban calls of a server whose alarms the test changes. */
function server() {
  const state = { active: [0, 1, 0, 0, 0], open: [alarmRow(1, 2, 'IGBT故障')] };
  const mock = mockFetch((c) => {
    const p = path(c);
    const site: AlarmKanbanSite = { start: '', end: '', total: levels(state.active), sites: [{ siteId: 1, siteName: '上海站', siteCode: 'SH01', levels: levels(state.active) }] };
    const chart: AlarmKanbanChart = { start: '', end: '', bucket: 'hour', points: [], byType: [], topDevices: [], endedCount: 0, meanTimeToEndMs: null };
    const cabinet: AlarmKanbanCabinet = { start: '', end: '', cabinets: [] };
    if (p === '/alarm/kanban/site') return json(envelope(site));
    if (p === '/alarm/kanban/chart') return json(envelope(chart));
    if (p === '/alarm/kanban/cabinet') return json(envelope(cabinet));
    if (p === '/alarm/monitor/query/list') return json(envelope(state.open));
    if (p === '/configure/site/query/list') return json(envelope([]));
    return json(envelope(null, 'A0404', '不存在'), 404);
  });
  return { state, ...mock };
}

const mount = () =>
  render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <AlarmKanbanPage />
        </MemoryRouter>
      </QueryClientProvider>
    </App>,
  );

const activeOf = (level: number) => within(screen.getByTestId(`active-level-${level}`)).getByText(/^\d+$/).textContent;

describe('alarm kanban', () => {
  it('shows the alarms in progress by level and the open alarms, and follows RefreshAlarmKanban without a reload', async () => {
    const srv = server();
    mount();
    await waitFor(() => expect(activeOf(2)).toBe('1'));
    expect(activeOf(1)).toBe('0');
    expect(await screen.findByText('IGBT故障')).toBeTruthy();
    const kanbanCalls = () => srv.calls.filter((c) => path(c) === '/alarm/kanban/site').length;
    const before = kanbanCalls();

    // A new level-1 alarm on the server; the live event makes the page read again.
    srv.state.active = [1, 1, 0, 0, 0];
    srv.state.open = [alarmRow(2, 1, '直流过流'), ...srv.state.open];
    act(() => liveEvents.deliver({ event: 'RefreshAlarmKanban', data: '{"siteId":1}', id: '1' }));
    await waitFor(() => expect(activeOf(1)).toBe('1'));
    expect(kanbanCalls()).toBe(before + 1);
    const rows = screen.getByTestId('open-alarms').querySelectorAll('tr[data-alarm-no]');
    // Most severe first.
    expect([...rows].map((r) => r.getAttribute('data-alarm-no'))).toEqual(['ALM20260101000002', 'ALM20260101000001']);
  });
});

describe('alarm helpers', () => {
  it('writes durations in days, hours and minutes', () => {
    expect(formatDuration(null, t)).toBe('-');
    expect(formatDuration(42_000, t)).toBe('42秒');
    expect(formatDuration(90 * 60_000, t)).toBe('1小时 30分钟');
    expect(formatDuration(26 * 3_600_000, t)).toBe('1天 2小时');
  });

  it('stacks the raised alarms per level and draws the ended ones as a line', () => {
    const o = raisedEndedOption(
      { start: '', end: '', bucket: 'hour', points: [{ t: 0, raised: [1, 0, 2, 0, 0], ended: [0, 1, 1, 0, 0] }], byType: [], topDevices: [], endedCount: 0, meanTimeToEndMs: null },
      t,
    ) as { series: { id: string; data: number[] }[]; graphic: unknown[] };
    expect(o.series.map((s) => [s.id, s.data[0]])).toEqual([['raised-1', 1], ['raised-2', 0], ['raised-3', 2], ['raised-4', 0], ['raised-5', 0], ['ended', 2]]);
    expect(o.graphic).toEqual([]);
    const empty = raisedEndedOption(undefined, t) as { graphic: { style: { text: string } }[] };
    expect(empty.graphic[0]!.style.text).toBe('所选时间内没有告警');
  });

  it('sends the dictionary form as the contract wants: one target, the fields of its kind', () => {
    const base = { level: 2, alarmType: 'overLimit' as const, description: '油温偏高', enabled: true };
    expect(
      dictBody({ ...base, target: 'deviceType', deviceType: 'transformer', productId: 5, kind: 'threshold', eventCode: 'X', identifier: 'oilTemperature', operator: '>', threshold: 70, clearValue: 65 }, 'add'),
    ).toEqual({ productId: null, deviceType: 'transformer', kind: 'threshold', eventCode: null, identifier: 'oilTemperature', operator: '>', threshold: 70, clearValue: 65, ...base });
    expect(dictBody({ ...base, target: 'product', productId: 5, deviceType: 'pcs', kind: 'event', eventCode: 'PCS_FAN_FAULT', identifier: 'x', threshold: 1 }, 'edit', 9)).toEqual({
      id: 9, productId: 5, deviceType: null, kind: 'event', eventCode: 'PCS_FAN_FAULT', identifier: null, operator: null, threshold: null, clearValue: null, ...base,
    });
  });

  it('offers the fault codes, or the numeric properties, of a device type', () => {
    expect(modelOptions('pcs', 'event').map((o) => o.value)).toContain('PCS_IGBT_FAULT');
    const props = modelOptions('bms', 'threshold').map((o) => o.value);
    expect(props).toContain('soc');
    expect(props).not.toContain('maxCellVoltagePosition');
    expect(props).not.toContain('mainContactor');
    expect(modelOptions(undefined, 'event')).toEqual([]);
  });
});
