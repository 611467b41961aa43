import { maintenanceEndpoints, type RepairAutoRuleRecord } from '@ess/contract/maintenance';
import { companyEndpoints } from '@ess/contract/system';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { AutoRuleButton, autoRuleBody } from './AutoRuleModal.tsx';

vi.setConfig({ testTimeout: 60_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

/** The calls the panel made to one endpoint, and the JSON body of each. */
const sentTo = (calls: Call[], endpoint: { path: string }) =>
  calls.filter((c) => c.url.split('?')[0]!.endsWith(endpoint.path)).map((c) => JSON.parse(c.init.body as string) as Record<string, unknown>);

const mount = () =>
  render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <AutoRuleButton />
      </QueryClientProvider>
    </App>,
  );

const signedIn = (permissions: string[]) =>
  useUserStore.setState({ info: { companyId: 7 } as never, permissions: new Set(permissions) });

describe('automatic repair orders: the rule panel on /repair/order', () => {
  it('is offered only to a user who may set the rule', () => {
    signedIn([maintenanceEndpoints.repairPage.path, maintenanceEndpoints.repairAutoRuleOne.path]);
    mount();
    expect(screen.queryByTestId('auto-rule-open')).toBeNull();
  });

  it("shows the caller's company's rule (the default) and saves the edited one", async () => {
    signedIn([maintenanceEndpoints.repairAutoRuleOne.path, maintenanceEndpoints.repairAutoRuleEdit.path]);
    const rule: RepairAutoRuleRecord = { companyId: 7, enabled: true, maxLevel: 2, openMinutes: 10, custom: false, updatedByName: null, updatedAt: null };
    const srv = mockFetch((c) => {
      if (c.url.endsWith(maintenanceEndpoints.repairAutoRuleOne.path)) return json(envelope(rule));
      if (c.url.endsWith(companyEndpoints.tree.path)) return json(envelope([{ id: 7, name: '华东公司', parentId: 1, children: [] }]));
      return json(envelope(true));
    });
    mount();
    fireEvent.click(screen.getByTestId('auto-rule-open'));
    const form = await screen.findByTestId('auto-rule-form', {}, { timeout: 25_000 });
    expect(screen.getByTestId('auto-rule-origin').textContent).toBe('未设置，使用默认规则');
    expect(within(form).getByTestId('auto-rule-level')).toHaveProperty('value', '2');
    expect(within(form).getByTestId('auto-rule-minutes')).toHaveProperty('value', '10');
    expect(sentTo(srv.calls, maintenanceEndpoints.repairAutoRuleOne)).toEqual([{ companyId: 7 }]);

    fireEvent.change(within(form).getByTestId('auto-rule-level'), { target: { value: '3' } });
    fireEvent.change(within(form).getByTestId('auto-rule-minutes'), { target: { value: '5' } });
    fireEvent.click(within(form).getByTestId('auto-rule-enabled'));
    fireEvent.click(screen.getByTestId('auto-rule-ok'));
    await waitFor(() => expect(sentTo(srv.calls, maintenanceEndpoints.repairAutoRuleEdit)).toEqual([{ companyId: 7, enabled: false, maxLevel: 3, openMinutes: 5 }]));
  });

  it('checks the values with the contract before sending: level 1-4, 1-1440 minutes', () => {
    expect(autoRuleBody(7, { enabled: true, maxLevel: 4, openMinutes: 1440 })).toEqual({ ok: true, body: { companyId: 7, enabled: true, maxLevel: 4, openMinutes: 1440 } });
    expect(autoRuleBody(7, { enabled: true, maxLevel: 5, openMinutes: 10 })).toEqual({ ok: false, issue: '等级上限应为1-4' });
    expect(autoRuleBody(7, { enabled: true, maxLevel: 0, openMinutes: 10 })).toEqual({ ok: false, issue: '等级上限应为1-4' });
    expect(autoRuleBody(7, { enabled: true, maxLevel: 2, openMinutes: 0 })).toEqual({ ok: false, issue: '持续分钟数应为1-1440' });
    expect(autoRuleBody(7, { enabled: true, maxLevel: 2, openMinutes: 1441 })).toEqual({ ok: false, issue: '持续分钟数应为1-1440' });
    expect(autoRuleBody(7, { maxLevel: 2, openMinutes: 10 })).toEqual({ ok: true, body: { companyId: 7, enabled: false, maxLevel: 2, openMinutes: 10 } });
  });
});
