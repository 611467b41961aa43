import { LOCALES, type Locale } from '@ess/contract/constants';
import type { EndpointRef } from '@ess/contract/endpoint';
import type { EnabledLanguage, i18nEndpoints } from '@ess/contract/i18n';
import { Dropdown } from 'antd';
import { useEffect, useState, type ReactElement } from 'react';
import { setLocale } from '../platform/i18n/language.ts';
import { callRef } from '../platform/request.ts';
import { LOCALE_NAMES } from '../platform/i18n/locales.ts';
import { useLocale } from '../platform/i18n/useT.ts';

/** The languages an administrator enabled (/globalization/language); public, as the login page switches too. */
const ENABLED: EndpointRef<typeof i18nEndpoints.languageEnable> = { method: 'GET', path: '/i18n/language/query/enable' };

/**
 * The language dropdown of LanguageSwitch (its own chunk); mounted on the first click, so it starts
 * open. It offers the enabled languages the console has a UI for (every locale until they are
 * known, or when the call fails), and always the current one.
 */
export default function LanguageMenu({ children }: { children: ReactElement }) {
  const locale = useLocale();
  const [open, setOpen] = useState(true);
  const [enabled, setEnabled] = useState<Set<string> | null>(null);
  useEffect(() => {
    let live = true;
    callRef(ENABLED, undefined, { noMessage: true, loading: false })
      .then((rows: EnabledLanguage[] | null) => live && rows && setEnabled(new Set(rows.map((r) => r.code))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const offered = LOCALES.filter((l) => !enabled || enabled.has(l) || l === locale);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [locale],
        items: offered.map((l) => ({ key: l, label: <span lang={l}>{LOCALE_NAMES[l]}</span> })),
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
