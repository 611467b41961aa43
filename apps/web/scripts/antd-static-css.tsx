/**
 * Writes antd's component styles for the console's theme as a static stylesheet, so the browser
 * does not compute and inject them while the first page renders.
 *
 *   NODE_ENV=production tsx apps/web/scripts/antd-static-css.tsx OUT.css --top A,B [--layout C,D --header E,F]
 *
 * antd 5 styles are CSS-in-JS: on first use of each component, @ant-design/cssinjs builds the
 * style object, serialises it, hashes it and adds a <style> tag (a third of the script time of a
 * page load, measured with bench/web/profile.ts). Here every antd component is rendered once on
 * the server with the same theme (src/app/theme.ts), and the cache is written out with its map of
 * style paths (`.data-ant-cssinjs-cache-path`); in the browser cssinjs reads that map and skips
 * every style it lists. Styles it does not list are still made at run time, as before.
 *
 * `--top` lists the components rendered under the console's ConfigProvider alone (the login page,
 * toasts, confirmations of antd's App). ProLayout gives its content and its header themes of their
 * own, and each theme has styles of its own: `--layout` renders components inside a ProLayout set
 * up as ConsoleLayout sets it up, with a ProTable and a ProDescriptions (for the antd components
 * they use, under their themes), and `--header` in its header. NODE_ENV must be production: the class-name hash differs in development.
 */
import { writeFileSync } from 'node:fs';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { ProDescriptions, ProLayout, ProTable } from '@ant-design/pro-components';
import * as antd from 'antd';
import { createElement, Fragment, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { THEME } from '../src/app/theme.ts';

type AnyComponent = ComponentType<Record<string, unknown>> & { _InternalPanelDoNotUseOrYouWillBeFired?: AnyComponent };

/** Components that render nothing without content, or only in a portal: their inline panels or a minimal content. */
const RENDER: Record<string, (c: AnyComponent) => ReactNode> = {
  Affix: (C) => createElement(C, null, createElement('div')),
  Dropdown: (C) => createElement(C, { menu: { items: [] } }, createElement('div')),
  Menu: (C) => createElement(C, { items: [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }] }),
  QRCode: (C) => createElement(C, { value: 'https://example.com' }),
  Tree: (C) => createElement(C, { treeData: [] }),
};
/** Rendered through their inline panel only (the real ones open portals, which do not render on a server). */
const PANEL_ONLY = new Set(['Drawer', 'Modal', 'Popconfirm', 'Popover', 'Tooltip', 'Tour', 'message', 'notification']);
const SKIP = new Set(['ConfigProvider', 'Grid', 'App']);

function components(only: Set<string>): ReactNode[] {
  const nodes: ReactNode[] = [];
  for (const [name, value] of Object.entries(antd as unknown as Record<string, AnyComponent>)) {
    if (!only.has(name)) continue;
    if (!value || SKIP.has(name) || !(typeof value === 'function' || typeof value === 'object')) continue;
    const panel = value._InternalPanelDoNotUseOrYouWillBeFired;
    if (panel) nodes.push(createElement(panel, { key: `${name}-panel` }));
    if (PANEL_ONLY.has(name) || name[0] !== name[0]!.toUpperCase()) continue;
    nodes.push(createElement(Fragment, { key: name }, RENDER[name]?.(value) ?? createElement(value)));
  }
  return nodes;
}

if (process.env.NODE_ENV !== 'production') throw new Error('antd-static-css: run with NODE_ENV=production (class-name hashes differ otherwise)');
const [out, ...rest] = process.argv.slice(2);
const listOf = (flag: string) => {
  const i = rest.indexOf(flag);
  return i >= 0 && rest[i + 1] ? new Set(rest[i + 1]!.split(',')) : undefined;
};
const top = listOf('--top');
const layout = listOf('--layout');
const header = listOf('--header') ?? new Set<string>();
if (!out || !top) throw new Error('usage: antd-static-css.tsx OUT.css --top A,B [--layout C,D --header E,F]');

const inLayout = layout
  ? createElement(
      ProLayout,
      {
        title: 'ESS', logo: false, layout: 'mix', fixSiderbar: true, fixedHeader: true, siderWidth: 220, menu: { locale: false },
        location: { pathname: '/a/b' },
        route: { path: '/', children: [{ path: '/a', name: 'a', children: [{ path: '/a/b', name: 'b' }, { path: '/a/c', name: 'c' }] }] },
        avatarProps: { title: 'ESS', size: 'small' },
        actionsRender: () => components(header),
      },
      ...components(layout),
      createElement(ProTable, { key: 'pro-table', rowKey: 'id', columns: [{ title: 'a', dataIndex: 'a' }], dataSource: [{ id: 1, a: 'a' }], search: {} }),
      createElement(ProDescriptions, { key: 'pro-descriptions', column: 1, dataSource: { a: 'a' }, columns: [{ title: 'a', dataIndex: 'a' }] }),
    )
  : null;
const cache = createCache();
renderToString(createElement(StyleProvider, { cache }, createElement(antd.ConfigProvider, { theme: THEME }, createElement(antd.App, null, ...components(top), inLayout))));
// ProComponents register their styles under the component's name alone (`style%token%ProLayout`),
// while the style also depends on the component's props (ProLayout's menu colours follow its
// layout and route): prebuilt, a page with other props would get these. They are left to run time.
// antd's paths (`style%token%Menu-Menu%ant-menu%anticon`) name the component, its class prefix
// and icon prefix, and its style depends on the theme's token only, which the token key names.
for (const key of [...cache.cache.keys()]) if (key.startsWith('style%') && key.split('%').length === 3) cache.cache.delete(key);
writeFileSync(out, extractStyle(cache, true));
