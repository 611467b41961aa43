import type { AlarmDictRecord } from '@ess/contract/alarm';
import type { CompanyRow } from '@ess/contract/system';
import type { ParamRecord } from '@ess/contract/site';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceTable } from '../components/crud/index.ts';
import { useI18nStore } from '../platform/i18n/translate.ts';
import { envelope, json, mockFetch, type Call } from '../test/http.ts';
import { dictResource } from './alarm/dict.resource.tsx';
import { paramResource } from './site/product-config.resource.tsx';
import { companyResource } from './system/company.resource.tsx';

/**
 * The tables sorted in issue 16 §3's second round send the column chosen to their list query:
 * a page (the alarm dictionary), a flat list (parameters) and a tree (companies, whose siblings
 * the server sorts within each level). The server's side: platform/http/list-sort.test.ts.
 */

vi.setConfig({ testTimeout: 30_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

const SLOW = { timeout: 15_000 };
const path = (c: Call) => c.url.replace(/^\/api\/manager/, '').replace(/\?.*$/, '');
const body = (c: Call) => JSON.parse((c.init.body as string | undefined) ?? '{}') as Record<string, unknown>;
const callsTo = (calls: Call[], p: string) => calls.filter((c) => path(c) === p).map(body);
const header = (title: string) => [...document.querySelectorAll('.ant-table-thead th')].find((th) => th.textContent?.includes(title))!;
const firstCells = () => [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((tr) => tr.querySelectorAll('td')[0]?.textContent);

type Sortable = Record<string, string | number | null>;
/** Rows sorted as the server would, by the request's field and order. */
function sorted<R>(rows: R[], b: Record<string, unknown>): R[] {
  const field = b.sortField as string | undefined;
  if (!field) return rows;
  const dir = b.sortOrder === 'desc' ? -1 : 1;
  return [...rows].sort((x, y) => {
    const a = (x as Sortable)[field] ?? '';
    const c = (y as Sortable)[field] ?? '';
    return (a < c ? -1 : a > c ? 1 : 0) * dir;
  });
}

function mount(node: React.ReactNode) {
  return render(
    <App>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </App>,
  );
}

const dictRow = (id: number, level: number, description: string): AlarmDictRecord => ({
  id, productId: null, productName: null, productCode: null, deviceType: 'pcs', kind: 'event', eventCode: `E${id}`, identifier: null,
  targetName: null, unit: null, operator: null, threshold: null, clearValue: null, level: level as 1, alarmType: 'deviceFault', description,
  enabled: true, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
});

const paramRow = (id: number, identifier: string): ParamRecord => ({
  id, productId: 1, productCode: 'P1', productName: 'PCS-100', productType: 'pcs', identifier, name: `参数 ${identifier}`, dataType: 'float', unit: 'kW',
  min: null, max: null, enumValues: null,
});

const companyRow = (id: number, parentId: number | null, name: string): CompanyRow & { children: unknown[] } => ({
  id, parentId, parentName: null, path: `/${id}/`, name, code: null, contact: null, phone: null, email: null, regionCode: null, address: null,
  remark: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', children: [],
});

describe('sorting the tables through their list query', () => {
  it('the alarm dictionary sends the level column to its page query, both ways, and draws the answer', async () => {
    const rows = [dictRow(1, 3, '过压'), dictRow(2, 1, '过温'), dictRow(3, 2, '通信中断')];
    const { calls } = mockFetch((c) => {
      const b = body(c);
      if (path(c) === '/alarm/dict/query/page') return json(envelope({ records: sorted(rows, b), total: 3, current: 1, pageSize: 10 }));
      return json(envelope([]));
    });
    mount(<ResourceTable def={dictResource} />);
    await screen.findByText('过压', undefined, SLOW);
    expect(callsTo(calls, '/alarm/dict/query/page')[0]).not.toHaveProperty('sortField');
    // Columns composed for the reader (target, rule) do not sort; the declared ones do.
    expect(header('适用对象').classList.contains('ant-table-column-has-sorters')).toBe(false);
    fireEvent.click(header('告警等级'));
    await waitFor(() => expect(callsTo(calls, '/alarm/dict/query/page').at(-1)).toMatchObject({ current: 1, sortField: 'level', sortOrder: 'asc' }), SLOW);
    await waitFor(() => expect(screen.getAllByText(/^(过压|过温|通信中断)$/).map((e) => e.textContent)).toEqual(['过温', '通信中断', '过压']), SLOW);
    fireEvent.click(header('告警等级'));
    await waitFor(() => expect(callsTo(calls, '/alarm/dict/query/page').at(-1)).toMatchObject({ sortField: 'level', sortOrder: 'desc' }), SLOW);
    await waitFor(() => expect(screen.getAllByText(/^(过压|过温|通信中断)$/).map((e) => e.textContent)).toEqual(['过压', '通信中断', '过温']), SLOW);
  });

  it('the parameters (a flat list) send the identifier column to their list query', async () => {
    const rows = [paramRow(1, 'powerLimit'), paramRow(2, 'activePower'), paramRow(3, 'socMax')];
    const { calls } = mockFetch((c) => {
      if (path(c) === '/configure/param/query/list') return json(envelope(sorted(rows, body(c))));
      return json(envelope([]));
    });
    mount(<ResourceTable def={paramResource} />);
    await screen.findByText('powerLimit', undefined, SLOW);
    fireEvent.click(header('标识符'));
    await waitFor(() => expect(callsTo(calls, '/configure/param/query/list').at(-1)).toMatchObject({ sortField: 'identifier', sortOrder: 'asc' }), SLOW);
    await waitFor(() => expect(screen.getAllByText(/^(powerLimit|activePower|socMax)$/).map((e) => e.textContent)).toEqual(['activePower', 'powerLimit', 'socMax']), SLOW);
  });

  it('the company tree sends the name column to its tree query and shows each level as answered', async () => {
    const tree = (b: Record<string, unknown>) => {
      const root = companyRow(1, null, '集团');
      root.children = sorted([companyRow(3, 1, '华南'), companyRow(2, 1, '华东'), companyRow(4, 1, '西北')], b);
      return [root];
    };
    const { calls } = mockFetch((c) => {
      if (path(c) === '/system/company/query/tree') return json(envelope(tree(body(c))));
      return json(envelope([]));
    });
    mount(<ResourceTable def={companyResource} />);
    await screen.findByText('华南', undefined, SLOW);
    expect(firstCells()).toEqual(['集团', '华南', '华东', '西北']);
    fireEvent.click(header('公司名称'));
    await waitFor(() => expect(callsTo(calls, '/system/company/query/tree').at(-1)).toEqual({ sortField: 'name', sortOrder: 'asc' }), SLOW);
    fireEvent.click(header('公司名称'));
    await waitFor(() => expect(callsTo(calls, '/system/company/query/tree').at(-1)).toEqual({ sortField: 'name', sortOrder: 'desc' }), SLOW);
    const desc = sorted([{ name: '华南' }, { name: '华东' }, { name: '西北' }], { sortField: 'name', sortOrder: 'desc' }).map((r) => r.name);
    await waitFor(() => expect(firstCells()).toEqual(['集团', ...desc]), SLOW);
  });
});
