import { ApiOutlined, CheckCircleOutlined, EyeOutlined, PoweroffOutlined, SendOutlined } from '@ant-design/icons';
import {
  MESSAGE_STATE_LABELS, TEMPLATE_BAD_PLACEHOLDER, templateVariables, type ConnectionTestResult, type MailPreview, type MessageState,
  type SendTestResult, type SmsPreview,
} from '@ess/contract/messaging';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Empty, Form, Modal, Select, Space, Spin, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useOptionSource, type Translate } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { STATE_TONES, variableLabel } from './messaging.options.ts';

/** A message's state as its coloured tag. */
export function StateTag({ state }: { state: MessageState }) {
  const t = useT();
  return <ToneTag tone={STATE_TONES[state]} testId={`state-${state}`}>{t(MESSAGE_STATE_LABELS[state])}</ToneTag>;
}

/** Whether a secret is stored: never its value. */
export const secretCell = (set: boolean, t: Translate) => <ToneTag tone={set ? 'success' : 'default'}>{t(set ? '已设置' : '未设置')}</ToneTag>;

/** The log filters' time range as the contract takes it (ISO times with their offset). */
export const isoRange = (v: unknown): Record<string, unknown> => {
  const [from, to] = Array.isArray(v) ? (v as unknown[]) : [];
  const iso = (x: unknown) => {
    if (x === null || x === undefined || x === '') return undefined;
    const d = new Date(typeof x === 'object' && x && 'valueOf' in x ? Number(x.valueOf()) : (x as string | number));
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  };
  return { ...(iso(from) ? { start: iso(from) } : {}), ...(iso(to) ? { end: iso(to) } : {}) };
};

/**
 * The variables a template's texts use, listed as the user types (the contract's templateVariables,
 * the same code the server checks with): known ones with their meaning, unknown ones and malformed
 * placeholders flagged red before anything is sent.
 */
export function VariableList({ texts }: { texts: readonly (string | null | undefined)[] }) {
  const t = useT();
  const names: string[] = [];
  const bad: string[] = [];
  for (const text of texts) {
    const found = templateVariables(text ?? '');
    for (const n of found.names) if (!names.includes(n)) names.push(n);
    for (const b of found.bad) if (!bad.includes(b)) bad.push(b);
  }
  const unknown = names.filter((n) => !variableLabel(n));
  return (
    <div data-testid="template-variables" className="ess-template-variables">
      {names.length === 0 && bad.length === 0 ? (
        <Typography.Text type="secondary">{t('未使用变量')}</Typography.Text>
      ) : (
        <Space size={[4, 4]} wrap>
          {names.map((n) => {
            const label = variableLabel(n);
            return label ? (
              <Tag key={n} data-testid="variable-known">
                <code>{`\${${n}}`}</code> {t(label)}
              </Tag>
            ) : (
              <Tag key={n} color="red" data-testid="variable-unknown">
                <code>{`\${${n}}`}</code> {t('未知变量')}
              </Tag>
            );
          })}
          {bad.map((b) => (
            <Tag key={b} color="red" data-testid="variable-bad">
              <code>{b}</code> {t('格式不正确')}
            </Tag>
          ))}
        </Space>
      )}
      {unknown.length > 0 && <Alert className="ess-template-variables-alert" type="error" showIcon message={t('模板使用了未知变量')} data-testid="variables-unknown-alert" />}
      {bad.length > 0 && <Alert className="ess-template-variables-alert" type="error" showIcon message={t(TEMPLATE_BAD_PLACEHOLDER)} />}
    </div>
  );
}

/** The server's answer of a connection test or a test send, in a dialog: its message, the peer's reason, the figures. */
export function useOutcome() {
  const t = useT();
  const { modal } = App.useApp();
  return (r: ConnectionTestResult | SendTestResult) => {
    const lines: ReactNode[] = [];
    if (r.reason) lines.push(<div key="reason" data-testid="outcome-reason">{t('原因：$1', r.reason)}</div>);
    if ('latencyMs' in r) lines.push(<div key="latency">{t('耗时 $1 ms', Math.round(r.latencyMs))}</div>);
    if ('providerMessageId' in r && r.providerMessageId) lines.push(<div key="pid">{t('服务商消息编号：$1', r.providerMessageId)}</div>);
    const content = <div data-testid="outcome">{lines}</div>;
    const title = <span data-testid="outcome-message">{t(r.message)}</span>;
    if (r.ok) modal.success({ title, content, okText: t('确定') });
    else modal.error({ title, content, okText: t('确定') });
  };
}

/** A row's action button (test, send, preview, enable/disable). */
export function RowButton({ icon, text, onClick, testId, loading }: { icon: 'test' | 'send' | 'preview' | 'on' | 'off'; text: string; onClick: () => void; testId: string; loading?: boolean }) {
  const icons = { test: <ApiOutlined />, send: <SendOutlined />, preview: <EyeOutlined />, on: <CheckCircleOutlined />, off: <PoweroffOutlined /> };
  return (
    <Button type="link" size="small" icon={icons[icon]} onClick={onClick} data-testid={testId} loading={loading}>
      {text}
    </Button>
  );
}

/** Runs a call for a row and refreshes the screen's lists (its query root) after it. */
export function useRowCall(root: readonly string[]) {
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async <T,>(key: string, fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(key);
    try {
      return await fn();
    } catch {
      // The request layer has shown the reason.
      return undefined;
    } finally {
      setBusy(null);
      await client.invalidateQueries({ queryKey: root });
    }
  };
  return { busy, run };
}

/** A station picker (the stations the caller may see); empty: the server takes the first one. */
export function StationSelect({ value, onChange, id }: { value?: number; onChange?: (v: number | undefined) => void; id: string }) {
  const t = useT();
  const sites = useOptionSource(siteSource);
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      options={sites.data ?? []}
      loading={sites.isFetching}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('默认：第一个站点')}
      style={{ width: '100%' }}
    />
  );
}

/** A rendered preview: mail subject, HTML (in a sandboxed frame, never in the page) and text; SMS content with its length. */
export function PreviewBody({ preview }: { preview: MailPreview | SmsPreview }) {
  const t = useT();
  const values = Object.entries(preview.values);
  return (
    <div data-testid="preview">
      <Descriptions
        column={1}
        size="small"
        bordered
        styles={{ label: { whiteSpace: 'nowrap', width: 120 } }}
        items={[
          { key: 'site', label: t('站点'), children: preview.siteName ?? t('示例数据') },
          ...('subject' in preview
            ? [
                { key: 'subject', label: t('邮件主题'), children: <span data-testid="preview-subject">{preview.subject}</span> },
                {
                  key: 'html', label: t('HTML正文'),
                  children: <iframe className="ess-mail-frame" sandbox="" srcDoc={preview.html} title={t('HTML正文')} data-testid="preview-html" />,
                },
                { key: 'text', label: t('纯文本正文'), children: <pre className="ess-mail-text">{preview.text}</pre> },
              ]
            : [
                { key: 'content', label: t('短信内容'), children: <pre className="ess-mail-text" data-testid="preview-content">{preview.content}</pre> },
                { key: 'length', label: t('字数'), children: t('$1 字，$2 条短信', preview.length, preview.segments) },
              ]),
          {
            key: 'values', label: t('变量取值'),
            children: values.length ? (
              <Space size={[4, 4]} wrap>
                {values.map(([k, v]) => (
                  <Tag key={k}>
                    <code>{k}</code> = {v || '-'}
                  </Tag>
                ))}
              </Space>
            ) : (
              '-'
            ),
          },
        ]}
      />
    </div>
  );
}

/**
 * The preview dialog: a station to fill the variables with, then the server's rendering of the
 * template (a saved one or the form's unsaved text, as `load` asks for it).
 */
export function PreviewModal<P extends MailPreview | SmsPreview>({ load, onClose }: { load: (siteId?: number) => Promise<P>; onClose: () => void }) {
  const t = useT();
  const [siteId, setSiteId] = useState<number | undefined>();
  const [state, setState] = useState<{ loading: boolean; preview: P | null }>({ loading: false, preview: null });
  const run = async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      setState({ loading: false, preview: await load(siteId) });
    } catch {
      setState({ loading: false, preview: null });
    }
  };
  return (
    <Modal open title={t('模板预览')} width={760} onCancel={onClose} footer={<Button onClick={onClose}>{t('关闭')}</Button>} destroyOnHidden>
      <Form layout="inline" className="ess-preview-form">
        <Form.Item label={t('站点')} htmlFor="preview-site" style={{ minWidth: 280, flex: 1 }}>
          <StationSelect id="preview-site" value={siteId} onChange={setSiteId} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" onClick={() => void run()} loading={state.loading} data-testid="preview-run">
            {t('预览')}
          </Button>
        </Form.Item>
      </Form>
      <div style={{ marginTop: 16 }}>
        {state.loading ? <Spin /> : state.preview ? <PreviewBody preview={state.preview} /> : <Empty description={t('选择站点后点击预览')} />}
      </div>
    </Modal>
  );
}
