import { idBody, idQuery, optionalText, trimmed } from '@ess/contract/common';
import { created, done, endpoint, FILE, pageOf } from '@ess/contract/endpoint';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { deferred, envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { defineResource } from './crud.define.ts';
import { ResourceTable } from './ResourceTable.tsx';

vi.setConfig({ testTimeout: 30_000 });

interface Group {
  id: number;
  name: string;
  code: string | null;
  enabled: boolean;
  createdAt: string;
  children?: Group[];
}
/** The test endpoints' record (the table renders whatever the mock answers). */
const group = z.object({ id: z.number() }).loose();

const groupAdd = z.object({ name: trimmed(8), code: optionalText(4), level: z.number().int() });
const groupEdit = groupAdd.extend({ id: z.number(), level: z.number().int().optional() });

const ENABLED = [
  { value: true, label: '启用', color: 'success' },
  { value: false, label: '停用', color: 'default' },
] as const;

const groups = defineResource<Group, { name: string; code?: string; level?: number }>({
  key: ['test', 'group'],
  name: '分组',
  endpoints: {
    page: endpoint({ method: 'POST', path: '/test/group/query/page', body: z.object({}).loose(), response: pageOf(group) }),
    one: endpoint({ method: 'POST', path: '/test/group/query/one', body: idBody, response: group }),
    add: endpoint({ method: 'POST', path: '/test/group/add', body: z.object({}).loose(), response: created }),
    edit: endpoint({ method: 'POST', path: '/test/group/edit', body: z.object({}).loose(), response: done }),
    delete: endpoint({ method: 'GET', path: '/test/group/delete', query: idQuery, response: done }),
    export: endpoint({ method: 'POST', path: '/test/group/export', body: z.object({}).loose(), response: FILE }),
    import: endpoint({ method: 'POST', path: '/test/group/import', multipart: true, response: done }),
  },
  columns: [
    { key: 'name', title: '名称' },
    { key: 'code', title: '编码' },
    { key: 'enabled', title: '状态', type: 'enum', options: ENABLED },
    { key: 'createdAt', title: '创建时间', type: 'datetime' },
  ],
  filters: [
    { key: 'name', title: '名称' },
    { key: 'enabled', title: '状态', type: 'enum', options: ENABLED },
  ],
  form: {
    fields: [
      { name: 'name', label: '名称', required: true },
      { name: 'code', label: '编码' },
      // A required field whose value is a number, not text.
      {
        name: 'level', label: '级别', type: 'radio', required: true, modes: ['add'],
        options: [{ value: 1, label: '一级' }, { value: 2, label: '二级' }],
      },
    ],
    schemas: { add: groupAdd, edit: groupEdit },
  },
  exportName: '分组.xlsx',
});

const row = (id: number, extra: Partial<Group> = {}): Group => ({
  id, name: `分组${id}`, code: null, enabled: id % 2 === 1, createdAt: '2024-05-01T08:00:00.000Z', ...extra,
});

const body = (c: Call) => JSON.parse(c.init.body as string) as Record<string, unknown>;
const path = (c: Call) => c.url.replace(/^\/api\/manager/, '').replace(/\?.*$/, '');

/** A server holding 12 groups, paging and filtering by name like the real ones. */
function server() {
  let data = Array.from({ length: 12 }, (_, i) => row(i + 1));
  return mockFetch((c) => {
    const p = path(c);
    if (p === '/test/group/query/page') {
      const b = body(c) as { current: number; pageSize: number; name?: string; enabled?: boolean };
      const hits = data.filter((g) => (!b.name || g.name.includes(b.name)) && (b.enabled === undefined || g.enabled === b.enabled));
      return json(envelope({ records: hits.slice((b.current - 1) * b.pageSize, b.current * b.pageSize), total: hits.length, current: b.current, pageSize: b.pageSize }));
    }
    if (p === '/test/group/query/one') return json(envelope(data.find((g) => g.id === body(c).id)));
    if (p === '/test/group/add') {
      data = [row(99, { name: String(body(c).name) }), ...data];
      return json(envelope({ id: 99 }));
    }
    if (p === '/test/group/edit') return json(envelope(true));
    if (p === '/test/group/delete') {
      data = data.filter((g) => String(g.id) !== new URL(c.url, 'http://x').searchParams.get('id'));
      return json(envelope(true));
    }
    if (p === '/test/group/import') return json(envelope({ imported: 3 }));
    if (p === '/test/group/export') {
      return new Response(new Uint8Array([80, 75, 3, 4]), {
        status: 200,
        headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'content-disposition': "attachment; filename*=UTF-8''%E5%88%86%E7%BB%84.xlsx" },
      });
    }
    return json(envelope(null, 'A0404', '不存在'), 404);
  });
}

function mount(ui = <ResourceTable def={groups} />) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>{ui}</App>
    </QueryClientProvider>,
  );
}

const pageCalls = (calls: Call[]) => calls.filter((c) => path(c) === '/test/group/query/page').map(body);

/** Every call of the test resources: the user may do everything unless a test says otherwise. */
const ALL = new Set(['query/page', 'query/one', 'add', 'edit', 'delete', 'export', 'import'].map((p) => `/test/group/${p}`));

beforeEach(() => {
  localStorage.clear();
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  useUserStore.setState({ permissions: ALL });
});
afterEach(cleanup);

describe('ResourceTable: actions by permission', () => {
  it('shows add, edit, delete, import and export only when the user may make the call behind each', async () => {
    server();
    // A read-only user: the list and the detail, nothing else.
    useUserStore.setState({ permissions: new Set([groups.endpoints.page!.path, groups.endpoints.one!.path]) });
    const view = mount();
    await screen.findByText('分组1');
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*入/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull();
    expect(screen.queryAllByRole('button', { name: /编\s*辑/ })).toHaveLength(0);
    expect(screen.queryAllByRole('button', { name: /删\s*除/ })).toHaveLength(0);
    expect(screen.getAllByRole('button', { name: /详\s*情/ }).length).toBeGreaterThan(0);
    view.unmount();

    // Granted export and delete only: exactly those appear.
    useUserStore.setState({ permissions: new Set([groups.endpoints.page!.path, groups.endpoints.export!.path, groups.endpoints.delete!.path]) });
    mount();
    await screen.findByText('分组1');
    expect(await screen.findByRole('button', { name: /导\s*出/ })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /删\s*除/ }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /新\s*增/ })).toBeNull();
    expect(screen.queryAllByRole('button', { name: /编\s*辑/ })).toHaveLength(0);
  });
});

describe('ResourceTable: list', () => {
  it('is drawn once the first page is in, not empty before it, and stays drawn while a search is fetched', async () => {
    const first = deferred<Response>();
    const later = deferred<Response>();
    let n = 0;
    const { calls } = mockFetch(() => (n++ === 0 ? first.promise : later.promise));
    mount();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.getByRole('status', { name: 'Loading...' })).toBeTruthy();
    expect(document.querySelector('.ant-table')).toBeNull();
    expect(screen.queryByLabelText('名称')).toBeNull();
    first.resolve(json(envelope({ records: [row(1)], total: 1, current: 1, pageSize: 10 })));
    expect(await screen.findByText('分组1')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading...' })).toBeNull();
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '无' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls).toHaveLength(2));
    // The search's answer is on its way: the form and the last rows stay.
    expect(screen.getByLabelText('名称')).toBeTruthy();
    expect(screen.getByText('分组1')).toBeTruthy();
    later.resolve(json(envelope({ records: [], total: 0, current: 1, pageSize: 10 })));
    await waitFor(() => expect(screen.queryByText('分组1')).toBeNull());
    expect(screen.getByLabelText('名称')).toBeTruthy();
  });

  it('asks for the first page, shows its records with enum labels and the total; pages through the server', async () => {
    const { calls } = server();
    mount();
    expect(await screen.findByText('分组1')).toBeTruthy();
    expect(pageCalls(calls)[0]).toEqual({ current: 1, pageSize: 10 });
    // The pager is drawn in a turn after the table (components/Deferred.tsx).
    expect(await screen.findByText('共 12 条')).toBeTruthy();
    expect(screen.getAllByText('启用').length).toBeGreaterThan(0);
    expect(screen.queryByText('分组11')).toBeNull();
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('分组11')).toBeTruthy();
    expect(pageCalls(calls).at(-1)).toEqual({ current: 2, pageSize: 10 });
  });

  it('searches with the filters as request fields and goes back to page 1; reset clears them', async () => {
    const { calls } = server();
    mount();
    await screen.findByText('分组1');
    fireEvent.click(await screen.findByTitle('2'));
    await screen.findByText('分组11');
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: ' 分组1 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(pageCalls(calls).at(-1)).toEqual({ current: 1, pageSize: 10, name: '分组1' }));
    expect(await screen.findByText('共 4 条')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(pageCalls(calls).at(-1)).toEqual({ current: 1, pageSize: 10 }));
  });

  it('refreshes from the toolbar', async () => {
    const { calls } = server();
    mount();
    await screen.findByText('分组1');
    const before = pageCalls(calls).length;
    fireEvent.click(screen.getByRole('button', { name: '刷新' }));
    await waitFor(() => expect(pageCalls(calls).length).toBe(before + 1));
  });
});

describe('ResourceTable: table options', () => {
  it('changes the row density and hides and shows columns', async () => {
    server();
    mount();
    await screen.findByText('分组1');
    const table = () => document.querySelector('.ant-table')!;
    expect(table().classList.contains('ant-table-small')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: '表格密度' }));
    fireEvent.click(await screen.findByText('紧凑'));
    await waitFor(() => expect(table().classList.contains('ant-table-small')).toBe(true));

    const header = () => [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    expect(header()).toContain('编码');
    fireEvent.click(screen.getByRole('button', { name: '列设置' }));
    const settings = await screen.findByRole('tooltip');
    fireEvent.click(within(settings).getByLabelText('编码'));
    await waitFor(() => expect(header()).not.toContain('编码'));
    expect(header()).toContain('名称');
    fireEvent.click(within(settings).getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(header()).toContain('编码'));
    fireEvent.click(within(settings).getByLabelText('全选'));
    await waitFor(() => expect(header()).not.toContain('名称'));
    // The row actions stay.
    expect(header()).toContain('操作');
  });
});

describe('ResourceTable: form', () => {
  it('refuses an empty required field with "{field}不能为空" and a too long one with its limit; sends nothing', async () => {
    const { calls } = server();
    mount();
    await screen.findByText('分组1');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('新增分组')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('编码'), { target: { value: 'ABCDEFG' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('名称不能为空')).toBeTruthy();
    expect(await within(dialog).findByText('编码最多4个字符')).toBeTruthy();
    expect(await within(dialog).findByText('级别不能为空')).toBeTruthy();
    expect(calls.filter((c) => path(c) === '/test/group/add')).toEqual([]);
  });

  it('adds a record, then the list is fetched again (its keys invalidated) and shows it', async () => {
    const { calls } = server();
    mount();
    await screen.findByText('分组1');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: ' 新分组 ' } });
    fireEvent.click(within(dialog).getByText('二级'));
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => path(c) === '/test/group/add')).toBe(true));
    expect(body(calls.find((c) => path(c) === '/test/group/add')!)).toEqual({ name: ' 新分组 ', level: 2 });
    expect(screen.queryByText('级别不能为空')).toBeNull();
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(await screen.findByText('新分组')).toBeTruthy();
    expect(screen.getByText('共 13 条')).toBeTruthy();
  });

  it('edits a record loaded with the one endpoint and sends its id', async () => {
    const { calls } = server();
    mount();
    await screen.findByText('分组3');
    fireEvent.click(screen.getAllByRole('button', { name: /编\s*辑/ })[2]!);
    const dialog = await screen.findByRole('dialog');
    const name = await within(dialog).findByLabelText('名称');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('分组3'));
    expect(body(calls.find((c) => path(c) === '/test/group/query/one')!)).toEqual({ id: 3 });
    fireEvent.change(name, { target: { value: '三组' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(calls.some((c) => path(c) === '/test/group/edit')).toBe(true));
    expect(body(calls.find((c) => path(c) === '/test/group/edit')!)).toEqual({ id: 3, name: '三组', code: null });
  });
});

describe('ResourceTable: delete, detail, export, import', () => {
  it('deletes only after confirmation, with GET ?id=, and reloads the page', async () => {
    const { calls } = server();
    mount();
    await screen.findByText('分组2');
    fireEvent.click(screen.getAllByRole('button', { name: /删\s*除/ })[1]!);
    expect(await screen.findByText('确定删除该分组吗？')).toBeTruthy();
    expect(calls.some((c) => path(c) === '/test/group/delete')).toBe(false);
    const confirm = screen.getAllByRole('button', { name: /删\s*除/ }).find((b) => b.closest('.ant-popover'));
    fireEvent.click(confirm!);
    await waitFor(() => expect(calls.some((c) => path(c) === '/test/group/delete')).toBe(true));
    const del = calls.find((c) => path(c) === '/test/group/delete')!;
    expect(del.init.method).toBe('GET');
    expect(del.url).toBe('/api/manager/test/group/delete?id=2');
    await waitFor(() => expect(screen.queryByText('分组2')).toBeNull());
    expect(screen.getByText('共 11 条')).toBeTruthy();
  });

  it('shows the detail of a record from the one endpoint', async () => {
    server();
    mount();
    await screen.findByText('分组1');
    fireEvent.click(screen.getAllByRole('button', { name: /详\s*情/ })[0]!);
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('分组详情')).toBeTruthy();
    expect(within(drawer).getByText('分组1')).toBeTruthy();
    expect(within(drawer).getByText('启用')).toBeTruthy();
  });

  it('exports the current search as a file through the request layer, named by the server', async () => {
    const { calls } = server();
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (created.push(b), 'blob:x'), revokeObjectURL: () => undefined }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    mount();
    await screen.findByText('分组1');
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '分组1' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await screen.findByText('共 4 条');
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(clicked).toEqual(['分组.xlsx']));
    const exp = calls.find((c) => path(c) === '/test/group/export')!;
    expect(exp.init.method).toBe('POST');
    expect(body(exp)).toEqual({ name: '分组1' });
    expect(created).toHaveLength(1);
  });

  it('imports only xlsx files, as multipart, and says so', async () => {
    const { calls } = server();
    const { container } = mount();
    await screen.findByText('分组1');
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input.accept).toBe('.xlsx');
    fireEvent.change(input, { target: { files: [new File(['x'], 'groups.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText('只能上传 xlsx 文件')).toBeTruthy();
    expect(calls.some((c) => path(c) === '/test/group/import')).toBe(false);
    // The upload replaces its input after each pick.
    fireEvent.change(container.querySelector('input[type=file]')!, { target: { files: [new File(['x'], 'groups.xlsx')] } });
    await waitFor(() => expect(calls.some((c) => path(c) === '/test/group/import')).toBe(true));
    const imp = calls.find((c) => path(c) === '/test/group/import')!;
    expect(imp.init.body).toBeInstanceOf(FormData);
    expect(((imp.init.body as FormData).get('file') as File).name).toBe('groups.xlsx');
    expect(await screen.findByText('导入成功')).toBeTruthy();
  });
});

describe('ResourceTable: tree resources', () => {
  const companies = defineResource<Group>({
    key: ['test', 'company'],
    name: '公司',
    endpoints: {
      tree: endpoint({ method: 'POST', path: '/test/company/query/tree', body: z.object({}).loose(), response: z.array(group) }),
      list: endpoint({ method: 'POST', path: '/test/company/query/list', body: z.object({}).loose(), response: z.array(group) }),
    },
    columns: [{ key: 'name', title: '名称' }],
    filters: [{ key: 'name', title: '名称' }],
  });

  it('shows the tree expanded without paging; a search uses the flat list endpoint', async () => {
    const { calls } = mockFetch((c) => {
      if (path(c) === '/test/company/query/tree') {
        return json(envelope([row(1, { name: '集团', children: [row(2, { name: '华东公司', children: [row(3, { name: '苏州站', children: [] })] })] })]));
      }
      return json(envelope([row(3, { name: '苏州站' })]));
    });
    mount(<ResourceTable def={companies} />);
    expect(await screen.findByText('苏州站')).toBeTruthy();
    expect(screen.getByText('华东公司')).toBeTruthy();
    expect(screen.queryByText(/共 \d+ 条/)).toBeNull();
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: '苏州' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls.some((c) => path(c) === '/test/company/query/list')).toBe(true));
    expect(body(calls.find((c) => path(c) === '/test/company/query/list')!)).toEqual({ name: '苏州' });
    await waitFor(() => expect(screen.queryByText('集团')).toBeNull());
  });
});
