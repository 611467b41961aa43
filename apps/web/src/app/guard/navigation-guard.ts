import { FREE_AUTH_PATHS } from '@ess/contract/menus';
import { firstLeaf, type MenuEntry } from '../../platform/menu.ts';
import { LOGIN_PATH } from '../../platform/navigation.ts';

export const WELCOME_PATH = '/home/welcome';

export interface GuardUser {
  menuProfiles: MenuEntry[];
}

/** What the guard does its work with; the app passes the real platform functions. */
export interface GuardDeps {
  loadLanguagePack: () => Promise<void>;
  stopLiveEvents: () => void;
  clearUserInfo: () => void;
  /** Resolves null when the profile could not be loaded. */
  loadUserInfo: () => Promise<GuardUser | null>;
  startLiveEvents: () => void;
  /** Paths of routes marked freeAuth. */
  freeAuthPaths?: readonly string[];
  /**
   * Whether a token is stored. Without one nobody has signed in: the guard goes to the login page
   * at once, without asking for the profile (whose 401 would toast "not signed in or login
   * expired" at someone who has not tried yet). Default: assume one (the spec's plain guard).
   */
  hasToken?: () => boolean;
}

export type GuardResult = { action: 'proceed' } | { action: 'redirect'; to: string };

const PROCEED: GuardResult = { action: 'proceed' };

/** Normalises a pathname for comparison with menu paths (no trailing slash). */
export const normalisePath = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * The navigation guard of product-spec §2: language pack first; the login page stops the live
 * stream and clears user info; any other page loads user info and starts the stream, then is
 * allowed when it is a menu path or a freeAuth route, else redirected to the first leaf menu
 * entry or the welcome page. When user info cannot be loaded, navigation proceeds. With no token
 * stored, any page but the login page goes to the login page quietly (issue 16).
 */
export async function guardNavigation(pathname: string, deps: GuardDeps): Promise<GuardResult> {
  const path = normalisePath(pathname);
  await deps.loadLanguagePack();
  if (path === LOGIN_PATH) {
    deps.stopLiveEvents();
    deps.clearUserInfo();
    return PROCEED;
  }
  if (deps.hasToken && !deps.hasToken()) return { action: 'redirect', to: LOGIN_PATH };
  const user = await deps.loadUserInfo();
  if (!user) return PROCEED;
  deps.startLiveEvents();
  const free = deps.freeAuthPaths ?? FREE_AUTH_PATHS;
  if (free.includes(path) || user.menuProfiles.some((m) => m.path === path)) return PROCEED;
  const to = firstLeaf(user.menuProfiles)?.path ?? WELCOME_PATH;
  return to === path ? PROCEED : { action: 'redirect', to };
}
