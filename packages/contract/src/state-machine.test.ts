import { describe, expect, it } from 'vitest';
import { siteHandleMachine } from './comprehensive.ts';
import { allowedActions, canTransition, defineStateMachine, nextState, transitionRefusal } from './state-machine.ts';

const order = defineStateMachine({
  name: 'test.order',
  states: ['open', 'assigned', 'done'] as const,
  stateLabels: { open: '待派单', assigned: '已派单', done: '已完成' },
  actionLabels: { assign: '派单', finish: '完成', comment: '备注' },
  transitions: {
    assign: { from: ['open'], to: 'assigned' },
    finish: { from: ['assigned'], to: 'done', who: ['assignee'] },
    comment: { from: ['open', 'assigned', 'done'], to: 'same' },
  },
});

describe('state machines', () => {
  it('allow an action from its states only, and to the roles it names', () => {
    expect(allowedActions(order, 'open')).toEqual(['assign', 'comment']);
    expect(allowedActions(order, 'assigned')).toEqual(['comment']);
    expect(allowedActions(order, 'assigned', ['assignee'])).toEqual(['finish', 'comment']);
    expect(canTransition(order, 'done', 'assign')).toBe(false);
  });

  it('lead to the next state, or keep it', () => {
    expect(nextState(order, 'open', 'assign')).toBe('assigned');
    expect(nextState(order, 'done', 'comment')).toBe('done');
  });

  it('refuse naming the current state, unless the machine words it itself', () => {
    expect(transitionRefusal(order, 'done', 'assign')).toBe('当前状态为「已完成」，不能派单');
    expect(transitionRefusal(siteHandleMachine, 'maintenance', 'maintenanceStart')).toBe('站点已在检修中');
    expect(transitionRefusal(siteHandleMachine, 'normal', 'maintenanceEnd')).toBe('站点不在检修中');
  });

  it('the station handle table: acknowledge always, maintenance start and end by turns', () => {
    expect(allowedActions(siteHandleMachine, 'normal')).toEqual(['acknowledge', 'maintenanceStart']);
    expect(allowedActions(siteHandleMachine, 'maintenance')).toEqual(['acknowledge', 'maintenanceEnd']);
  });
});
