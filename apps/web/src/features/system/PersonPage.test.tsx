import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { PersonPage } from './PersonPage.tsx';

vi.setConfig({ testTimeout: 20_000 });

const info = {
  id: 1, username: 'op', name: '运维员', phone: null, email: null, companyId: 1, companyName: '储能集团', buildIn: false, lastLoginAt: null, timeZone: 'America/Los_Angeles',
  roles: [{ id: 2, name: '运维' }], menuProfiles: [], permissions: [],
};

beforeEach(() => {
  useI18nStore.setState({ locale: 'zh-CN', pack: new Map() });
  useUserStore.setState({ loadFailed: false, info, menuProfiles: [], authPaths: [], buildIn: false });
});
afterEach(cleanup);

const mount = () =>
  render(
    <App>
      <PersonPage />
    </App>,
  );

const field = (label: string) => screen.getByLabelText(label);
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

describe('personal center (§5 rules)', () => {
  it('refuses a short password, one with a single character class, and a confirmation that differs', async () => {
    const { calls } = mockFetch();
    mount();
    type('原密码', 'Old12345');
    type('新密码', 'Ab1');
    type('确认密码', 'Ab1');
    fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('密码长度为8-20位')).toBeTruthy();
    type('新密码', 'abcdefghij');
    expect(await screen.findByText('密码须至少包含大写字母、小写字母、数字中的两种')).toBeTruthy();
    type('新密码', 'abcdefgh12');
    type('确认密码', 'abcdefgh13');
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('sends a valid password change', async () => {
    const { calls } = mockFetch(() => json(envelope(true)));
    mount();
    type('原密码', 'Old12345');
    type('新密码', 'abcdefgh12');
    type('确认密码', 'abcdefgh12');
    fireEvent.click(screen.getByRole('button', { name: '修改密码' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    const call = calls[0] as Call;
    expect(call.url).toBe('/api/manager/system/user/profile/change/password');
    expect(JSON.parse(call.init.body as string)).toEqual({ oldPassword: 'Old12345', newPassword: 'abcdefgh12', confirmPassword: 'abcdefgh12' });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('checks phone and e-mail formats and that the name is not empty', async () => {
    const { calls } = mockFetch();
    mount();
    type('姓名', ' ');
    type('手机号', 'abc');
    type('邮箱', 'not-an-email');
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await screen.findByText('姓名不能为空')).toBeTruthy();
    expect(await screen.findByText('手机号格式不正确')).toBeTruthy();
    expect(await screen.findByText('邮箱格式不正确')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows the own time zone and sends it with the info (the zone quiet hours of messages follow)', async () => {
    const { calls } = mockFetch((c) => json(envelope(c.url.endsWith('/profile/info') ? info : true)));
    mount();
    expect(screen.getAllByText('America/Los_Angeles').length).toBeGreaterThan(0);
    type('姓名', '值班员');
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/change/info'))).toHaveLength(1));
    const call = calls.find((c) => c.url.endsWith('/change/info'))!;
    expect(JSON.parse(call.init.body as string)).toEqual({ name: '值班员', phone: '', email: '', timeZone: 'America/Los_Angeles' });
  });
});
