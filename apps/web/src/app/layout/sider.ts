import { useState } from 'react';

const NARROW = '(max-width: 991px)';

/**
 * Whether the side menu is folded: folded on narrow screens at first, then as the user leaves it.
 * Apart from SideMenu.tsx, which the layout loads on its own (React.lazy) after its first draw.
 */
export function useSiderCollapsed(): [boolean, (v: boolean) => void] {
  return useState(() => typeof window.matchMedia === 'function' && window.matchMedia(NARROW).matches);
}
