import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { LOCALE_NAMES } from '../platform/i18n/locales.ts';
import { useLocale, useT } from '../platform/i18n/useT.ts';

const loadMenu = () => import('./LanguageMenu.tsx');
const LanguageMenu = lazy(loadMenu);

/**
 * Picks one of the 16 UI locales (product-spec §9). The button is all the first paint needs; the
 * dropdown (antd's Dropdown and Menu, heavy for the login page) loads when the pointer or focus
 * comes near and opens on the first click.
 */
export function LanguageSwitch() {
  const locale = useLocale();
  const t = useT();
  const [wanted, setWanted] = useState(false);
  const preload = () => void loadMenu();
  const button = (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      // The visible language name leads the accessible name.
      aria-label={`${LOCALE_NAMES[locale]} · ${t('切换语言')}`}
      data-testid="language-switch"
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => setWanted(true)}
    >
      {/* Hidden in the header on a phone (styles.css), so that the console's title keeps its room. */}
      <span className="ess-header-label">{LOCALE_NAMES[locale]}</span>
    </Button>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu>{button}</LanguageMenu>
    </Suspense>
  );
}
