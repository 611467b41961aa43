import {
  IOT_ERRORS, IOT_PLATFORM_OPTIONS, iotConfigEndpoints, iotQueryEndpoints, iotRelateEndpoints, iotSyncEndpoints, type IotConfigRecord, type IotRelatePropertyRecord,
  type IotSyncDetail,
} from '@ess/contract/iot';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, recordUi, type Call } from '../../test/http.ts';
import { callBody as body, callPath as path, pageTests } from '../../test/page-test.ts';
import { AppConfigPage } from './AppConfigPage.tsx';
import { configBody, type IotConfigForm } from './config.resource.tsx';
import { relationResource } from './relation.resource.tsx';
import { RelationTable } from './RelationTable.tsx';
import { duplicates } from './ValueMapField.tsx';

pageTests();

const page = (records: unknown[]) => ({ records, total: records.length, current: 1, pageSize: 20 });
const callsTo = (calls: Call[], p: string) => calls.filter((c) => path(c) === p);
const allow = (...eps: { path: string }[]) => useUserStore.setState({ permissions: new Set(eps.map((e) => e.path)) });
const AT = '2026-11-29T02:00:00.000Z';

/** Answers by path; an answer that is a Response (a refusal) is sent as it is. */
function serve(answers: Record<string, (c: Call) => unknown>) {
  return mockFetch((c) => {
    const a = answers[path(c)];
    const out = a ? a(c) : page([]);
    return out instanceof Response ? out : json(envelope(out));
  });
}
const refuse = (tipMsg: string) => json({ errorCode: 'A0400', tipMsg, errorMsg: '', data: null }, 406);

function renderAt(url: string, node: ReactNode) {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

const CONFIG: IotConfigRecord = {
  id: 3, companyId: 1, companyName: '华东', name: '集团 JetLinks', platform: 'jetlinks', baseUrl: 'http://127.0.0.1:9000', username: 'ess', passwordSet: true,
  requireApproval: true, enabled: true, remark: null, lastConnectAt: null, lastConnectOk: null, lastConnectReason: null, lastSyncAt: null, productCount: 0, deviceCount: 0,
  createdAt: AT, updatedAt: AT,
};
const PLAN: IotSyncDetail = {
  id: 11, configId: 3, configName: '集团 JetLinks', companyId: 1, scope: 'full', target: null, state: 'planned', added: 1, changed: 1, removed: 1, error: null,
  createdByName: '系统管理员', approvedByName: null, createdAt: AT, appliedAt: null,
  items: [
    { kind: 'product', change: 'added', key: 'bms', name: '电池簇', fields: [] },
    { kind: 'event', change: 'changed', key: 'bms/event/overTemp', name: '过温', fields: [{ field: 'level', before: 'urgent', after: 'warn' }] },
    { kind: 'device', change: 'removed', key: 'jl-9', name: 'BMS-9', fields: [] },
  ],
};

describe('/iot/appConfig', () => {
  it('says how to add a platform when there is none', async () => {
    allow(iotConfigEndpoints.page, iotConfigEndpoints.add);
    serve({ [iotConfigEndpoints.page.path]: () => page([]) });
    renderAt('/iot/appConfig', <AppConfigPage />);
    expect(await screen.findByText(/还没有物联网应用。点击“新增”，选择平台类型/, {}, { timeout: 20_000 })).toBeTruthy();
  });

  it('shows the password as set, never its value, and a failed connection test with its reason', async () => {
    allow(iotConfigEndpoints.page, iotConfigEndpoints.connect);
    const LEAK = 'Jl-Secret-LEAKED';
    const srv = serve({
      [iotConfigEndpoints.page.path]: () => page([{ ...CONFIG, password: LEAK }]),
      [iotConfigEndpoints.connect.path]: () => ({ ok: false, message: '连接失败', reason: 'connect ECONNREFUSED 127.0.0.1:9000', latencyMs: 3 }),
    });
    const { container } = renderAt('/iot/appConfig', <AppConfigPage />);
    const row = (await screen.findByText('集团 JetLinks', {}, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByText('已设置')).toBeTruthy();
    expect(container.textContent).not.toContain(LEAK);
    fireEvent.click(within(row).getByTestId('config-connect'));
    expect((await screen.findAllByTestId('outcome-message'))[0]!.textContent).toBe('连接失败');
    expect(screen.getAllByTestId('outcome-reason')[0]!.textContent).toContain('ECONNREFUSED');
    expect(new URL(callsTo(srv.calls, iotConfigEndpoints.connect.path)[0]!.url, 'http://x').searchParams.get('id')).toBe('3');
  });

  it('syncs as a dry run, shows the diff, and applies it only when approved', async () => {
    allow(iotConfigEndpoints.page, iotSyncEndpoints.full, iotSyncEndpoints.approve, iotSyncEndpoints.discard);
    const srv = serve({
      [iotConfigEndpoints.page.path]: () => page([CONFIG]),
      [iotSyncEndpoints.full.path]: () => PLAN,
      [iotSyncEndpoints.approve.path]: () => ({ ...PLAN, state: 'applied', approvedByName: '系统管理员', appliedAt: AT }),
    });
    renderAt('/iot/appConfig', <AppConfigPage />);
    const row = (await screen.findByText('集团 JetLinks', {}, { timeout: 20_000 })).closest('tr')!;
    fireEvent.click(within(row).getByTestId('config-sync'));
    const diff = await screen.findByTestId('sync-diff');
    expect(within(diff).getByTestId('diff-added')).toBeTruthy();
    expect(within(diff).getByTestId('diff-removed')).toBeTruthy();
    expect(diff.textContent).toContain('urgent → warn');
    expect(screen.getByTestId('sync-planned')).toBeTruthy();
    expect(callsTo(srv.calls, iotSyncEndpoints.approve.path)).toHaveLength(0);
    fireEvent.click(screen.getByTestId('sync-approve'));
    await screen.findByTestId('sync-state-applied');
    expect(body(callsTo(srv.calls, iotSyncEndpoints.approve.path)[0]!)).toEqual({ id: 11 });
    expect(screen.queryByTestId('sync-approve')).toBeNull();
  });

  it('shows the server refusing a stale plan and keeps it waiting', async () => {
    const ui = recordUi();
    allow(iotConfigEndpoints.page, iotSyncEndpoints.full, iotSyncEndpoints.approve);
    serve({
      [iotConfigEndpoints.page.path]: () => page([CONFIG]),
      [iotSyncEndpoints.full.path]: () => PLAN,
      [iotSyncEndpoints.approve.path]: () => refuse(IOT_ERRORS.syncStale),
    });
    renderAt('/iot/appConfig', <AppConfigPage />);
    const row = (await screen.findByText('集团 JetLinks', {}, { timeout: 20_000 })).closest('tr')!;
    fireEvent.click(within(row).getByTestId('config-sync'));
    fireEvent.click(await screen.findByTestId('sync-approve'));
    await waitFor(() => expect(ui.toasts.map((x) => x.text)).toContain(IOT_ERRORS.syncStale));
    expect(screen.getByTestId('sync-state-planned')).toBeTruthy();
    expect(screen.getByTestId('sync-approve')).toBeTruthy();
  });

  it('leaves an empty password out of an edit (the stored one stays) and sends a typed one', () => {
    const v: IotConfigForm = { companyId: 1, name: 'A', platform: 'thingsboard', baseUrl: ' http://tb.example.com ', username: 'u', password: '', requireApproval: true, enabled: true };
    expect(configBody(v, 'edit', 3)).not.toHaveProperty('password');
    expect(configBody(v, 'edit', 3)).toMatchObject({ id: 3, baseUrl: 'http://tb.example.com' });
    expect(configBody({ ...v, password: 'pw' }, 'add')).toMatchObject({ password: 'pw' });
    // Every platform the server offers names the fields the form shows.
    for (const o of IOT_PLATFORM_OPTIONS) expect(o.fields.map((f) => f.name)).toEqual(['baseUrl', 'username', 'password']);
  });
});

const RELATION: IotRelatePropertyRecord = {
  id: 21, configId: 3, companyId: 1, iotProductId: 5, iotProductName: '电池簇', iotDeviceId: null, iotDeviceName: null, productId: 8, productName: 'BMS 标准模型',
  identifier: 'soc', active: true, remark: null, createdAt: AT, updatedAt: AT, iotPropertyId: 41, iotPropertyIdentifier: 'soc_raw', scale: 0.1, offset: 0,
  valueMap: [{ platformValue: '1', status: 1, label: '运行', colour: '#389e0d' }],
};

describe('relations', () => {
  it('marks repeated platform values, statuses, labels and colours of a value map', () => {
    const d = duplicates([
      { platformValue: '1', status: 1, label: '运行', colour: '#00ff00' },
      { platformValue: '1', status: 2, label: '停机', colour: '#00ff00' },
      { platformValue: '3', status: 2, label: '运行' },
    ]);
    expect([...d].sort()).toEqual(['1.colour', '1.platformValue', '2.label', '2.status']);
  });

  it('sends a property relation with the product, the level, scale, offset and value map', () => {
    const toBody = relationResource('property', 5).form!.toBody!;
    expect(toBody({ item: 41, productId: 8, identifier: 'soc', scale: 0.1, offset: 2, valueMap: [], active: true }, 'add')).toEqual({
      iotProductId: 5, iotDeviceId: null, iotPropertyId: 41, productId: 8, identifier: 'soc', active: true, remark: null, scale: 0.1, offset: 2, valueMap: [],
    });
    const device = relationResource('event', 5, 9).form!.toBody!;
    expect(device({ item: 7, productId: 8, identifier: 'overTemp', active: false, valueMap: [] }, 'edit', 4)).toMatchObject({ id: 4, iotDeviceId: 9, iotEventId: 7 });
  });

  it('switches a relation off, and shows the server refusing an edit that takes an identifier already related', async () => {
    const ui = recordUi();
    allow(iotRelateEndpoints.propertyPage, iotRelateEndpoints.propertyOne, iotRelateEndpoints.propertyEdit, iotRelateEndpoints.propertyActive);
    const srv = serve({
      [iotRelateEndpoints.propertyPage.path]: () => page([RELATION]),
      [iotRelateEndpoints.propertyOne.path]: () => RELATION,
      [iotRelateEndpoints.propertyActive.path]: () => ({ id: 21, active: false }),
      [iotRelateEndpoints.propertyEdit.path]: () => refuse(IOT_ERRORS.targetTaken),
      [iotQueryEndpoints.propertyList.path]: () => [{ id: 41, identifier: 'soc_raw', name: 'SOC' }],
      [iotQueryEndpoints.devicePage.path]: () => page([]),
      '/configure/product/query/list': () => [{ id: 8, name: 'BMS 标准模型', code: 'BMS' }],
      '/configure/property/query/list': () => [{ identifier: 'soc', name: 'SOC' }],
    });
    renderAt('/iot/productDetail?id=5', <RelationTable kind="property" iotProductId={5} />);
    const row = (await screen.findByText('soc_raw', {}, { timeout: 20_000 })).closest('tr')!;
    expect(body(callsTo(srv.calls, iotRelateEndpoints.propertyPage.path)[0]!)).toMatchObject({ iotProductId: 5 });
    expect(row.textContent).toContain('× 0.1 + 0');
    expect(row.textContent).toContain('1 → 1 运行');
    fireEvent.click(within(row).getByTestId('relation-active'));
    await waitFor(() => expect(callsTo(srv.calls, iotRelateEndpoints.propertyActive.path)).toHaveLength(1));

    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const save = await screen.findByRole('button', { name: /保\s*存/ }, { timeout: 20_000 });
    await waitFor(() => expect(callsTo(srv.calls, iotRelateEndpoints.propertyOne.path)).toHaveLength(1));
    await screen.findByDisplayValue('0.1');
    fireEvent.click(save);
    await waitFor(() => expect(ui.toasts.map((x) => x.text)).toContain(IOT_ERRORS.targetTaken), { timeout: 20_000 });
    expect(body(callsTo(srv.calls, iotRelateEndpoints.propertyEdit.path)[0]!)).toMatchObject({
      id: 21, iotProductId: 5, iotPropertyId: 41, productId: 8, identifier: 'soc', scale: 0.1, valueMap: [{ platformValue: '1', status: 1, label: '运行', colour: '#389e0d' }],
    });
  });
});
