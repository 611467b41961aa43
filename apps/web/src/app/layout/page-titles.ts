import type { MenuEntry } from '../../platform/menu.ts';

/** Source-text titles of freeAuth pages, which are not menu entries. */
export const FREE_PAGE_TITLES: Record<string, string> = {
  '/home/welcome': '欢迎',
  '/system/person': '个人中心',
};

/** The source-text title of a path: its menu entry's name, a freeAuth page's title, or the path. */
export function pageTitle(menus: readonly (MenuEntry & { name: string })[], path: string): string {
  return menus.find((m) => m.path === path)?.name ?? FREE_PAGE_TITLES[path] ?? path;
}
