import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, envelope, json, mockFetch } from '../../test/http.ts';
import { signOut } from './ConsoleLayout.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('signing out', () => {
  it('ends the session with the token, forgets the token before the answer, then goes to the login page', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    const answer = deferred<Response>();
    const { calls } = mockFetch(() => answer.promise);
    const navigate = vi.fn();
    const done = signOut(navigate);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toContain('/basic/user/logout');
    expect(calls[0]!.init.headers.Authorization).toBe('tok');
    // A 401 of the live stream may move the page to /login while the answer is on its way.
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    answer.resolve(json(envelope(null)));
    await done;
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('still signs out on this side when the server cannot be reached', async () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'tok');
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('offline'))));
    const navigate = vi.fn();
    await signOut(navigate);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});
