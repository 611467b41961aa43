import { ApiOutlined, SendOutlined } from '@ant-design/icons';
import { mailAccountEndpoints, smsChannelEndpoints } from '@ess/contract/messaging';
import { App, Button, Space, type FormInstance } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { validateWith } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { editedId } from './form.parts.tsx';
import { useOutcome } from './parts.tsx';
import { TestSendModal } from './TestSendModal.tsx';

/**
 * "Test connection" (mail) and "send a test" inside the account's or channel's form: with the
 * values as typed, saved or not (an edit's empty secret is the stored one, the server decides
 * whether it may use it). The values are checked with the add schema first and their issues shown
 * on their fields; nothing is saved.
 */
export function FormTests<F>({ kind, form, schema, labels, toSettings }: {
  kind: 'mail' | 'sms';
  form: FormInstance<F>;
  schema: z.ZodType;
  /** Field labels (source text) for the issues of the check. */
  labels: Record<string, string>;
  /** The account's or channel's settings in the form (the add body). */
  toSettings: (values: F) => Record<string, unknown>;
}) {
  const t = useT();
  const { message } = App.useApp();
  const outcome = useOutcome();
  const canTest = useCan(mailAccountEndpoints.testConnection) && kind === 'mail';
  const canSend = useCan(kind === 'mail' ? mailAccountEndpoints.testSend : smsChannelEndpoints.testSend);
  const [testing, setTesting] = useState(false);
  const [sending, setSending] = useState<Record<string, unknown> | null>(null);
  const id = editedId(form as FormInstance<unknown>);

  const settings = (): Record<string, unknown> | null => {
    const body = toSettings(form.getFieldsValue(true) as F);
    const checked = validateWith(schema, body, labels, t);
    if (checked.ok) return body;
    form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as never, errors })));
    for (const text of checked.errors.form) void message.error(text);
    return null;
  };
  const testConnection = async () => {
    const s = settings();
    if (!s) return;
    setTesting(true);
    try {
      outcome(await call(mailAccountEndpoints.testConnection, { ...(id ? { id } : {}), ...s } as never));
    } catch {
      // The request layer has shown the reason.
    } finally {
      setTesting(false);
    }
  };
  return (
    <div data-testid="form-tests">
      <Space wrap>
        {canTest && (
          <Button icon={<ApiOutlined />} loading={testing} onClick={() => void testConnection()} data-testid="form-test-connection">
            {t('测试连接')}
          </Button>
        )}
        {canSend && (
          <Button icon={<SendOutlined />} onClick={() => setSending(settings())} data-testid="form-test-send">
            {t(kind === 'mail' ? '发送测试邮件' : '测试发送')}
          </Button>
        )}
      </Space>
      {sending && <TestSendModal kind={kind} id={id} unsaved={sending} onClose={() => setSending(null)} onResult={outcome} />}
    </div>
  );
}
