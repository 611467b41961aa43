import { describe, expect, it } from 'vitest';
import {
  allowedActions, canTransition, lastScheduleDate, nextDueDates, planMachine, planSchedule, repairAcceptance, repairHandle, repairMachine,
  scheduleDates, workOrderClose, workOrderMachine, type PlanScheduleInput,
} from './index.ts';

const s = (v: PlanScheduleInput) => planSchedule.parse(v);
const iso = (ms: number) => new Date(ms).toISOString();

describe('plan schedules', () => {
  it('dates of each kind: daily, weekly on chosen weekdays, monthly (a missing day is the month end), every N days', () => {
    expect(scheduleDates(s({ kind: 'daily', startDate: '2026-11-01', endDate: '2026-11-03' }), '2026-10-01', 5)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(scheduleDates(s({ kind: 'weekly', weekdays: [3, 1], startDate: '2026-11-01' }), '2026-11-20', 4)).toEqual(['2026-11-23', '2026-11-25', '2026-11-30', '2026-12-02']);
    expect(scheduleDates(s({ kind: 'monthly', day: 31, startDate: '2026-01-01' }), '2026-01-01', 4)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(scheduleDates(s({ kind: 'interval', everyDays: 3, startDate: '2026-11-01' }), '2026-11-20', 3)).toEqual(['2026-11-22', '2026-11-25', '2026-11-28']);
  });

  it('the latest date at or before a day, after the last generated one', () => {
    const daily = s({ kind: 'daily', startDate: '2026-10-01' });
    expect(lastScheduleDate(daily, '2026-10-20', '2026-10-10')).toBe('2026-10-20');
    expect(lastScheduleDate(daily, '2026-10-10', '2026-10-10')).toBeNull();
    expect(lastScheduleDate(s({ kind: 'weekly', weekdays: [1], startDate: '2026-10-01' }), '2026-10-22', '2026-10-05')).toBe('2026-10-19');
  });

  it('the next due slots in the station’s zone, today’s only while it has not started, across a DST change', () => {
    const weekly = s({ kind: 'weekly', weekdays: [1, 3], startDate: '2026-11-01', time: '08:00', dueHours: 24 });
    const now = Date.parse('2026-11-30T01:00:00Z');
    // Monday 09:00 in Shanghai: today's slot has started.
    expect(nextDueDates(weekly, now, 2, 'Asia/Shanghai').map((x) => [x.date, iso(x.startAt), iso(x.dueAt)])).toEqual([
      ['2026-12-02', '2026-12-02T00:00:00.000Z', '2026-12-03T00:00:00.000Z'],
      ['2026-12-07', '2026-12-07T00:00:00.000Z', '2026-12-08T00:00:00.000Z'],
    ]);
    // Sunday 17:00 in Los Angeles: Monday's slot is next.
    expect(nextDueDates(weekly, now, 1, 'America/Los_Angeles').map((x) => [x.date, iso(x.startAt)])).toEqual([['2026-11-30', '2026-11-30T16:00:00.000Z']]);
    // 8 March 2026: clocks go forward in Los Angeles; 08:00 is PDT.
    const daily = s({ kind: 'daily', startDate: '2026-03-01', time: '08:00' });
    expect(iso(nextDueDates(daily, Date.parse('2026-03-08T09:00:00Z'), 1, 'America/Los_Angeles')[0]!.startAt)).toBe('2026-03-08T15:00:00.000Z');
    expect(nextDueDates(daily, Date.parse('2026-03-08T09:00:00Z'), 10, 'Asia/Shanghai')).toHaveLength(10);
  });

  it('refuses a schedule ending before it starts, no weekday, a bad time', () => {
    expect(planSchedule.safeParse({ kind: 'daily', startDate: '2026-11-01', endDate: '2026-10-01' }).error?.issues[0]?.message).toBe('结束日期不能早于开始日期');
    expect(planSchedule.safeParse({ kind: 'weekly', weekdays: [], startDate: '2026-11-01' }).success).toBe(false);
    expect(planSchedule.safeParse({ kind: 'daily', startDate: '2026-11-01', time: '24:00' }).success).toBe(false);
  });
});

describe('maintenance state machines (product-spec §4)', () => {
  it('plans: start only from stopped, stop only from executing or pending; the system activates, pauses and expires', () => {
    expect(allowedActions(planMachine, 'stopped')).toEqual(['start']);
    expect(allowedActions(planMachine, 'executing')).toEqual(['stop']);
    expect(allowedActions(planMachine, 'pending')).toEqual(['stop']);
    expect(allowedActions(planMachine, 'pending', ['system'])).toEqual(['stop', 'activate', 'pause', 'expire']);
  });

  it('work orders: allocation only from to be assigned; close from to be assigned, pending or processing; handling by the assignee', () => {
    expect(workOrderMachine.states.filter((st) => canTransition(workOrderMachine, st, 'allocate'))).toEqual(['toBeAssigned']);
    expect(workOrderMachine.states.filter((st) => canTransition(workOrderMachine, st, 'close'))).toEqual(['toBeAssigned', 'pending', 'processing']);
    expect(allowedActions(workOrderMachine, 'pending')).toEqual(['close']);
    expect(allowedActions(workOrderMachine, 'pending', ['assignee'])).toEqual(['handle', 'complete', 'close']);
    expect(allowedActions(workOrderMachine, 'completed', ['assignee'])).toEqual([]);
  });

  it('repair orders: dispatch, check in, handle, accept or reject back to processing', () => {
    expect(allowedActions(repairMachine, 'toBeDispatched')).toEqual(['allocate', 'close']);
    expect(allowedActions(repairMachine, 'pending', ['assignee'])).toEqual(['checkIn', 'close']);
    expect(allowedActions(repairMachine, 'toBeAccepted')).toEqual(['accept', 'reject']);
    expect(repairMachine.transitions.reject.to).toBe('processing');
  });

  it('notes at most 200 characters; a repair ends after it starts; a rejection needs a reason', () => {
    expect(workOrderClose.safeParse({ id: 1, note: 'x'.repeat(200) }).success).toBe(true);
    expect(workOrderClose.safeParse({ id: 1, note: 'x'.repeat(201) }).error?.issues[0]?.message).toBe('备注不能超过200个字符');
    expect(repairHandle.safeParse({ id: 1, workDone: 'w', startAt: '2026-11-27T10:00:00Z', endAt: '2026-11-27T09:00:00Z' }).error?.issues[0]?.message).toBe('结束时间须晚于开始时间');
    expect(repairAcceptance.safeParse({ id: 1, pass: false }).error?.issues[0]?.message).toBe('驳回时须填写原因');
    expect(repairAcceptance.safeParse({ id: 1, pass: true }).success).toBe(true);
  });
});
