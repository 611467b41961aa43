import { mailAccountEndpoints, smsChannelEndpoints, type MailAccountRecord, type SmsChannelRecord } from '@ess/contract/messaging';
import { useState } from 'react';
import { ResourceTable, type ResourceDef } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { RowButton, useOutcome, useRowCall } from './parts.tsx';
import { TestSendModal } from './TestSendModal.tsx';

type Sender = MailAccountRecord | SmsChannelRecord;

/**
 * The list of mail accounts or SMS channels with their row actions: test the connection (mail),
 * send a test message, enable or disable (an edit of the row's own values with `enabled` turned,
 * the secret left out so it stays), beside the shared edit and delete-with-confirmation.
 */
export function SenderPage<R extends Sender, F>({ kind, def, toggleBody }: {
  kind: 'mail' | 'sms';
  def: ResourceDef<R, F>;
  /** The edit body of a row with `enabled` set (no secret: the stored one stays). */
  toggleBody: (row: R, enabled: boolean) => Record<string, unknown>;
}) {
  const t = useT();
  const outcome = useOutcome();
  const { busy, run } = useRowCall(def.key);
  const [sending, setSending] = useState<number | null>(null);
  const eps = kind === 'mail' ? mailAccountEndpoints : smsChannelEndpoints;
  const canTest = useCan(mailAccountEndpoints.testConnection) && kind === 'mail';
  const canSend = useCan(eps.testSend);
  const canEdit = useCan(eps.edit);
  const testConnection = async (row: R) => {
    const r = await run(`test-${row.id}`, () => call(mailAccountEndpoints.testConnection, { id: row.id }));
    if (r) outcome(r);
  };
  const toggle = (row: R) => run(`toggle-${row.id}`, () => call(eps.edit, toggleBody(row, !row.enabled) as never));
  return (
    <>
      <ResourceTable
        def={def}
        rowActions={(row) => [
          ...(canTest
            ? [<RowButton key="test" icon="test" text={t('测试连接')} testId="sender-test" loading={busy === `test-${row.id}`} onClick={() => void testConnection(row)} />]
            : []),
          ...(canSend ? [<RowButton key="send" icon="send" text={t(kind === 'mail' ? '发送测试邮件' : '测试发送')} testId="sender-send" onClick={() => setSending(row.id)} />] : []),
          ...(canEdit
            ? [
                <RowButton
                  key="toggle"
                  icon={row.enabled ? 'off' : 'on'}
                  text={t(row.enabled ? '停用' : '启用')}
                  testId="sender-toggle"
                  loading={busy === `toggle-${row.id}`}
                  onClick={() => void toggle(row)}
                />,
              ]
            : []),
        ]}
      />
      {sending !== null && <TestSendModal kind={kind} id={sending} onClose={() => setSending(null)} onResult={outcome} />}
    </>
  );
}
