import { CheckOutlined, SaveOutlined } from '@ant-design/icons';
import { translationProblems, type OriginalRecord } from '@ess/contract/i18n';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { call, RequestError } from '../../platform/request.ts';
import { problemText } from './parts.tsx';
import { DOMAIN_CALLS, type Domain } from './translation.api.ts';

/**
 * Edits one translation: the source's checks (placeholders $1…$n, leading and trailing
 * whitespace, length) are shown as the text is typed; saving sends it and shows the server's
 * refusal when it has one. "Save and review" marks it reviewed.
 */
export function TranslationEditor({ domain, row, onSaved, onCancel, autoFocus }: { domain: Domain; row: OriginalRecord; onSaved: () => void; onCancel?: () => void; autoFocus?: boolean }) {
  const t = useT();
  const [text, setText] = useState(row.translation ?? '');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const problems = text ? translationProblems(row.source, text, row.maxLength) : [];
  const save = async (reviewed: boolean) => {
    setSaving(true);
    setRefusal(null);
    try {
      await call(DOMAIN_CALLS[domain].edit, { id: row.id, languageId: row.languageId, translation: text, reviewed }, { noMessage: true });
      onSaved();
    } catch (e) {
      setRefusal(e instanceof RequestError ? (e.envelope?.tipMsg ?? e.message) : String(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div data-testid="translation-editor">
      <Input.TextArea
        value={text}
        autoFocus={autoFocus}
        autoSize={{ minRows: 2, maxRows: 8 }}
        aria-label={t('译文')}
        data-testid="translation-input"
        onChange={(e) => {
          setText(e.target.value);
          setRefusal(null);
        }}
      />
      {problems.length > 0 && (
        <ul className="ess-translation-problems" data-testid="translation-problems" style={{ margin: '4px 0', paddingInlineStart: 18, color: '#ad4e00' }}>
          {problems.map((p) => <li key={p}>{problemText(p, t)}</li>)}
        </ul>
      )}
      {refusal && <Alert type="error" showIcon message={problemText(refusal, t)} data-testid="translation-refusal" style={{ marginTop: 4 }} />}
      <Space style={{ marginTop: 6 }} wrap>
        <Button size="small" type="primary" icon={<SaveOutlined />} loading={saving} onClick={() => void save(false)} data-testid="translation-save">
          {t('保存')}
        </Button>
        <Button size="small" icon={<CheckOutlined />} disabled={!text} loading={saving} onClick={() => void save(true)} data-testid="translation-save-review">
          {t('保存并审校')}
        </Button>
        {onCancel && <Button size="small" onClick={onCancel}>{t('取消')}</Button>}
        {row.maxLength ? <Typography.Text type="secondary">{t('最多 $1 个字符', row.maxLength)}</Typography.Text> : null}
      </Space>
    </div>
  );
}
