import { Grid } from 'antd';
import { useState } from 'react';

const NARROW = '(max-width: 991px)';
/** Below antd's md breakpoint (768 px) the side menu is a drawer opened from the header. */
const PHONE = '(max-width: 767.98px)';

const matches = (query: string) => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;

/**
 * Whether the side menu is folded: folded on narrow screens at first, then as the user leaves it.
 * Apart from SideMenu.tsx, which the layout loads on its own (React.lazy) after its first draw.
 */
export function useSiderCollapsed(): [boolean, (v: boolean) => void] {
  return useState(() => matches(NARROW));
}

/**
 * Whether the screen is a phone's (below antd's md breakpoint, 768 px): the side menu then opens
 * as a drawer instead of taking a column beside the page. antd's breakpoints answer after the
 * first render (they subscribe in an effect), so the first render asks the media query itself.
 */
export function usePhoneLayout(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === undefined ? matches(PHONE) : !screens.md;
}
