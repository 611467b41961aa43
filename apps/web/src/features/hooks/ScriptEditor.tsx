import { CheckCircleOutlined, FileAddOutlined, LockOutlined } from '@ant-design/icons';
import { basicEndpoints } from '@ess/contract/basic';
import { HOOK_PARAM_SOURCES, type HookParamOption, type HookParamSource } from '@ess/contract/hooks';
import { Alert, Button, Col, Empty, Input, Row, Space, Tag, Tooltip, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useRef, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { insertAt, SCRIPT_TEMPLATE, scriptVerdict, type ScriptVerdict } from './hook.form.ts';

/** Source-text headings of the parameter groups. */
export const PARAM_SOURCE_LABELS: Record<HookParamSource, string> = { event: '事件字段', payload: '载荷字段', constant: '常量参数', secret: '密钥参数' };

/** Checks a script with the server's sandbox (/basic/validate/script): the verdict as shown, or null when the call failed. */
export async function checkScript(script: string): Promise<ScriptVerdict | null> {
  try {
    return scriptVerdict(await call(basicEndpoints.validateScript, { script }));
  } catch {
    return null;
  }
}

/** The verdict of a check: valid, or the spec's message with the line, column and what the engine said. */
export function VerdictAlert({ verdict }: { verdict: ScriptVerdict }) {
  const t = useT();
  if (verdict.valid) return <Alert type="success" showIcon message={t('脚本检查通过')} data-testid="script-valid" />;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="script-error"
      message={t(verdict.title)}
      description={
        <span>
          {verdict.line !== null ? <strong data-testid="script-error-line">{t('第 $1 行，第 $2 列', verdict.line, verdict.column ?? 1)}：</strong> : null}
          <code>{verdict.message}</code>
        </span>
      }
    />
  );
}

/**
 * The script of a hook: a code area, the values it can use (click one to insert it at the caret),
 * and a check in the server's sandbox that answers the line and message of the first problem.
 */
export function ScriptEditor({ id, value, onChange, params }: { id: string; value?: string | null; onChange?: (v: string) => void; params: HookParamOption[] }) {
  const t = useT();
  const area = useRef<TextAreaRef>(null);
  const [verdict, setVerdict] = useState<ScriptVerdict | null>(null);
  const [checking, setChecking] = useState(false);
  const text = value ?? '';
  const insert = (expression: string) => {
    const el = area.current?.resizableTextArea?.textArea;
    const r = insertAt(text, expression, el?.selectionStart ?? text.length, el?.selectionEnd ?? text.length);
    onChange?.(r.text);
    setVerdict(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(r.caret, r.caret);
    });
  };
  const check = async () => {
    setChecking(true);
    setVerdict(await checkScript(text));
    setChecking(false);
  };
  const groups = HOOK_PARAM_SOURCES.map((s) => ({ source: s, list: params.filter((p) => p.source === s) })).filter((g) => g.list.length > 0);
  return (
    <Row gutter={[16, 12]}>
      <Col xs={24} lg={16}>
        <Input.TextArea
          id={id}
          ref={area}
          className="ess-hook-script"
          value={text}
          onChange={(e) => {
            onChange?.(e.target.value);
            setVerdict(null);
          }}
          autoSize={{ minRows: 12, maxRows: 30 }}
          spellCheck={false}
          placeholder={t('留空则发送标准事件信封 { type, timestamp, data }')}
          data-testid="script-input"
        />
        <Space style={{ marginTop: 8 }} wrap>
          <Button icon={<CheckCircleOutlined />} onClick={() => void check()} loading={checking} disabled={!text.trim()} data-testid="script-check">
            {t('检查脚本')}
          </Button>
          {!text.trim() && (
            <Button icon={<FileAddOutlined />} onClick={() => onChange?.(SCRIPT_TEMPLATE)} data-testid="script-template">
              {t('插入示例脚本')}
            </Button>
          )}
          <Typography.Text type="secondary">{t('脚本定义 main(event, params)，返回请求体；返回 null 则跳过')}</Typography.Text>
        </Space>
        {verdict && <div style={{ marginTop: 8 }}><VerdictAlert verdict={verdict} /></div>}
      </Col>
      <Col xs={24} lg={8}>
        <div className="ess-hook-params" data-testid="script-params">
          <Typography.Text strong>{t('可用参数（点击插入）')}</Typography.Text>
          {groups.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('选择触发器后显示可用参数')} />}
          {groups.map((g) => (
            <div key={g.source} style={{ marginTop: 8 }}>
              <Typography.Text type="secondary">{t(PARAM_SOURCE_LABELS[g.source])}</Typography.Text>
              <div>
                {g.list.map((p) => (
                  <Tooltip key={p.expression} title={`${p.label ? t(p.label) : p.name} · ${p.type}`}>
                    <Tag
                      role="button"
                      tabIndex={0}
                      icon={p.source === 'secret' ? <LockOutlined /> : undefined}
                      onClick={() => insert(p.expression)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          insert(p.expression);
                        }
                      }}
                      data-testid="script-param"
                    >
                      <code>{p.expression}</code>
                    </Tag>
                  </Tooltip>
                ))}
              </div>
            </div>
          ))}
        </div>
      </Col>
    </Row>
  );
}
