import { describe, expect, it } from 'vitest';
import { allowedActions, canTransition, nextState, transitionRefusal } from './state-machine.ts';
import { siteStatementAdd, statementDownload, statementEdit, statementMachine, statementPage, STATEMENT_LOCKED } from './statement.ts';

const settings = {
  siteId: 1, investorName: '某投资有限公司', investorUserId: 2, powerUserName: '某工厂', powerUserUserId: 3,
  investorShareRatio: 70, billingDay: 1,
};

describe('statement contract', () => {
  it('share ratio 0–100, two decimals at most; billing day 1–28; parties differ', () => {
    expect(siteStatementAdd.safeParse(settings).success).toBe(true);
    expect(siteStatementAdd.safeParse({ ...settings, investorShareRatio: 62.5 }).success).toBe(true);
    const r = siteStatementAdd.safeParse({ ...settings, investorShareRatio: 101 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('投资方分成比例应在0-100之间');
    expect(siteStatementAdd.safeParse({ ...settings, investorShareRatio: -1 }).success).toBe(false);
    expect(siteStatementAdd.safeParse({ ...settings, investorShareRatio: 33.333 }).success).toBe(false);
    expect(siteStatementAdd.safeParse({ ...settings, billingDay: 29 }).success).toBe(false);
    expect(siteStatementAdd.safeParse({ ...settings, powerUserUserId: 2 }).error?.issues[0]?.message).toBe('投资方确认人与电力用户确认人不能是同一用户');
  });

  it('lifecycle: investor, then power user, then lock; dispute back to draft; locked is final', () => {
    expect(allowedActions(statementMachine, 'draft', [])).toEqual(['recompute']);
    expect(allowedActions(statementMachine, 'draft', ['investor'])).toEqual(['recompute', 'confirmInvestor']);
    expect(canTransition(statementMachine, 'draft', 'confirmPowerUser', ['powerUser'])).toBe(false);
    expect(allowedActions(statementMachine, 'investor_confirmed', ['powerUser'])).toEqual(['confirmPowerUser', 'dispute']);
    expect(allowedActions(statementMachine, 'power_user_confirmed', [])).toEqual(['lock']);
    expect(nextState(statementMachine, 'power_user_confirmed', 'dispute')).toBe('draft');
    expect(allowedActions(statementMachine, 'locked', ['investor', 'powerUser'])).toEqual([]);
    expect(transitionRefusal(statementMachine, 'locked', 'recompute')).toBe(STATEMENT_LOCKED);
    expect(transitionRefusal(statementMachine, 'investor_confirmed', 'recompute')).toBe('当前状态为「投资方已确认」，只有草稿可以重新计算');
  });

  it('edit, download and page inputs', () => {
    expect(statementEdit.parse({ id: 1, action: 'lock', note: '  ' })).toEqual({ id: 1, action: 'lock', note: null });
    expect(statementEdit.safeParse({ id: 1, action: 'approve' }).success).toBe(false);
    expect(statementDownload.parse({ id: '4' })).toEqual({ id: 4, format: 'xlsx' });
    expect(statementDownload.safeParse({ id: '4', format: 'doc' }).success).toBe(false);
    expect(statementPage.safeParse({ monthFrom: '2026-05', monthTo: '2026-04' }).success).toBe(false);
  });
});
