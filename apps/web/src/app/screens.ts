import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Every screen the console has, by route path; each is its own chunk (React.lazy). The layout's
 * menu shows only menu entries whose path is here. Feature teams add their pages to this table.
 */
export const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = {
  '/home/welcome': lazy(() => import('../features/home/WelcomePage.tsx').then((m) => ({ default: m.WelcomePage }))),
  '/system/person': lazy(() => import('../features/system/PersonPage.tsx').then((m) => ({ default: m.PersonPage }))),
  '/system/messageConfig': lazy(() => import('../features/system/MessageConfigPage.tsx').then((m) => ({ default: m.MessageConfigPage }))),
  '/system/messagePush': lazy(() => import('../features/system/MessagePushPage.tsx').then((m) => ({ default: m.MessagePushPage }))),
  '/system/messageNotification': lazy(() =>
    import('../features/system/MessageNotificationPage.tsx').then((m) => ({ default: m.MessageNotificationPage })),
  ),
  '/system/company': lazy(() => import('../features/system/CompanyPage.tsx').then((m) => ({ default: m.CompanyPage }))),
  '/system/menu': lazy(() => import('../features/system/MenuPage.tsx').then((m) => ({ default: m.MenuPage }))),
  '/system/role': lazy(() => import('../features/system/RolePage.tsx').then((m) => ({ default: m.RolePage }))),
  '/system/user': lazy(() => import('../features/system/UserPage.tsx').then((m) => ({ default: m.UserPage }))),
  '/log/login': lazy(() => import('../features/log/LoginLogPage.tsx').then((m) => ({ default: m.LoginLogPage }))),
  '/log/api': lazy(() => import('../features/log/ApiLogPage.tsx').then((m) => ({ default: m.ApiLogPage }))),
};

export const hasScreen = (path: string) => Object.hasOwn(SCREENS, path);

/**
 * The menu entries a person can navigate to: those with a screen, and the directories above
 * them. A screen that is not built yet is absent, so the guard never sends anyone to it.
 */
export function navigableMenus<M extends { path: string; parentPath?: string | null }>(menus: readonly M[], has = hasScreen): M[] {
  const keep = new Set<string>();
  const byPath = new Map(menus.map((m) => [m.path, m]));
  for (const m of menus) {
    if (!has(m.path)) continue;
    for (let cur: M | undefined = m; cur && !keep.has(cur.path); cur = cur.parentPath ? byPath.get(cur.parentPath) : undefined) keep.add(cur.path);
  }
  return menus.filter((m) => keep.has(m.path));
}
