/**
 * Writes antd's component styles for the console's theme as a static stylesheet, so the browser
 * does not compute and inject them while the first page renders.
 *
 *   NODE_ENV=production tsx apps/web/scripts/antd-static-css.tsx OUT.css A,B,...
 *
 * antd 5 styles are CSS-in-JS: on first use of each component, @ant-design/cssinjs builds the
 * style object, serialises it, hashes it and adds a <style> tag (a third of the script time of a
 * page load, measured with bench/web/profile.ts). Here each antd component named is rendered once on
 * the server with the same theme (src/app/theme.ts), and the cache is written out with its map of
 * style paths (`.data-ant-cssinjs-cache-path`); in the browser cssinjs reads that map and skips
 * every style it lists. Styles it does not list are still made at run time, as before.
 *
 * The components named are rendered under the console's ConfigProvider, as on the login page.
 * NODE_ENV must be production: the class-name hash differs in development.
 */
import { writeFileSync } from 'node:fs';
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
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
const [out, list] = process.argv.slice(2);
if (!out || !list) throw new Error('usage: antd-static-css.tsx OUT.css A,B,...');
const cache = createCache();
renderToString(createElement(StyleProvider, { cache }, createElement(antd.ConfigProvider, { theme: THEME }, createElement(antd.App, null, ...components(new Set(list.split(',')))))));
writeFileSync(out, extractStyle(cache, true));
