import { GlobalOutlined } from '@ant-design/icons';
import { LOCALES, type Locale } from '@ess/contract/constants';
import { Button, Dropdown } from 'antd';
import { setLocale } from '../platform/i18n/language.ts';
import { LOCALE_NAMES } from '../platform/i18n/locales.ts';
import { useLocale, useT } from '../platform/i18n/useT.ts';

/** Picks one of the 16 UI locales (product-spec §9). */
export function LanguageSwitch() {
  const locale = useLocale();
  const t = useT();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [locale],
        items: LOCALES.map((l) => ({ key: l, label: <span lang={l}>{LOCALE_NAMES[l]}</span> })),
        onClick: ({ key }) => void setLocale(key as Locale),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('切换语言')} data-testid="language-switch">
        {LOCALE_NAMES[locale]}
      </Button>
    </Dropdown>
  );
}

