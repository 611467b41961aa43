import type { DeviceProperty, DeviceRecord } from '@ess/contract/device';
import type { ControlResult } from '@ess/contract/monitor';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Modal, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { canCall } from '../../platform/permissions.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { controlsFor, isPasswordRefusal, passwordWindowOpen, sendControl, withSecondaryPassword, type ControlAction } from './controls.ts';
import { monitorKeys } from './monitor.keys.ts';

interface Pending {
  action: ControlAction;
  needsPassword: boolean;
}

/**
 * The controls the device's type accepts. Each asks for confirmation; critical ones also for
 * the secondary password (the operator's sign-in password) unless it was checked a few minutes
 * ago. The device's answer, or the refusal / timeout, is shown in the dialog.
 */
export function ControlPanel({ device, properties }: { device: DeviceRecord; properties: readonly DeviceProperty[] }) {
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const values = useMemo(() => Object.fromEntries(properties.map((p) => [p.identifier, p.value])), [properties]);
  // Only the commands the user may send (the profile's permissions).
  const permissions = useUserStore((s) => s.permissions);
  const actions = controlsFor(device, values).filter((a) => canCall(permissions, a.endpoint));
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<{ password?: string; input?: number }>();

  if (!actions.length) return null;
  const disabled = device.disabled || device.status !== 'online';

  const open = (action: ControlAction) => {
    setError(null);
    form.resetFields();
    form.setFieldsValue({ input: action.input?.initial });
    setPending({ action, needsPassword: action.critical && !passwordWindowOpen() });
  };

  const run = async () => {
    if (!pending) return;
    const { password, input } = await form.validateFields();
    setBusy(true);
    setError(null);
    try {
      const entered = pending.needsPassword ? password : undefined;
      const answer: ControlResult = await withSecondaryPassword(device.id, entered, () => sendControl(pending.action, device.id, input ?? undefined, password));
      void message.success(t('设备已执行（$1 ms）', answer.durationMs));
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: monitorKeys.properties(device.id) });
      void queryClient.invalidateQueries({ queryKey: monitorKeys.faults(device.id) });
    } catch (e) {
      if (isPasswordRefusal(e)) setPending((p) => (p ? { ...p, needsPassword: true } : p));
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('远程控制')} data-testid="control-panel">
      <Space wrap>
        {actions.map((a) => (
          <Button key={a.key} danger={a.danger} disabled={disabled} onClick={() => open(a)} data-testid={`control-${a.key}`}>
            {t(a.label)}
          </Button>
        ))}
        {disabled && <Typography.Text type="secondary">{t('设备在线时才能远程控制')}</Typography.Text>}
      </Space>
      <Modal
        open={pending !== null}
        title={pending ? t(pending.action.label) : ''}
        okText={t('确定')}
        cancelText={t('取消')}
        okButtonProps={{ danger: pending?.action.danger, loading: busy, id: 'control-confirm' }}
        onOk={() => void run()}
        onCancel={() => !busy && setPending(null)}
        maskClosable={false}
        destroyOnHidden
      >
        {pending && (
          <Form form={form} layout="vertical" preserve={false}>
            <Typography.Paragraph>{t(pending.action.confirm)}</Typography.Paragraph>
            <Typography.Paragraph type="secondary">{t('设备：$1（$2）', device.name, device.code)}</Typography.Paragraph>
            {pending.action.input && (
              <Form.Item
                name="input"
                label={`${t(pending.action.input.label)} (${pending.action.input.unit})`}
                rules={[{ required: true, message: t('$1不能为空', t(pending.action.input.label)) }]}
              >
                <InputNumber min={pending.action.input.min} max={pending.action.input.max} step={pending.action.input.step ?? 1} style={{ width: 200 }} />
              </Form.Item>
            )}
            {pending.needsPassword && (
              <Form.Item
                name="password"
                label={t('二级密码')}
                extra={t('请输入您的登录密码')}
                rules={[{ required: true, message: t('二级密码不能为空') }]}
              >
                <Input.Password autoComplete="current-password" data-testid="secondary-password" />
              </Form.Item>
            )}
            {error && <Alert type="error" showIcon message={error} data-testid="control-error" />}
          </Form>
        )}
      </Modal>
    </Card>
  );
}
