import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import type { authEndpoints } from '@ess/contract/auth';
import { API_BASE, IMAGE_CODE_STORAGE_KEY, TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import type { EndpointRef } from '@ess/contract/endpoint';
import { Alert, Button, Form, Input, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { callRef, RequestError } from '../../platform/request.ts';

interface LoginForm {
  username: string;
  password: string;
  /** Absent when the server checks no captcha. */
  code?: string;
}

/**
 * authEndpoints.captcha and .login. Bundle weight: the page takes only the endpoints' types (a
 * runtime import of a contract endpoint brings zod into the login page); a test holds the paths
 * to the contract's.
 */
export const CAPTCHA_URL = `${API_BASE}/basic/captcha`;
export const LOGIN: EndpointRef<typeof authEndpoints.login> = { method: 'POST', path: '/basic/user/login' };
/** authEndpoints.loginOptions: whether the server checks a captcha (CAPTCHA_ENABLED). */
export const LOGIN_OPTIONS: EndpointRef<typeof authEndpoints.loginOptions> = { method: 'GET', path: '/basic/user/login/options' };

/**
 * The standalone sign-in page: user name, password and the captcha code from the image.
 * Bundle weight: the login page is the first load, so it keeps to antd's Form, Input, Button and
 * Alert; the panel and headings are plain elements on antd's tokens (antd's Card would bring Tabs
 * and Skeleton, Typography the copy/ellipsis machinery). Budget: bench/web (300 kB gzipped).
 */
export function LoginPage() {
  const t = useT();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginForm>();
  const [captchaSeq, setCaptchaSeq] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The server says whether it checks a captcha: null until it has answered (the field is not
  // drawn yet), true when it could not be asked (a check it makes must be answerable).
  const [captchaOn, setCaptchaOn] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    callRef(LOGIN_OPTIONS, undefined, { noMessage: true, loading: false })
      .then((o) => live && setCaptchaOn(o.captcha))
      .catch(() => live && setCaptchaOn(true));
    return () => {
      live = false;
    };
  }, []);

  const refreshCaptcha = () => {
    setCaptchaSeq(Date.now());
    form.setFieldValue('code', '');
  };

  const submit = async (values: LoginForm) => {
    setError(null);
    setBusy(true);
    sessionStorage.setItem(IMAGE_CODE_STORAGE_KEY, captchaOn === false ? '' : (values.code ?? '').trim());
    try {
      const data = await callRef(LOGIN, { username: values.username.trim(), password: values.password }, { noMessage: true });
      localStorage.setItem(TOKEN_STORAGE_KEY, data.token);
      sessionStorage.setItem(IMAGE_CODE_STORAGE_KEY, '');
      await navigate('/', { replace: true });
    } catch (e) {
      setError(e instanceof RequestError ? e.message : t('登录失败，请稍后再试'));
      if (captchaOn !== false) refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="ess-login">
      <div style={{ position: 'absolute', insetInlineEnd: 16, top: 12 }}>
        <LanguageSwitch />
      </div>
      <main
        style={{
          width: 380,
          maxWidth: '92vw',
          boxSizing: 'border-box',
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          color: token.colorText,
          fontFamily: token.fontFamily,
          fontSize: token.fontSize,
          lineHeight: token.lineHeight,
        }}
      >
        <div style={{ marginBottom: 16, textAlign: 'center' }}>
          <h1 style={{ margin: '0 0 4px', color: token.colorTextHeading, fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3, fontWeight: token.fontWeightStrong }}>
            {t('储能运维平台')}
          </h1>
          <div style={{ color: token.colorTextSecondary }}>{t('请登录')}</div>
        </div>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
        <Form<LoginForm> form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)} onValuesChange={() => setError(null)}>
          <Form.Item
            name="username"
            label={t('用户名')}
            rules={[{ required: true, whitespace: true, message: t('$1不能为空', t('用户名')) }]}
          >
            <Input prefix={<UserOutlined />} autoComplete="username" maxLength={64} autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('密码')} rules={[{ required: true, message: t('$1不能为空', t('密码')) }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          {captchaOn && (
            <Form.Item label={t('验证码')} required>
              <div style={{ display: 'flex', gap: 8 }}>
                <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: t('$1不能为空', t('验证码')) }]}>
                  <Input prefix={<SafetyOutlined />} autoComplete="off" maxLength={8} aria-label={t('验证码')} />
                </Form.Item>
                <img
                  src={`${CAPTCHA_URL}?t=${captchaSeq}`}
                  alt={t('验证码')}
                  title={t('看不清？换一张')}
                  onClick={refreshCaptcha}
                  style={{ height: 32, width: 100, cursor: 'pointer', border: '1px solid #d9d9d9', borderRadius: 6, flex: 'none' }}
                  data-testid="captcha-image"
                />
              </div>
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('登录')}
          </Button>
        </Form>
      </main>
    </div>
  );
}
