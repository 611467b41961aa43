import type { authEndpoints, MenuProfile, ProfileInfo } from '@ess/contract/auth';
import type { EndpointRef } from '@ess/contract/endpoint';
import { create } from 'zustand';
import { callRef } from './request.ts';

export type { MenuProfile };
/** The signed-in user's profile. */
export type UserInfo = ProfileInfo;

/**
 * The profile call, authEndpoints.profile (GET). Bundle weight: the store belongs to the
 * signed-out shell, so it takes only the endpoint's types — a runtime import of a contract
 * endpoint brings zod (about 24 kB gzipped) into the login page. A test holds the path to the
 * contract's.
 */
export const PROFILE_INFO: EndpointRef<typeof authEndpoints.profile> = { method: 'GET', path: '/system/user/profile/info' };

/** The profile as this store reads it: it stands a profile without a menu list (an empty one). */
type ProfileAnswer = (Omit<ProfileInfo, 'menuProfiles' | 'permissions'> & { menuProfiles?: MenuProfile[]; permissions?: string[] }) | null;

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
  /** Paths of the calls the user may make (the profile's permissions); read through useCan. */
  permissions: ReadonlySet<string>;
}

const initial: UserState = { loadFailed: true, info: null, menuProfiles: [], authPaths: [], buildIn: false, permissions: new Set() };

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
  const p = callRef(PROFILE_INFO)
    .then((raw: ProfileAnswer) => {
      if (inFlight !== p) return useUserStore.getState().info;
      const menuProfiles = raw?.menuProfiles ?? [];
      const permissions = raw?.permissions ?? [];
      const info = raw ? { ...raw, menuProfiles, permissions } : null;
      useUserStore.setState({
        loadFailed: false,
        info,
        menuProfiles,
        authPaths: menuProfiles.map((m) => m.path),
        buildIn: raw?.buildIn === true,
        permissions: new Set(permissions),
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
