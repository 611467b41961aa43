import { EditOutlined } from '@ant-design/icons';
import { i18nEndpoints, type LanguageRecord } from '@ess/contract/i18n';
import { Space, Switch, Typography } from 'antd';
import { ResourceTable } from '../../components/crud/index.ts';
import { setTranslateMode, useTranslateMode } from '../../platform/i18n/translate-mode.ts';
import { useLocale, useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { globalizationKeys } from './globalization.keys.ts';
import { languageResource } from './language.resource.tsx';
import { useRowCall } from './useRowCall.ts';

/** The switch of in-context editing: on, a click on any text of the console opens its translation. */
export function TranslateModeSwitch() {
  const t = useT();
  const on = useTranslateMode((s) => s.on);
  const locale = useLocale();
  const canEdit = useCan(i18nEndpoints.textEdit);
  if (!canEdit) return null;
  return (
    <Space>
      <EditOutlined aria-hidden />
      <label htmlFor="translate-mode-switch">{t('翻译模式')}</label>
      <Switch id="translate-mode-switch" checked={on} onChange={setTranslateMode} data-testid="translate-mode" />
      {on && locale === 'zh-CN' && <Typography.Text type="secondary">{t('简体中文是原文：切换到其他语言后点击文本即可翻译')}</Typography.Text>}
    </Space>
  );
}

/** /globalization/language: the 16 languages, enabled or not, their formats and their completion per state. */
export function LanguagePage() {
  const t = useT();
  const canEdit = useCan(i18nEndpoints.languageEdit);
  const { busy, run } = useRowCall(globalizationKeys.languages);
  const toggle = (r: LanguageRecord, enabled: boolean) =>
    run(`enable-${r.id}`, () =>
      call(i18nEndpoints.languageEdit, {
        id: r.id, name: r.name, nativeName: r.nativeName, direction: r.direction, uiLocale: r.uiLocale, dateFormat: r.dateFormat, numberLocale: r.numberLocale, enabled, sort: r.sort,
      }),
    );
  return (
    <ResourceTable
      def={languageResource}
      toolbar={() => [<TranslateModeSwitch key="mode" />]}
      rowActions={(r) =>
        canEdit && !r.isSource
          ? [
              <Switch
                key="enabled"
                size="small"
                checked={r.enabled}
                loading={busy === `enable-${r.id}`}
                aria-label={t('启用 $1', r.nativeName)}
                data-testid={`language-enabled-${r.code}`}
                onChange={(v) => void toggle(r, v)}
              />,
            ]
          : []
      }
    />
  );
}
