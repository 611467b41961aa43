import { pageRequest, sortRequest } from '@ess/contract/common';
import { endpoint, pageOf } from '@ess/contract/endpoint';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { t, translateBuiltIn, useI18nStore } from '../../platform/i18n/translate.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { readPack } from '../../test/packs.ts';
import { formatDateTime, formatNumber } from '../number-format.ts';
import { renderCell } from './crud.cells.tsx';
import { defineResource } from './crud.define.ts';
import { tableColumns } from './DataTable.tsx';
import { ResourceTable } from './ResourceTable.tsx';
import { readTablePrefs, tablePrefsKey } from './table-prefs.ts';

vi.setConfig({ testTimeout: 30_000 });

interface Item {
  id: number;
  name: string;
  code: string;
}

const item = z.object({ id: z.number() }).loose();
/** The list sorts by name only, as its contract declares. */
const items = defineResource<Item>({
  key: ['test', 'item'],
  name: '条目',
  endpoints: {
    page: endpoint({ method: 'POST', path: '/test/item/query/page', body: pageRequest.extend(sortRequest(['name']).shape), response: pageOf(item) }),
    delete: endpoint({ method: 'GET', path: '/test/item/delete', query: z.object({ id: z.coerce.number() }), response: z.boolean() }),
  },
  columns: [
    { key: 'name', title: '名称' },
    { key: 'code', title: '编码' },
  ],
});

const body = (c: Call) => JSON.parse(c.init.body as string) as Record<string, unknown>;
const pageCalls = (calls: Call[]) => calls.filter((c) => c.url.includes('/test/item/query/page')).map(body);

function server() {
  const data: Item[] = [{ id: 1, name: 'B', code: 'b' }, { id: 2, name: 'A', code: 'a' }, { id: 3, name: 'C', code: 'c' }];
  return mockFetch((c) => {
    const b = body(c) as { sortField?: string; sortOrder?: string; current: number; pageSize: number };
    const rows = b.sortField === 'name' ? [...data].sort((x, y) => x.name.localeCompare(y.name) * (b.sortOrder === 'desc' ? -1 : 1)) : data;
    return json(envelope({ records: rows, total: rows.length, current: b.current, pageSize: b.pageSize }));
  });
}

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <ResourceTable def={items} />
      </App>
    </QueryClientProvider>,
  );
}

/** A wait limit, not a measured time: the first draw is slow when the machine is busy. */
const SLOW = { timeout: 15_000 };
/** Signed in as user `id`, who may make every call of the test list (the delete shows the actions column). */
const signIn = (id: number) => useUserStore.setState({ info: { id } as never, permissions: new Set(['/test/item/query/page', '/test/item/delete']) });
const table = () => document.querySelector('.ant-table')!;
const header = () => [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent ?? '');
const names = () => [...document.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((tr) => tr.querySelector('td')?.textContent);

beforeEach(() => {
  localStorage.clear();
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  signIn(7);
});
afterEach(cleanup);

describe('the shared table: sorting through the server', () => {
  it('makes the declared fields sortable and sends sortField/sortOrder, back to page 1; other columns do not sort', async () => {
    const { calls } = server();
    mount();
    await screen.findByText('B', undefined, SLOW);
    expect(pageCalls(calls)[0]).toEqual({ current: 1, pageSize: 10 });
    const nameHeader = [...document.querySelectorAll('.ant-table-thead th')].find((th) => th.textContent?.includes('名称'))!;
    const codeHeader = [...document.querySelectorAll('.ant-table-thead th')].find((th) => th.textContent?.includes('编码'))!;
    expect(nameHeader.classList.contains('ant-table-column-has-sorters')).toBe(true);
    expect(codeHeader.classList.contains('ant-table-column-has-sorters')).toBe(false);
    fireEvent.click(nameHeader);
    await waitFor(() => expect(pageCalls(calls).at(-1)).toEqual({ current: 1, pageSize: 10, sortField: 'name', sortOrder: 'asc' }), SLOW);
    await waitFor(() => expect(names()).toEqual(['A', 'B', 'C']), SLOW);
    fireEvent.click(nameHeader);
    await waitFor(() => expect(pageCalls(calls).at(-1)).toEqual({ current: 1, pageSize: 10, sortField: 'name', sortOrder: 'desc' }), SLOW);
    await waitFor(() => expect(names()).toEqual(['C', 'B', 'A']), SLOW);
  });
});

describe('the shared table: choices remembered per user', () => {
  it('keeps density and hidden columns in local storage for the user, and another user has their own', async () => {
    server();
    const first = mount();
    await screen.findByText('B', undefined, SLOW);
    fireEvent.click(screen.getByRole('button', { name: '表格密度' }));
    fireEvent.click(await screen.findByText('紧凑'));
    await waitFor(() => expect(table().classList.contains('ant-table-small')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    fireEvent.click(within(await screen.findByRole('tooltip')).getByLabelText('编码'));
    await waitFor(() => expect(header()).not.toContain('编码'));
    expect(JSON.parse(localStorage.getItem(tablePrefsKey('test.item', 7))!)).toEqual({ density: 'small', hidden: ['code'] });
    first.unmount();

    // Back on the page later: as the user left it.
    mount();
    await screen.findByText('B', undefined, SLOW);
    expect(table().classList.contains('ant-table-small')).toBe(true);
    expect(header()).not.toContain('编码');
    cleanup();

    // Another user on the same browser starts from the defaults, and does not change user 7's.
    signIn(8);
    mount();
    await screen.findByText('B', undefined, SLOW);
    expect(table().classList.contains('ant-table-small')).toBe(false);
    expect(header()).toContain('编码');
    expect(readTablePrefs('test.item', 7)).toEqual({ density: 'small', hidden: ['code'] });
    expect(readTablePrefs('test.item', 8)).toEqual({ density: 'large', hidden: [] });
  });

  it('ignores unreadable stored choices', () => {
    localStorage.setItem(tablePrefsKey('x', 1), '{not json');
    expect(readTablePrefs('x', 1)).toEqual({ density: 'large', hidden: [] });
    localStorage.setItem(tablePrefsKey('x', 1), JSON.stringify({ density: 'huge', hidden: ['a', 3] }));
    expect(readTablePrefs('x', 1)).toEqual({ density: 'large', hidden: ['a'] });
  });
});

describe('the shared table: columns in place', () => {
  const cols = [
    { key: 'name', title: 'name', width: 170 },
    { key: 'status', title: 'status', width: 100 },
    { key: 'values', title: 'values', width: 260 },
    { key: 'actions', title: 'actions', width: 200 },
  ];

  it('fixes the first column at the left and the actions at the right, leaving the others to scroll between them', () => {
    const shown = tableColumns(cols, { phone: false, sortFields: ['name'], sort: { field: 'name', order: 'desc' } });
    expect(shown.map((c) => c.fixed)).toEqual(['left', undefined, undefined, 'right']);
    expect(shown.map((c) => c.sorter)).toEqual([true, undefined, undefined, undefined]);
    expect(shown[0]!.sortOrder).toBe('descend');
  });

  it('on a phone the actions column is not fixed, so it never covers the columns between', () => {
    const shown = tableColumns(cols, { phone: true });
    expect(shown.map((c) => c.fixed)).toEqual(['left', undefined, undefined, undefined]);
  });

  /** A screen `width` px wide as antd's breakpoints ask it ("(min-width: 576px)", "(max-width: 575.98px)"). */
  const screenOf = (width: number) => (query: string) => {
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return { matches, media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined,
      addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false };
  };

  const useScreen = (width: number) => {
    const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
    Object.defineProperty(window, 'matchMedia', { configurable: true, value: screenOf(width) });
    onTestFinished(() => {
      if (original) Object.defineProperty(window, 'matchMedia', original);
    });
  };

  it('the resource table scrolls inside its card with the first column fixed and the actions last (1024 px)', async () => {
    useScreen(1024);
    server();
    mount();
    await screen.findByText('B', undefined, SLOW);
    const ths = [...document.querySelectorAll('.ant-table-thead th')];
    expect(ths[0]!.classList.contains('ant-table-cell-fix-left')).toBe(true);
    expect(ths.at(-1)!.textContent).toBe('操作');
    expect(ths.at(-1)!.classList.contains('ant-table-cell-fix-right')).toBe(true);
    expect(ths.slice(1, -1).some((th) => th.className.includes('ant-table-cell-fix'))).toBe(false);
    expect(document.querySelector('.ant-table-content')?.getAttribute('style') ?? '').toContain('overflow');
  });

  it('on a 390 px phone the actions column scrolls with the rest, the first column stays', async () => {
    useScreen(390);
    server();
    mount();
    await screen.findByText('B', undefined, SLOW);
    const ths = [...document.querySelectorAll('.ant-table-thead th')];
    expect(ths[0]!.classList.contains('ant-table-cell-fix-left')).toBe(true);
    expect(ths.at(-1)!.classList.contains('ant-table-cell-fix-right')).toBe(false);
  });
});

describe('one formatter for numbers and dates', () => {
  it('writes numbers as the locale does, with thousands separators', () => {
    expect(formatNumber(19679.54, { locale: 'de-DE' })).toBe('19.679,54');
    expect(formatNumber(19679.54, { locale: 'en-US' })).toBe('19,679.54');
    expect(formatNumber(1234567.891, { locale: 'fr-FR' })).toBe('1\u202f234\u202f567,891');
    expect(formatNumber(12.5, { locale: 'de-DE', decimals: 2 })).toBe('12,50');
    expect(formatNumber(null)).toBe('-');
  });

  it('follows the language the user picked, in list cells too', () => {
    useI18nStore.setState({ locale: 'de-DE' });
    expect(formatNumber(19679.54)).toBe('19.679,54');
    expect(renderCell({ key: 'n', title: 'n', type: 'number' }, { n: 19679.54 }, t)).toBe('19.679,54');
    useI18nStore.setState({ locale: 'en-US' });
    expect(renderCell({ key: 'n', title: 'n', type: 'number' }, { n: 19679.54 }, t)).toBe('19,679.54');
  });

  it('writes dates as the locale does; the default language keeps YYYY-MM-DD HH:mm:ss', () => {
    const at = new Date(2026, 10, 27, 14, 5, 9);
    expect(formatDateTime(at, 'de-DE')).toBe('27.11.2026, 14:05:09');
    expect(formatDateTime(at, 'en-US')).toBe('11/27/2026, 14:05:09');
    expect(formatDateTime(at, 'zh-CN')).toBe('2026-11-27 14:05:09');
    expect(formatDateTime(null, 'de-DE')).toBe('-');
  });
});

describe('plurals and built-in names through the pack', () => {
  it('chooses the plural form for the number (no "1 stations")', () => {
    useI18nStore.setState({ locale: 'en-US', pack: new Map(Object.entries(readPack('en-US'))) });
    expect(t('$1 个站点', 1)).toBe('1 station');
    expect(t('$1 个站点', 3)).toBe('3 stations');
    expect(t('$1 个站点', 0)).toBe('0 stations');
    useI18nStore.setState({ locale: 'de-DE', pack: new Map(Object.entries(readPack('de-DE'))) });
    expect(t('$1 个站点', 1)).toBe('1 Standort');
    expect(t('$1 个站点', 2)).toBe('2 Standorte');
  });

  it('translates built-in roles, seeded product models, parameter names and the demo’s device names; user names stay', () => {
    useI18nStore.setState({ locale: 'de-DE', pack: new Map(Object.entries(readPack('de-DE'))) });
    expect(translateBuiltIn('系统管理员')).toBe('Systemadministrator');
    expect(translateBuiltIn('储能变流器标准模型')).toBe('Batteriewechselrichter Standardmodell');
    expect(translateBuiltIn('2#储能变流器')).toBe('Batteriewechselrichter Nr. 2');
    expect(translateBuiltIn('1#簇3#电池包')).toBe('Cluster 1 Batteriepaket 3');
    expect(translateBuiltIn('关口电表')).toBe('Übergabezähler');
    expect(translateBuiltIn('储能SOC')).not.toBe('储能SOC');
    expect(translateBuiltIn('我的第7号设备')).toBe('我的第7号设备');
    // A list cell of a built-in column (role tags, product and parameter names).
    expect(renderCell({ key: 'name', title: '参数名称', builtIn: true }, { name: '储能变流器标准模型' }, t)).toBe('Batteriewechselrichter Standardmodell');
  });
});
