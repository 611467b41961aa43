import { z } from 'zod';
import { optionalEmail, optionalPhone, optionalTimeZone, password, trimmed } from './common.ts';
import { done, endpoint, FILE, isoTime } from './endpoint.ts';

/**
 * Sign-in, captcha and the signed-in user's own profile (api-catalogue "Session and basics").
 * Kept apart from system.ts so that what the login page and the signed-out shell use stays small.
 */

export const loginBody = z.object({
  username: trimmed(64),
  password: z.string().min(1).max(128),
});
export const changePasswordBody = z
  .object({ oldPassword: z.string().min(1).max(128), newPassword: password, confirmPassword: z.string() })
  .refine((v) => v.confirmPassword === v.newPassword, { message: '两次输入的密码不一致', path: ['confirmPassword'] });
export const changeInfoBody = z.object({
  name: trimmed(64),
  phone: optionalPhone,
  email: optionalEmail,
  /** The user's IANA time zone (quiet hours of messages to them); '' or null clears it; left out: unchanged. */
  timeZone: optionalTimeZone,
});

/** A new session: the bearer token and when it ends. */
export const loginResult = z.object({ token: z.string(), expiresAt: isoTime });
export type LoginResult = z.infer<typeof loginResult>;

/** A menu entry the user's roles grant (with the directories above it): a flat list linked by parentPath. */
export const menuProfile = z.object({
  path: z.string(),
  /** Absent at the top level. */
  parentPath: z.string().optional(),
  /** Source text (Simplified Chinese), shown through the language pack. */
  name: z.string(),
  icon: z.string().optional(),
  /** Present (true) only for entries kept out of the navigation (detail pages). */
  hidden: z.literal(true).optional(),
});
export type MenuProfile = z.infer<typeof menuProfile>;

/** What the console's navigation guard and user store need (product-spec §2, §3). */
export const profileInfo = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  companyId: z.number(),
  companyName: z.string(),
  buildIn: z.boolean(),
  lastLoginAt: isoTime.nullable(),
  /** The user's own IANA time zone, or null (messages to them follow the station's). */
  timeZone: z.string().nullable(),
  roles: z.array(z.object({ id: z.number(), name: z.string() })),
  menuProfiles: z.array(menuProfile),
  /**
   * The interfaces (catalogue paths) the user may call: those open to every signed-in user and
   * those the user's roles grant — the same grants the server's permission check reads. The
   * console shows an action only when the path of the call behind it is here (useCan).
   */
  permissions: z.array(z.string()),
});
export type ProfileInfo = z.infer<typeof profileInfo>;

/** What the login page must ask for (the server's configuration, read before anyone signs in). */
export const loginOptions = z.object({ captcha: z.boolean() });
export type LoginOptions = z.infer<typeof loginOptions>;

export const authEndpoints = {
  loginOptions: endpoint({ method: 'GET', path: '/basic/user/login/options', response: loginOptions }),
  /** An SVG image; the captcha's id goes in an HttpOnly cookie. */
  captcha: endpoint({ method: 'GET', path: '/basic/captcha', response: FILE }),
  login: endpoint({ method: 'POST', path: '/basic/user/login', body: loginBody, response: loginResult }),
  logout: endpoint({ method: 'GET', path: '/basic/user/logout', response: done }),
  profile: endpoint({ method: 'GET', path: '/system/user/profile/info', response: profileInfo }),
  changePassword: endpoint({ method: 'POST', path: '/system/user/profile/change/password', body: changePasswordBody, response: done }),
  changeInfo: endpoint({ method: 'POST', path: '/system/user/profile/change/info', body: changeInfoBody, response: done }),
};
