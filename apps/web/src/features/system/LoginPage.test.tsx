import { IMAGE_CODE_STORAGE_KEY } from '@ess/contract/constants';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { envelope, json, mockFetch, type Call } from '../../test/http.ts';
import { LoginPage } from './LoginPage.tsx';

vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => useI18nStore.setState({ locale: 'zh-CN', pack: new Map() }));
afterEach(cleanup);

const path = (c: Call) => c.url.replace(/^\/api\/manager/, '').replace(/\?.*$/, '');

/** The server: login options saying whether the captcha is on (or failing), and a sign-in that succeeds. */
function server(options: Response | (() => Response)) {
  return mockFetch((c) => {
    if (path(c) === '/basic/user/login/options') return typeof options === 'function' ? options() : options;
    if (path(c) === '/basic/user/login') return json(envelope({ token: 'tok-123456789012345678901', expiresAt: '2030-01-01T00:00:00Z' }));
    return json(envelope(null));
  });
}

const mount = () =>
  render(
    <MemoryRouter initialEntries={['/login']}>
      <App>
        <LoginPage />
      </App>
    </MemoryRouter>,
  );

const fill = () => {
  fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'admin' } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'Admin12345' } });
};

describe('login page: the captcha field follows the server', () => {
  it('hides the captcha field when the server says the captcha is off, and signs in without a code', async () => {
    const options = json(envelope({ captcha: false }));
    const { calls } = server(options);
    mount();
    // The page has read the server's answer.
    await waitFor(() => expect(options.bodyUsed).toBe(true));
    fill();
    fireEvent.click(await screen.findByRole('button', { name: /登\s*录/ }));
    // With a captcha field drawn, its required rule would stop this sign-in.
    await waitFor(() => expect(calls.some((c) => path(c) === '/basic/user/login')).toBe(true));
    expect(screen.queryByLabelText('验证码')).toBeNull();
    expect(screen.queryByAltText('验证码')).toBeNull();
    const login = calls.find((c) => path(c) === '/basic/user/login')!;
    expect(login.init.headers['X-Image-Code']).toBe('');
    expect(sessionStorage.getItem(IMAGE_CODE_STORAGE_KEY)).toBe('');
    // No captcha image was ever fetched.
    expect(calls.some((c) => path(c) === '/basic/captcha')).toBe(false);
  });

  it('shows the captcha field and image when the server says it is on, and requires the code', async () => {
    const { calls } = server(json(envelope({ captcha: true })));
    mount();
    expect(await screen.findByLabelText('验证码')).toBeTruthy();
    expect(screen.getByAltText('验证码').getAttribute('src')).toMatch(/^\/api\/manager\/basic\/captcha\?t=\d+$/);
    fill();
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('验证码不能为空')).toBeTruthy();
    expect(calls.some((c) => path(c) === '/basic/user/login')).toBe(false);
  });

  it('shows the captcha field when the server cannot be asked (a check it makes must be answerable)', async () => {
    server(() => json(envelope(null, 'B0001', '系统繁忙'), 500));
    mount();
    expect(await screen.findByLabelText('验证码')).toBeTruthy();
  });
});
