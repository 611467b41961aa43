import type { DeviceRecord } from '@ess/contract/device';
import { monitorEndpoints as M } from '@ess/contract/monitor';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Modal, Radio, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatTime } from '../../components/format.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { isPasswordRefusal, passwordWindowOpen, withSecondaryPassword } from './controls.ts';
import type { ControlSectionProps } from './device-controls.tsx';
import { LIVE_REFRESH_MS, monitorApi } from './monitor.api.ts';
import { monitorKeys } from './monitor.keys.ts';
import {
  DEFAULT_DURATION_MIN, DIRECTION_LABELS, MAX_DURATION_MIN, RUN_MODE_TO_STORAGE, STORAGE_MODE_LABELS, ratedPowerOf, readReply, sendStorageControl, storageBody,
  type StorageForm, type StorageReply,
} from './storage.ts';

const iso = (ms: number | null) => (ms ? new Date(ms).toISOString() : null);

/**
 * The EMS's reported run mode and manual end: the device's own values on an EMS page, its parent
 * EMS's on a PCS page (the EMS runs the dispatch the PCS carries out).
 */
function useRunMode(device: DeviceRecord, values: Record<string, unknown>) {
  const parentId = device.type === 'pcs' ? device.parentId : null;
  const parent = useQuery({
    queryKey: monitorKeys.properties(parentId ?? 0),
    queryFn: () => monitorApi.detail('ems', parentId!),
    enabled: parentId !== null,
    refetchInterval: LIVE_REFRESH_MS,
  });
  const source = device.type === 'ems'
    ? values
    : Object.fromEntries((parent.data?.properties ?? []).map((p) => [p.identifier, p.value]));
  const runMode = typeof source.runMode === 'number' ? RUN_MODE_TO_STORAGE[source.runMode] ?? null : null;
  const endTime = typeof source.manualEndTime === 'number' && source.manualEndTime > 0 ? source.manualEndTime : null;
  return { runMode, endTime };
}

/**
 * Storage control on a PCS or EMS page (issue 19 item 11): follow the strategy (auto), stand by,
 * or charge / discharge by hand at a set power for a duration, after which the device returns to
 * auto by itself. Sent through the common control flow: confirmation, the secondary password
 * unless checked a few minutes ago, the journal; the device's reply is shown.
 */
export function StorageControl({ device, properties }: ControlSectionProps) {
  const t = useT();
  const queryClient = useQueryClient();
  const allowed = useCan(M.storageControl);
  const values = Object.fromEntries(properties.map((p) => [p.identifier, p.value]));
  const { runMode, endTime } = useRunMode(device, values);
  const [form] = Form.useForm<StorageForm>();
  const [passwordForm] = Form.useForm<{ password?: string }>();
  const mode = Form.useWatch('mode', form) ?? 'auto';
  const [pending, setPending] = useState<{ form: StorageForm; needsPassword: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reply, setReply] = useState<StorageReply | null>(null);

  if (!allowed) return null;
  const rated = ratedPowerOf(device);
  const offline = device.disabled || device.status !== 'online';

  const review = async () => {
    const f = await form.validateFields();
    setError(null);
    passwordForm.resetFields();
    setPending({ form: f, needsPassword: !passwordWindowOpen() });
  };

  const run = async () => {
    if (!pending) return;
    const { password } = await passwordForm.validateFields();
    setBusy(true);
    setError(null);
    try {
      const entered = pending.needsPassword ? password : undefined;
      const answer = await withSecondaryPassword(device.id, entered, () => sendStorageControl(storageBody(device.id, pending.form, password)));
      setReply(readReply(answer));
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: monitorKeys.properties(device.id) });
      if (device.parentId) void queryClient.invalidateQueries({ queryKey: monitorKeys.properties(device.parentId) });
    } catch (e) {
      if (isPasswordRefusal(e)) setPending((p) => (p ? { ...p, needsPassword: true } : p));
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const summary = (f: StorageForm) =>
    f.mode === 'manual'
      ? t('手动$1 $2 kW，持续 $3 分钟，之后自动恢复跟随策略', t(DIRECTION_LABELS[f.direction ?? 'discharge']), f.power ?? 0, f.durationMin ?? DEFAULT_DURATION_MIN)
      : t(STORAGE_MODE_LABELS[f.mode]);

  return (
    <Card
      title={t('储能运行控制')}
      data-testid="storage-control"
      extra={
        <Space>
          <Typography.Text type="secondary">{t('当前模式')}</Typography.Text>
          <Tag color={runMode === 'manual' ? 'orange' : runMode === 'standby' ? 'default' : 'blue'} data-testid="storage-current-mode">
            {runMode ? t(STORAGE_MODE_LABELS[runMode]) : '-'}
          </Tag>
          {runMode === 'manual' && endTime && <Typography.Text type="secondary">{t('至 $1', formatTime(iso(endTime)))}</Typography.Text>}
        </Space>
      }
    >
      <Form
        form={form}
        layout="inline"
        initialValues={{ mode: 'auto', direction: 'discharge', durationMin: DEFAULT_DURATION_MIN }}
        style={{ rowGap: 12 }}
      >
        <Form.Item name="mode" label={t('运行模式')}>
          <Radio.Group optionType="button" buttonStyle="solid" data-testid="storage-mode">
            {(['auto', 'manual', 'standby'] as const).map((m) => (
              <Radio.Button key={m} value={m} data-testid={`storage-mode-${m}`}>{t(STORAGE_MODE_LABELS[m])}</Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        {mode === 'manual' && (
          <>
            <Form.Item name="direction" label={t('方向')}>
              <Radio.Group>
                <Radio value="discharge">{t(DIRECTION_LABELS.discharge)}</Radio>
                <Radio value="charge">{t(DIRECTION_LABELS.charge)}</Radio>
              </Radio.Group>
            </Form.Item>
            <Form.Item
              name="power"
              label={t('功率')}
              extra={rated !== null ? t('额定功率 $1 kW', rated) : t('不超过设备额定功率')}
              rules={[
                { required: true, message: t('请输入功率') },
                { type: 'number', min: 0.1, max: rated ?? 100_000, message: rated !== null ? t('功率应为0.1-$1 kW', rated) : t('功率应大于0') },
              ]}
            >
              <InputNumber min={0} step={10} addonAfter="kW" style={{ width: 160 }} data-testid="storage-power" />
            </Form.Item>
            <Form.Item
              name="durationMin"
              label={t('持续时间')}
              rules={[{ required: true, type: 'number', min: 1, max: MAX_DURATION_MIN, message: t('持续时间应为1-1440分钟') }]}
            >
              <InputNumber min={1} max={MAX_DURATION_MIN} precision={0} addonAfter={t('分钟')} style={{ width: 150 }} data-testid="storage-duration" />
            </Form.Item>
          </>
        )}
        <Form.Item>
          <Button type="primary" disabled={offline} onClick={() => void review().catch(() => undefined)} data-testid="storage-send">
            {t('下发')}
          </Button>
        </Form.Item>
      </Form>
      {offline && <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>{t('设备在线时才能远程控制')}</Typography.Paragraph>}
      {reply && (
        <Alert
          style={{ marginTop: 16 }}
          type="success"
          showIcon
          data-testid="storage-reply"
          message={t('设备已确认（$1 ms）', reply.durationMs)}
          description={
            <Descriptions size="small" column={3}>
              <Descriptions.Item label={t('运行模式')}>{reply.mode ? t(STORAGE_MODE_LABELS[reply.mode]) : '-'}</Descriptions.Item>
              <Descriptions.Item label={t('功率')}>{reply.powerKw !== null ? `${reply.powerKw} kW` : '-'}</Descriptions.Item>
              <Descriptions.Item label={t('自动恢复时间')}>{reply.until ? formatTime(iso(reply.until)) : '-'}</Descriptions.Item>
            </Descriptions>
          }
        />
      )}
      <Modal
        open={pending !== null}
        title={t('储能运行控制')}
        okText={t('确定')}
        cancelText={t('取消')}
        okButtonProps={{ loading: busy, id: 'storage-confirm' }}
        onOk={() => void run()}
        onCancel={() => !busy && setPending(null)}
        maskClosable={false}
        destroyOnHidden
      >
        {pending && (
          <Form form={passwordForm} layout="vertical" preserve={false}>
            <Typography.Paragraph>{t('确定要将储能切换为：$1？', summary(pending.form))}</Typography.Paragraph>
            <Typography.Paragraph type="secondary">{t('设备：$1（$2）', device.name, device.code)}</Typography.Paragraph>
            {pending.needsPassword && (
              <Form.Item name="password" label={t('二级密码')} extra={t('请输入您的登录密码')} rules={[{ required: true, message: t('二级密码不能为空') }]}>
                <Input.Password autoComplete="current-password" data-testid="storage-password" />
              </Form.Item>
            )}
            {error && <Alert type="error" showIcon message={error} data-testid="storage-error" />}
          </Form>
        )}
      </Modal>
    </Card>
  );
}
