import { CloseOutlined, TranslationOutlined } from '@ant-design/icons';
import { i18nEndpoints } from '@ess/contract/i18n';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { forgetPacks, loadLanguagePack } from '../../platform/i18n/language.ts';
import { seenSources, setTranslateMode } from '../../platform/i18n/translate-mode.ts';
import { useI18nStore } from '../../platform/i18n/translate.ts';
import { useLocale, useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { globalizationKeys } from './globalization.keys.ts';
import { StateTag } from './parts.tsx';
import { sourceOfShown, shownTexts } from './translate-mode.match.ts';
import { TranslationEditor } from './TranslationEditor.tsx';

/** Marks the translate mode's own parts: clicks there are not taken as a text to translate. */
const OWN = 'data-translate-mode-ui';

/** The editor of one source text in the current language: source, state, translation; saving reloads the pack. */
function InContextEditor({ source, onClose }: { source: string; onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  const { data, isLoading } = useQuery({
    queryKey: globalizationKeys.original(locale, source),
    queryFn: () => call(i18nEndpoints.textPage, { languageId: locale, keyword: source, current: 1, pageSize: 50, withObsolete: false }, { loading: false }),
    enabled: locale !== 'zh-CN',
  });
  const row = data?.records.find((r) => r.source === source);
  const saved = () => {
    forgetPacks();
    void loadLanguagePack();
    onClose();
  };
  return (
    <Modal open title={t('编辑译文')} onCancel={onClose} footer={null} width={560} wrapProps={{ [OWN]: '' }}>
      <div {...{ [OWN]: '' }} data-testid="in-context-editor">
        {locale === 'zh-CN' ? (
          <Alert type="info" showIcon message={t('简体中文是原文：切换到其他语言后点击文本即可翻译')} />
        ) : isLoading ? (
          <Spin />
        ) : !row ? (
          <Alert type="warning" showIcon message={t('该文本不在界面文本目录中，请先刷新界面文本')} data-testid="in-context-unknown" />
        ) : (
          <>
            <Descriptions size="small" column={1} bordered style={{ marginBottom: 12 }}>
              <Descriptions.Item label={t('原文')}>
                <span lang="zh-CN" data-testid="in-context-source">{row.source}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('状态')}>
                <StateTag state={row.state} />
              </Descriptions.Item>
            </Descriptions>
            <TranslationEditor domain="text" row={row} autoFocus onSaved={saved} onCancel={onClose} />
          </>
        )}
      </div>
    </Modal>
  );
}

/**
 * Translate mode, mounted by the layout while it is on: a click on any text that came through the
 * pack function opens its translation in place (the click does nothing else); a bar says the mode
 * is on and turns it off.
 */
export default function TranslateMode() {
  const t = useT();
  const [source, setSource] = useState<string | null>(null);
  const [missed, setMissed] = useState(false);
  useEffect(() => {
    document.body.classList.add('ess-translate-mode');
    const onClick = (e: MouseEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (!target || target.closest(`[${OWN}]`)) return;
      e.preventDefault();
      e.stopPropagation();
      const pack = useI18nStore.getState().pack;
      const found = shownTexts(target).map((text) => sourceOfShown(text, seenSources, pack)).find((s) => s !== null) ?? null;
      setMissed(found === null);
      if (found) setSource(found);
    };
    document.addEventListener('click', onClick, true);
    return () => {
      document.removeEventListener('click', onClick, true);
      document.body.classList.remove('ess-translate-mode');
    };
  }, []);
  return (
    <>
      <div className="ess-translate-bar" role="status" data-testid="translate-mode-bar" {...{ [OWN]: '' }}>
        <TranslationOutlined aria-hidden />
        <span>{missed ? t('该处不是语言包中的文本') : t('翻译模式：点击界面上的文本即可编辑它的译文')}</span>
        <Button size="small" icon={<CloseOutlined />} onClick={() => setTranslateMode(false)} data-testid="translate-mode-off">
          {t('退出翻译模式')}
        </Button>
      </div>
      {source && <InContextEditor source={source} onClose={() => setSource(null)} />}
    </>
  );
}
