import { NOTE_MAX_LENGTH } from '@ess/contract/constants';
import { STATEMENT_ACTION_LABELS, type StatementRecord } from '@ess/contract/statement';
import { App, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { statementEndpoints } from '@ess/contract/statement';
import { statementApi, useStatementRefresh } from './statement.api.ts';
import { signed, statementActions, type OfferedAction } from './statement.model.ts';

const HINTS: Record<OfferedAction, string> = {
  recompute: '按当前读数和电价重新计算草稿结算单，完成后显示总收益的变化。',
  confirmInvestor: '以投资方身份确认本结算单的电量和金额。',
  confirmPowerUser: '以电力用户身份确认本结算单的电量和金额。',
  lock: '锁定后结算单不能再修改，所用电价成为历史版本。',
  dispute: '退回草稿，须填写原因。',
};

/** The permissions of the statement calls. */
export function useStatementCan() {
  return { edit: useCan(statementEndpoints.edit), update: useCan(statementEndpoints.update) };
}

/**
 * The lifecycle buttons of a statement (list row or detail): only the actions its state and the
 * caller's role and permissions allow; each asks first (a dispute with its reason) and shows the
 * outcome (a recompute: the difference it made).
 */
export function StatementActionButtons({ statement, size = 'small', type = 'link' }: {
  statement: Pick<StatementRecord, 'id' | 'code' | 'state' | 'roles' | 'currency'>;
  size?: 'small' | 'middle';
  type?: 'link' | 'default';
}) {
  const t = useT();
  const can = useStatementCan();
  const [pending, setPending] = useState<OfferedAction | null>(null);
  const actions = statementActions(statement, can);
  if (!actions.length) return null;
  return (
    <>
      {actions.map((a) => (
        <Button
          key={a}
          size={size}
          type={a === 'confirmInvestor' || a === 'confirmPowerUser' || a === 'lock' ? (type === 'link' ? 'link' : 'primary') : type}
          danger={a === 'dispute'}
          data-testid={`statement-${a}`}
          onClick={() => setPending(a)}
        >
          {t(STATEMENT_ACTION_LABELS[a])}
        </Button>
      ))}
      {pending && <ActionModal statement={statement} action={pending} onClose={() => setPending(null)} />}
    </>
  );
}

function ActionModal({ statement, action, onClose }: { statement: Pick<StatementRecord, 'id' | 'code' | 'currency'>; action: OfferedAction; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const refresh = useStatementRefresh();
  const [form] = Form.useForm<{ note?: string }>();
  const [busy, setBusy] = useState(false);
  const ok = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      if (action === 'recompute') {
        const r = await statementApi.recompute(statement.id);
        void message.success(t('已重新计算：总收益 $1 → $2（$3）', r.totalBefore, r.totalAfter, signed(r.difference)));
      } else {
        await statementApi.act(statement.id, action, v.note?.trim() ? v.note.trim() : null);
        void message.success(t('操作成功'));
      }
      await refresh();
      onClose();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`${t(STATEMENT_ACTION_LABELS[action])} · ${statement.code}`}
      okText={t(STATEMENT_ACTION_LABELS[action])}
      cancelText={t('取消')}
      okButtonProps={{ danger: action === 'dispute', ...({ 'data-testid': 'statement-action-ok' } as Record<string, string>) }}
      confirmLoading={busy}
      onOk={() => void ok().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">{t(HINTS[action])}</Typography.Paragraph>
        {action !== 'recompute' && (
          <Form form={form} layout="vertical">
            <Form.Item
              name="note"
              label={action === 'dispute' ? t('退回原因') : t('备注')}
              rules={[
                ...(action === 'dispute' ? [{ required: true, whitespace: true, message: t('退回结算单须填写原因') }] : []),
                { max: NOTE_MAX_LENGTH, message: t('备注不能超过$1个字符', NOTE_MAX_LENGTH) },
              ]}
            >
              <Input.TextArea showCount maxLength={NOTE_MAX_LENGTH} autoSize={{ minRows: 2, maxRows: 4 }} data-testid="statement-note" />
            </Form.Item>
          </Form>
        )}
      </Space>
    </Modal>
  );
}
