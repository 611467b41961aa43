import { notificationSetAdd, userEdit } from '@ess/contract/system';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { envelope, json, mockFetch } from '../../test/http.ts';
import { MenuPermissionTree } from './MenuPermissionTree.tsx';
import { settingResource } from './notification.resource.tsx';
import { regionPath } from '../../components/options/regions.ts';
import { userBody } from './user.model.ts';

vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

const node = (id: number, path: string, name: string, children: unknown[] = []) => ({
  id, path, parentPath: null, name, icon: null, sort: id, hidden: false, edited: false, updatedAt: '', interfaceIds: [], children,
});
const MENUS = [
  node(1, '/log', '日志管理', [node(2, '/log/login', '登录日志'), node(3, '/log/api', '接口日志')]),
  node(4, '/system', '系统管理', [node(5, '/system/user', '用户管理')]),
];

function mountTree(value: number[], onChange: (ids: number[]) => void) {
  mockFetch((c) => (c.url.endsWith('/system/menu/query/tree') ? json(envelope(MENUS)) : json(envelope(null), 404)));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MenuPermissionTree value={value} onChange={onChange} />
    </QueryClientProvider>,
  );
}

const checkbox = (title: string) => screen.getByText(title).closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!;

describe('menu permissions of a role', () => {
  it('shows a directory ticked only through its entries; the count is of pages', async () => {
    // The stored grant names a directory and one of its pages: only that page shows ticked.
    mountTree([1, 2], () => undefined);
    await screen.findByText('登录日志');
    expect(checkbox('登录日志').classList.contains('ant-tree-checkbox-checked')).toBe(true);
    expect(checkbox('接口日志').classList.contains('ant-tree-checkbox-checked')).toBe(false);
    expect(checkbox('日志管理').classList.contains('ant-tree-checkbox-indeterminate')).toBe(true);
    expect(screen.getByText('已选 1 个菜单')).toBeTruthy();
  });

  it('ticking a page grants it with its directory; select all and none', async () => {
    const onChange = vi.fn<(ids: number[]) => void>();
    mountTree([], onChange);
    await screen.findByText('接口日志');
    fireEvent.click(checkbox('接口日志'));
    expect(onChange).toHaveBeenLastCalledWith([3, 1]);
    fireEvent.click(screen.getByRole('button', { name: /全\s*选/ }));
    expect(onChange).toHaveBeenLastCalledWith([1, 2, 3, 4, 5]);
    fireEvent.click(screen.getByRole('button', { name: /全不选/ }));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });
});

describe('form values to request bodies', () => {
  const user = { username: 'op', password: '', name: '运维', phone: null, email: null, companyId: 2, roleIds: [3], status: false, siteIds: [7] };

  it('a user edit keeps the password when the field is left blank and sends the status as 0/1', () => {
    expect(userBody(user, 'edit', 9)).toEqual({ id: 9, name: '运维', phone: null, email: null, companyId: 2, roleIds: [3], status: 0, siteIds: [7], allSites: false, timeZone: null });
    expect(userBody({ ...user, password: 'Abcd1234', status: true }, 'edit', 9)).toMatchObject({ password: 'Abcd1234', status: 1 });
    expect(userBody({ ...user, password: 'Abcd1234', status: true }, 'add')).toMatchObject({ username: 'op', password: 'Abcd1234', status: 1 });
    // All stations of the company: the chosen stations are not sent with it.
    expect(userBody({ ...user, allSites: true }, 'edit', 9)).toMatchObject({ allSites: true, siteIds: [] });
  });

  it('a user’s time zone: the picked IANA name, a cleared picker as null; the contract refuses an unknown zone', () => {
    expect(userBody({ ...user, timeZone: 'Europe/Berlin' }, 'edit', 9)).toMatchObject({ timeZone: 'Europe/Berlin' });
    expect(userBody({ ...user, timeZone: undefined }, 'edit', 9)).toMatchObject({ timeZone: null });
    expect(userBody({ ...user, password: 'Abcd1234', timeZone: 'Asia/Shanghai' }, 'add')).toMatchObject({ timeZone: 'Asia/Shanghai' });
    expect(userEdit.safeParse(userBody({ ...user, timeZone: 'Europe/Berlin' }, 'edit', 9)).success).toBe(true);
    expect(userEdit.safeParse(userBody({ ...user, timeZone: 'Mars/Olympus_Mons' }, 'edit', 9)).error?.issues.map((i) => i.path.join('.'))).toEqual(['timeZone']);
  });

  it('a scheduled push sends its time as epoch ms, an immediate one none; the contract accepts both', () => {
    const toBody = settingResource.form!.toBody!;
    const at = dayjs('2030-01-02T03:04:05Z');
    const scheduled = toBody({ title: 't', content: 'c', targetType: 'user', targetIds: [1], pushMode: 'scheduled', pushAt: at }, 'add');
    expect(scheduled.pushAt).toBe(at.valueOf());
    expect(notificationSetAdd.safeParse(scheduled).success).toBe(true);
    const now = toBody({ title: 't', content: 'c', targetType: 'role', targetIds: [1], pushMode: 'immediate', pushAt: at }, 'add');
    expect(now.pushAt).toBeNull();
    expect(notificationSetAdd.safeParse(now).success).toBe(true);
    const missing = toBody({ title: 't', content: 'c', targetType: 'role', targetIds: [1], pushMode: 'scheduled', pushAt: null }, 'add');
    expect(notificationSetAdd.safeParse(missing).error?.issues.map((i) => i.message)).toEqual(['定时推送必须设置推送时间']);
  });
});

describe('region chain', () => {
  const tree = [{ code: '320000', name: '江苏省', children: [{ code: '320500', name: '苏州市', children: [{ code: '320506', name: '吴中区' }] }] }];
  it('finds the chain from the province to a code, none for an unknown code', () => {
    expect(regionPath(tree, '320506').map((n) => n.name)).toEqual(['江苏省', '苏州市', '吴中区']);
    expect(regionPath(tree, '999999')).toEqual([]);
    expect(regionPath(tree, null)).toEqual([]);
  });
});
