import { NOTE_MAX_LENGTH } from '@ess/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select } from 'antd';
import { useState, type ReactNode } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { userSource } from './maintenance.options.ts';

/** A note of an action: at most 200 characters (product-spec §5), refused before it is sent. */
export const noteRule = (t: (s: string, ...a: unknown[]) => string) => ({ max: NOTE_MAX_LENGTH, message: t('备注不能超过$1个字符', NOTE_MAX_LENGTH) });

/** The note input of every action form. */
export function NoteInput(props: { id?: string; value?: string; onChange?: (e: unknown) => void }) {
  return <Input.TextArea {...props} showCount maxLength={NOTE_MAX_LENGTH} autoSize={{ minRows: 2, maxRows: 4 }} />;
}

/**
 * A modal form of one action: the fields, then the note; OK runs `submit` with the values and
 * closes on success (a refusal's toast comes from the request layer).
 */
export function ActionModal<V extends object>({
  title, okText, onClose, submit, children, initialValues, danger, testId,
}: {
  title: string;
  okText: string;
  onClose: () => void;
  submit: (values: V) => Promise<unknown>;
  children?: ReactNode;
  initialValues?: Partial<V>;
  danger?: boolean;
  testId?: string;
}) {
  const t = useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<V>();
  const [busy, setBusy] = useState(false);
  const ok = async () => {
    const values = await form.validateFields();
    setBusy(true);
    try {
      await submit(values);
      void message.success(t('操作成功'));
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
      title={title}
      okText={okText}
      cancelText={t('取消')}
      okButtonProps={{ danger, ...({ 'data-testid': testId ? `${testId}-ok` : undefined } as Record<string, string | undefined>) }}
      confirmLoading={busy}
      onOk={() => void ok().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<V> form={form} layout="vertical" initialValues={initialValues} data-testid={testId}>
        {children}
        <Form.Item name={'note' as never} label={t('备注')} rules={[noteRule(t)]}>
          <NoteInput />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The person an order goes to, from the users the caller may see. */
export function AssigneeSelect(props: { id?: string; value?: number; onChange?: (v: number) => void }) {
  const t = useT();
  const users = useQuery({ queryKey: userSource.queryKey, queryFn: userSource.load, staleTime: 60_000 });
  return (
    <Select
      {...props}
      showSearch
      optionFilterProp="label"
      loading={users.isLoading}
      options={users.data}
      placeholder={t('请选择')}
      data-testid="assignee-select"
    />
  );
}

/** Allocation (work orders) or dispatch (repair orders): an assignee and a note. */
export function AssignModal({ title, onClose, submit }: { title: string; onClose: () => void; submit: (v: { assigneeId: number; note?: string }) => Promise<unknown> }) {
  const t = useT();
  return (
    <ActionModal<{ assigneeId: number; note?: string }> title={title} okText={t('确定')} onClose={onClose} submit={submit} testId="assign-form">
      <Form.Item name="assigneeId" label={t('执行人')} rules={[{ required: true, message: t('$1不能为空', t('执行人')) }]}>
        <AssigneeSelect />
      </Form.Item>
    </ActionModal>
  );
}
