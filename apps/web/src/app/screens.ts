import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Every screen the console has, by route path; each is its own chunk (React.lazy). The layout's
 * menu shows only menu entries whose path is here. Feature teams add their pages to this table.
 */
export const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = {
  '/home/welcome': lazy(() => import('../features/home/WelcomePage.tsx').then((m) => ({ default: m.WelcomePage }))),
  '/system/person': lazy(() => import('../features/system/PersonPage.tsx').then((m) => ({ default: m.PersonPage }))),
};

export const hasScreen = (path: string) => Object.hasOwn(SCREENS, path);
