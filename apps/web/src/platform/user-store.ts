import { create } from 'zustand';
import type { MenuEntry } from './menu.ts';
import { get } from './request.ts';

export interface MenuProfile extends MenuEntry {
  id: number;
  /** Source text (Simplified Chinese), shown through the language pack. */
  name: string;
  icon?: string | null;
  sort: number;
  hidden: boolean;
}

export interface UserInfo {
  id: number;
  username: string;
  name: string;
  phone: string | null;
  email: string | null;
  companyId: number;
  companyName: string;
  buildIn: boolean;
  roles: { id: number; name: string }[];
  menuProfiles: MenuProfile[];
}

export const PROFILE_INFO_URL = '/system/user/profile/info';

interface UserState {
  /** product-spec §4: starts true, false after a successful load, true again after a failure. */
  loadFailed: boolean;
  info: UserInfo | null;
  /** Menu entries of the profile; empty when the profile has none. */
  menuProfiles: MenuProfile[];
  /** The menu paths the user may open. */
  authPaths: string[];
  /** Whether the user is built in. */
  buildIn: boolean;
}

const initial: UserState = { loadFailed: true, info: null, menuProfiles: [], authPaths: [], buildIn: false };

export const useUserStore = create<UserState>(() => ({ ...initial }));

let inFlight: Promise<UserInfo | null> | null = null;

/**
 * Loads the profile. It requests only while the loading-failed flag is true; otherwise it returns
 * the cached info. A failure sets the flag and resolves with null (navigation goes on, §8).
 */
export function loadUserInfo(): Promise<UserInfo | null> {
  const s = useUserStore.getState();
  if (!s.loadFailed) return Promise.resolve(s.info);
  if (inFlight) return inFlight;
  const p = get<UserInfo | null>(PROFILE_INFO_URL)
    .then((raw) => {
      if (inFlight !== p) return useUserStore.getState().info;
      const menuProfiles = raw?.menuProfiles ?? [];
      const info = raw ? { ...raw, menuProfiles } : null;
      useUserStore.setState({
        loadFailed: false,
        info,
        menuProfiles,
        authPaths: menuProfiles.map((m) => m.path),
        buildIn: raw?.buildIn === true,
      });
      return info;
    })
    .catch(() => {
      if (inFlight === p) useUserStore.setState({ loadFailed: true });
      return null;
    })
    .finally(() => {
      if (inFlight === p) inFlight = null;
    });
  inFlight = p;
  return p;
}

/** Forgets the cached info (sign-out, the login page); the next load requests again. */
export function clearUserInfo(): void {
  inFlight = null;
  useUserStore.setState({ ...initial });
}

/** Clears the cached info and loads it again (after a profile or permission change). */
export function refreshUserInfo(): Promise<UserInfo | null> {
  clearUserInfo();
  return loadUserInfo();
}
