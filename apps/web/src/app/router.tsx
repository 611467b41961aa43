import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Outlet, redirect, type LoaderFunctionArgs } from 'react-router';
import { liveEvents } from '../platform/live-events.ts';
import { loadLanguagePack } from '../platform/i18n/language.ts';
import { LOGIN_PATH, setNavigator } from '../platform/navigation.ts';
import { clearUserInfo, loadUserInfo } from '../platform/user-store.ts';
import { guardNavigation } from './guard/navigation-guard.ts';
import { FirstLoadFallback, PageFallback, ShellFallback } from '../components/PageFallback.tsx';
import { navigableMenus } from './screens.ts';
import { clearTabs } from './layout/tabs.store.ts';

const loadShell = () => import('./SignedInShell.tsx');
const loadLoginPage = () => import('../features/system/LoginPage.tsx');
const SignedInShell = lazy(() => loadShell().then((m) => ({ default: m.SignedInShell })));
const LoginPage = lazy(() => loadLoginPage().then((m) => ({ default: m.LoginPage })));

/**
 * Starts loading the chunk the first route will need (the login page without a token, else the
 * layout), so it downloads alongside the locale chunks instead of after the first render.
 */
export function preloadFirstRoute(pathname: string, hasToken: boolean): void {
  void (pathname === LOGIN_PATH || !hasToken ? loadLoginPage() : loadShell()).catch(() => undefined);
}

/** Whether a sign-in token is stored (none on a first visit, or after signing out). */
function storedToken(): boolean {
  try {
    return !!localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return false;
  }
}

/** The navigation guard (product-spec §2) runs as the root loader, on every navigation. */
async function guardLoader({ request }: LoaderFunctionArgs) {
  const result = await guardNavigation(new URL(request.url).pathname, {
    loadLanguagePack,
    stopLiveEvents: () => liveEvents.stop(),
    clearUserInfo: () => {
      clearUserInfo();
      clearTabs();
    },
    loadUserInfo: async () => {
      const user = await loadUserInfo();
      return user && { menuProfiles: navigableMenus(user.menuProfiles) };
    },
    startLiveEvents: () => liveEvents.start(),
    hasToken: storedToken,
  });
  if (result.action === 'redirect') throw redirect(result.to);
  return null;
}

export function createAppRouter() {
  const router = createBrowserRouter([
    {
      id: 'root',
      loader: guardLoader,
      shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
      hydrateFallbackElement: <FirstLoadFallback />,
      element: <Outlet />,
      children: [
        {
          path: '/login',
          element: (
            <Suspense fallback={<PageFallback />}>
              <LoginPage />
            </Suspense>
          ),
        },
        {
          path: '*',
          element: (
            <Suspense fallback={<ShellFallback />}>
              <SignedInShell />
            </Suspense>
          ),
        },
      ],
    },
  ]);
  setNavigator((to, options) => void router.navigate(to, { replace: options?.replace === true }));
  return router;
}
