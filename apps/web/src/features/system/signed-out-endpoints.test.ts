// @vitest-environment node
import { API_BASE } from '@ess/contract/constants';
import { authEndpoints } from '@ess/contract/auth';
import { i18nEndpoints } from '@ess/contract/i18n';
import { describe, expect, it } from 'vitest';
import { PACK } from '../../platform/i18n/language.ts';
import { PROFILE_INFO } from '../../platform/user-store.ts';
import { CAPTCHA_URL, LOGIN, LOGIN_OPTIONS } from './LoginPage.tsx';

/**
 * The login page and the signed-out shell name their calls by endpoint references (method and path,
 * typed by the contract's declarations; a runtime endpoint would bring zod into the login page's
 * bundle); the references must stay the contract's.
 */
describe('signed-out calls use the contract paths', () => {
  it('captcha, login, profile and language pack', () => {
    expect(CAPTCHA_URL).toBe(`${API_BASE}${authEndpoints.captcha.path}`);
    for (const [ref, ep] of [[LOGIN, authEndpoints.login], [LOGIN_OPTIONS, authEndpoints.loginOptions], [PROFILE_INFO, authEndpoints.profile], [PACK, i18nEndpoints.pack]] as const) {
      expect({ method: ref.method, path: ref.path }).toEqual({ method: ep.method, path: ep.path });
    }
  });
});
