import {
  maintenanceEndpoints, REPAIR_STATES, WORK_ORDER_STATES, workOrderPage, type RepairState, type WorkOrderItemRecord, type WorkOrderRecord, type WorkOrderState,
} from '@ess/contract/maintenance';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { filtersToBody } from '../../components/crud/index.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { canRaiseRepair } from './DefectPage.tsx';
import { handleBody, outOfRange } from './handle.ts';
import { itemBody } from './item.resource.tsx';
import { monthWeeks } from './MonthCalendar.tsx';
import { orderResource } from './order.resource.tsx';
import { minutesText } from './overview.ts';
import { planToggle } from './PlanPage.tsx';
import { repairActions, repairHandleBody } from './RepairOrderDetailPage.tsx';
import { previewOf, scheduleBody, slotText } from './schedule.ts';
import { SchedulePreview } from './ScheduleField.tsx';
import { canHandle } from './WorkOrderDetailPage.tsx';
import { orderListActions, WorkOrderPage } from './WorkOrderPage.tsx';

/** Source texts with their placeholders filled, as the pack does for zh-CN. */
const t = (s: string, ...args: unknown[]) => s.replace(/\$(\d)/g, (_, n: string) => String(args[Number(n) - 1]));
/** The catalogue path of a call. */

pageTests();

const ALL = { allocate: true, close: true };

describe('work order actions by state and permission', () => {
  it('offers allocation only while to be assigned, close only while open, each only with its permission', () => {
    const offered = Object.fromEntries(WORK_ORDER_STATES.map((s) => [s, orderListActions({ status: s }, ALL)]));
    expect(offered).toEqual({
      toBeAssigned: ['allocate', 'close'], pending: ['close'], processing: ['close'], completed: [], closed: [],
    });
    expect(orderListActions({ status: 'toBeAssigned' }, { allocate: false, close: true })).toEqual(['close']);
    expect(orderListActions({ status: 'toBeAssigned' }, { allocate: true, close: false })).toEqual(['allocate']);
  });

  it('lets only the assignee record results, while pending or processing, with the handle permission', () => {
    const states = (roles: string[], allowed = true) => WORK_ORDER_STATES.filter((s: WorkOrderState) => canHandle({ status: s, roles }, allowed));
    expect(states(['assignee'])).toEqual(['pending', 'processing']);
    expect(states([])).toEqual([]);
    expect(states(['assignee'], false)).toEqual([]);
  });
});

describe('repair order actions by state, role and permission', () => {
  const all = { allocate: true, checkIn: true, handle: true, accept: true };
  it('dispatch when to be dispatched; check-in and handling for the repairer; acceptance when to be accepted', () => {
    const of = (roles: string[]) => Object.fromEntries(REPAIR_STATES.map((s: RepairState) => [s, repairActions({ status: s, roles }, all)]));
    expect(of(['assignee'])).toEqual({
      toBeDispatched: ['allocate'], pending: ['checkIn'], processing: ['handle'], toBeAccepted: ['accept'], completed: [], closed: [],
    });
    // Someone else: no check-in or handling.
    expect(of([])).toEqual({ toBeDispatched: ['allocate'], pending: [], processing: [], toBeAccepted: ['accept'], completed: [], closed: [] });
    // No acceptance permission: no acceptance.
    expect(repairActions({ status: 'toBeAccepted', roles: [] }, { ...all, accept: false })).toEqual([]);
  });

  it('refuses a handle whose end is not after its start, before sending', () => {
    const start = dayjs('2026-11-27T10:00:00Z');
    const bad = repairHandleBody(5, { workDone: '更换风扇', startAt: start, endAt: start.subtract(1, 'minute') });
    expect(bad).toEqual({ ok: false, issue: '结束时间须晚于开始时间' });
    const same = repairHandleBody(5, { workDone: '更换风扇', startAt: start, endAt: start });
    expect(same.ok).toBe(false);
    const note = repairHandleBody(5, { workDone: '更换风扇', startAt: start, endAt: start.add(1, 'hour'), note: 'x'.repeat(201) });
    expect(note).toEqual({ ok: false, issue: '备注不能超过200个字符' });
    const good = repairHandleBody(5, { workDone: '更换风扇', startAt: start, endAt: start.add(1, 'hour'), parts: [{ name: '风扇', quantity: 1 }], photos: ['abcdefgh.jpg'] });
    expect(good).toEqual({
      ok: true,
      body: {
        id: 5, workDone: '更换风扇', parts: [{ name: '风扇', model: null, quantity: 1, unit: null }], photos: ['abcdefgh.jpg'],
        startAt: start.valueOf(), endAt: start.add(1, 'hour').valueOf(), note: null,
      },
    });
  });
});

describe('plans and defects', () => {
  it('starts only a stopped plan that has not expired, stops an executing or pending one', () => {
    expect(planToggle({ status: 'stopped', expired: false })).toBe('start');
    expect(planToggle({ status: 'stopped', expired: true })).toBeNull();
    expect(planToggle({ status: 'executing', expired: false })).toBe('stop');
    expect(planToggle({ status: 'pending', expired: false })).toBe('stop');
  });

  it('raises a repair order only from an open defect without one', () => {
    expect(canRaiseRepair({ status: 'open', repairOrderId: null })).toBe(true);
    expect(canRaiseRepair({ status: 'open', repairOrderId: 4 })).toBe(false);
    expect(canRaiseRepair({ status: 'repairing', repairOrderId: null })).toBe(false);
    expect(canRaiseRepair({ status: 'resolved', repairOrderId: null })).toBe(false);
  });

  it('sends an item with its one target, and a range only for number items', () => {
    const base = { name: '柜门密封', checkType: 'number' as const, unit: '°C', min: 10, max: 40, standard: null, remark: null };
    expect(itemBody({ ...base, target: 'product', productId: 3, deviceType: 'pcs' }, 'add')).toMatchObject({ productId: 3, deviceType: null, min: 10, max: 40, unit: '°C' });
    expect(itemBody({ ...base, target: 'station', checkType: 'status', productId: 3 }, 'edit', 9)).toMatchObject({ id: 9, productId: null, deviceType: null, min: null, max: null, unit: null });
  });
});

describe('recording results', () => {
  const item = (id: number, checkType: WorkOrderItemRecord['checkType'], extra: Partial<WorkOrderItemRecord> = {}): WorkOrderItemRecord => ({
    id, itemId: id, sort: id, name: `项${id}`, checkType, deviceType: null, unit: null, min: null, max: null, standard: null, deviceId: null, deviceName: null,
    result: null, value: null, text: null, photos: [], outOfRange: false, defectId: null, checkedAt: null, ...extra,
  });
  const items = [item(1, 'status'), item(2, 'number', { min: 0, max: 45, unit: '°C' }), item(3, 'photo')];

  it('records a value out of range as a failure, and completes only with every item recorded', () => {
    expect(outOfRange(items[1]!, 50)).toBe(true);
    expect(outOfRange(items[1]!, 45)).toBe(false);
    const drafts = {
      1: { result: 'fail' as const, value: null, text: '柜门密封条破损', photos: ['abcdefgh.jpg'] },
      2: { result: null, value: 50, text: null, photos: [] },
      3: { result: null, value: null, text: null, photos: [] },
    };
    expect(handleBody(7, items, drafts, true, null)).toEqual({ ok: false, issue: '请填写检查结果', itemId: 3 });
    const saved = handleBody(7, items, drafts, false, null);
    expect(saved).toEqual({
      ok: true,
      body: {
        id: 7, complete: false, note: null,
        results: [
          { id: 1, result: 'fail', value: null, text: '柜门密封条破损', photos: ['abcdefgh.jpg'] },
          { id: 2, result: 'fail', value: 50, text: null, photos: [] },
        ],
      },
    });
    expect(handleBody(7, items, drafts, false, 'x'.repeat(201))).toEqual({ ok: false, issue: '备注不能超过200个字符' });
    const tooMany = { ...drafts, 1: { ...drafts[1], photos: Array.from({ length: 21 }, (_, i) => `photo${String(i).padStart(4, '0')}.jpg`) } };
    expect(handleBody(7, items, tooMany, false, null)).toEqual({ ok: false, issue: '最多上传20张图片' });
  });
});

describe('schedule preview', () => {
  // Friday 2026-11-27 06:00 in Shanghai (UTC+8).
  const now = Date.UTC(2026, 10, 26, 22, 0);

  it('lists the next 10 due dates of a weekly schedule in the station zone', () => {
    const draft = { kind: 'weekly' as const, weekdays: [1, 3], startDate: '2026-11-01', endDate: null, time: '08:00', dueHours: 24 };
    const { slots, issue } = previewOf(draft, 'Asia/Shanghai', now);
    expect(issue).toBeNull();
    expect(slots.map((s) => s.date)).toEqual([
      '2026-11-30', '2026-12-02', '2026-12-07', '2026-12-09', '2026-12-14', '2026-12-16', '2026-12-21', '2026-12-23', '2026-12-28', '2026-12-30',
    ]);
    expect(slots[0]!.startAt).toBe(Date.UTC(2026, 10, 30, 0, 0));
    expect(slotText(slots[0]!, 'Asia/Shanghai', t)).toBe('2026-11-30 周一 08:00 → 12-01 08:00');
  });

  it('counts days in each station zone: today 08:00 is still ahead in Shanghai, already past in Berlin', () => {
    const daily = { kind: 'daily' as const, startDate: '2026-11-01', endDate: null, time: '08:00', dueHours: 4 };
    expect(previewOf(daily, 'Asia/Shanghai', now, 2).slots.map((s) => s.date)).toEqual(['2026-11-27', '2026-11-28']);
    // 22:00 UTC on the 26th is 23:00 in Berlin: the 26th's 08:00 has passed, the 27th is next.
    expect(previewOf(daily, 'Europe/Berlin', now, 2).slots.map((s) => s.date)).toEqual(['2026-11-27', '2026-11-28']);
    expect(previewOf(daily, 'America/Los_Angeles', now, 1).slots.map((s) => s.date)).toEqual(['2026-11-27']);
  });

  it('stops at the end date and names what is wrong with a schedule', () => {
    const monthly = { kind: 'monthly' as const, day: 31, startDate: '2026-11-01', endDate: '2027-02-28', time: '09:00', dueHours: 8 };
    expect(previewOf(monthly, 'Asia/Shanghai', now).slots.map((s) => s.date)).toEqual(['2026-11-30', '2026-12-31', '2027-01-31', '2027-02-28']);
    expect(previewOf({ ...monthly, endDate: '2026-10-01' }, 'Asia/Shanghai', now)).toEqual({ slots: [], issue: '结束日期不能早于开始日期' });
    expect(previewOf({ kind: 'weekly', weekdays: [], startDate: '2026-11-01', time: '08:00', dueHours: 24 }, 'UTC', now).issue).toBe('请选择星期');
    expect(scheduleBody({ kind: 'interval', everyDays: 3, weekdays: [1], day: 5, startDate: '2026-11-01', endDate: null, time: '08:00', dueHours: 24 })).toEqual({
      kind: 'interval', everyDays: 3, startDate: '2026-11-01', endDate: null, time: '08:00', dueHours: 24,
    });
  });

  it('shows the preview of the chosen station', async () => {
    mockFetch((c) =>
      path(c) === '/configure/site/query/list'
        ? json(envelope([{ id: 1, name: '上海站', code: 'SH01', timeZone: 'Asia/Shanghai', companyId: 1, companyName: 'x', currency: 'CNY', siteType: 'storage' }]))
        : json(envelope(null, 'A0404', '不存在'), 404),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SchedulePreview schedule={{ kind: 'interval', everyDays: 2, startDate: '2026-11-27', endDate: null, time: '08:00', dueHours: 24 }} siteIds={[1]} now={now} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('上海站 (Asia/Shanghai)')).toBeTruthy();
    const slots = screen.getAllByTestId('preview-slot').map((s) => s.textContent);
    expect(slots).toHaveLength(10);
    expect(slots[0]).toBe('1. 2026-11-27 周五 08:00 → 11-28 08:00');
    expect(slots[9]).toContain('2026-12-15');
  });
});

describe('work order list', () => {
  const row = (id: number, status: WorkOrderState): WorkOrderRecord => ({
    id, no: `XJ20261127${String(id).padStart(6, '0')}`, title: '日常巡检', origin: 'plan', planId: 1, planName: '每日巡检', siteId: 1, siteName: '上海站',
    siteCode: 'SH01', timeZone: 'Asia/Shanghai', status, scheduledDate: '2026-11-27', startAt: '2026-11-27T00:00:00Z', dueAt: '2026-11-28T00:00:00Z',
    overdue: false, assigneeId: null, assigneeName: null, openedAt: null, startedAt: null, completedAt: null, closedAt: null, itemCount: 3, doneCount: 1,
    failCount: 0, defectCount: 0, note: null, createdBy: null, createdByName: '系统', createdAt: '2026-11-27T00:00:00Z', updatedAt: '2026-11-27T00:00:00Z',
  });

  it('sends station, status, assignee, date range and overdue filters as the contract asks', () => {
    const start = dayjs('2026-11-01T00:00:00Z');
    const end = dayjs('2026-11-30T00:00:00Z');
    const sent = filtersToBody(orderResource.filters, { siteId: 3, status: 'pending', assigneeId: 7, range: [start, end], overdue: true, keyword: ' XJ ' });
    expect(sent).toEqual({ siteId: 3, status: 'pending', assigneeId: 7, start: start.valueOf(), end: end.valueOf(), overdue: true, keyword: 'XJ' });
    expect(workOrderPage.safeParse({ current: 1, pageSize: 20, ...sent }).success).toBe(true);
  });

  it('puts the search into the page request, and shows allocation and close only where state and permission allow', async () => {
    const srv = mockFetch((c) => {
      const p = path(c);
      if (p === maintenanceEndpoints.orderPage.path) {
        return json(envelope({ records: [row(1, 'toBeAssigned'), row(2, 'processing'), row(3, 'completed')], total: 3, current: 1, pageSize: 20 }));
      }
      return json(envelope([]));
    });
    useUserStore.setState({ permissions: new Set([maintenanceEndpoints.orderPage.path, maintenanceEndpoints.orderAllocation.path, maintenanceEndpoints.orderClose.path]) });
    const { unmount } = render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <WorkOrderPage />
          </MemoryRouter>
        </QueryClientProvider>
      </App>,
    );
    const rowOf = async (id: number) => (await screen.findByText(row(id, 'pending').no, {}, { timeout: 25_000 })).closest('tr')!;
    expect(within(await rowOf(1)).getByTestId('order-allocate')).toBeTruthy();
    expect(within(await rowOf(1)).getByTestId('order-close')).toBeTruthy();
    expect(within(await rowOf(2)).queryByTestId('order-allocate')).toBeNull();
    expect(within(await rowOf(2)).getByTestId('order-close')).toBeTruthy();
    expect(within(await rowOf(3)).queryByTestId('order-close')).toBeNull();

    fireEvent.change(screen.getByLabelText('编号/标题/计划'), { target: { value: ' 日常 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(srv.calls.filter((c) => path(c) === maintenanceEndpoints.orderPage.path).map(body).at(-1)).toMatchObject({ keyword: '日常', current: 1 }));
    unmount();

    // Without the allocation and close permissions, neither shows.
    useUserStore.setState({ permissions: new Set([maintenanceEndpoints.orderPage.path]) });
    render(
      <App>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <WorkOrderPage />
          </MemoryRouter>
        </QueryClientProvider>
      </App>,
    );
    expect(await rowOf(1)).toBeTruthy();
    expect(screen.queryByTestId('order-allocate')).toBeNull();
    expect(screen.queryByTestId('order-close')).toBeNull();
  });
});

describe('overview helpers', () => {
  it('lays a month out in weeks from Monday', () => {
    const weeks = monthWeeks('2026-11');
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(weeks.at(-1)).toEqual(['2026-11-30', null, null, null, null, null, null]);
    expect(weeks).toHaveLength(6);
  });

  it('writes MTTA and MTTR in minutes and hours', () => {
    expect(minutesText(null, t)).toBe('-');
    expect(minutesText(12.5, t)).toBe('12.5分钟');
    expect(minutesText(125, t)).toBe('2小时 5分钟');
    expect(minutesText(120, t)).toBe('2小时');
  });
});
