import { LOCALES, type Locale } from '@ess/contract/constants';
import { Dropdown } from 'antd';
import { useState, type ReactElement } from 'react';
import { setLocale } from '../platform/i18n/language.ts';
import { LOCALE_NAMES } from '../platform/i18n/locales.ts';
import { useLocale } from '../platform/i18n/useT.ts';

/** The language dropdown of LanguageSwitch (its own chunk); mounted on the first click, so it starts open. */
export default function LanguageMenu({ children }: { children: ReactElement }) {
  const locale = useLocale();
  const [open, setOpen] = useState(true);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [locale],
        items: LOCALES.map((l) => ({ key: l, label: <span lang={l}>{LOCALE_NAMES[l]}</span> })),
        onClick: ({ key }) => {
          setOpen(false);
          void setLocale(key as Locale);
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
