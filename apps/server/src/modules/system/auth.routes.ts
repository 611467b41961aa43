import { authEndpoints as api } from '@ess/contract';
import { route } from '../../platform/http/route.ts';
import { localeOf } from '../i18n/index.ts';
import { CAPTCHA_COOKIE, issueCaptcha, login, logout, recordRateLimited } from './auth.service.ts';
import { changeInfo, changePassword, profileInfo } from './profile.service.ts';

function cookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** The caller's own session and profile. */
const own = { global: "the caller's own session and profile" };

export const authRoutes = [
  route(api.captcha, {
    access: 'public', name: '获取验证码', area: 'Session and basics', kind: 'other',
    scope: { global: 'a new captcha for a caller who is not signed in yet' },
    handler: async ({ ctx, reply }) => {
      const c = await issueCaptcha(ctx);
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('set-cookie', `${CAPTCHA_COOKIE}=${c.id}; Path=/api/manager/basic; HttpOnly; SameSite=Strict; Max-Age=300`)
        .send(c.svg);
    },
  }),
  route(api.loginOptions, {
    access: 'public', name: '登录选项', area: 'Session and basics', kind: 'other',
    scope: { global: "the server's sign-in settings, read by the login page before anyone signs in" },
    // Read per call: the login page shows the captcha field only when the check is on.
    handler: ({ ctx }) => ({ captcha: ctx.config.captchaEnabled }),
  }),
  route(api.login, {
    access: 'public', name: '登录',
    scope: { global: 'signs a caller in by user name and password; names no object' },
    rateLimit: {
      max: (config) => config.loginRateLimitPerMinute,
      windowMs: 60_000,
      // Refused attempts are sign-in attempts too: the login log has every one.
      refused: (ctx, req) => {
        const username = (req.body as { username?: unknown } | undefined)?.username;
        return recordRateLimited(ctx, { username: typeof username === 'string' ? username : '', ip: req.ip, userAgent: req.headers['user-agent'] ?? null });
      },
    },
    handler: async ({ ctx, body, req }) => {
      const code = req.headers['x-image-code'];
      return login(ctx, {
        username: body.username,
        password: body.password,
        captchaId: cookie(req.headers.cookie, CAPTCHA_COOKIE),
        captchaCode: typeof code === 'string' ? code : undefined,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
        language: localeOf(req),
      });
    },
  }),
  route(api.logout, {
    access: 'user', name: '退出登录', scope: own,
    handler: async ({ ctx, user }) => {
      await logout(ctx, user.sessionId);
      return true;
    },
  }),
  route(api.profile, {
    access: 'user', name: '当前用户信息', scope: own,
    handler: ({ ctx, user }) => profileInfo(ctx, user),
  }),
  route(api.changePassword, {
    access: 'user', name: '修改密码', scope: own,
    handler: async ({ ctx, user, body }) => {
      await changePassword(ctx, user, body.oldPassword, body.newPassword);
      return true;
    },
  }),
  route(api.changeInfo, {
    access: 'user', name: '修改个人信息', scope: own,
    handler: async ({ ctx, user, body }) => {
      await changeInfo(ctx, user, body);
      return true;
    },
  }),
];
