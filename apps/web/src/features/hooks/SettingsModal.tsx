import { hookEndpoints, hookSettings, type HookSettings } from '@ess/contract/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, InputNumber, Modal, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatDateTime, validateWith } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { hookKeys } from './hooks.keys.ts';

const LABELS: Record<keyof HookSettings, string> = {
  allowPrivateTargets: '允许内网目标',
  recordMaxAgeDays: '执行记录保留天数',
  recordMaxCount: '执行记录最多保留条数',
  circuitThreshold: '熔断阈值（连续失败次数）',
  circuitCooldownMinutes: '熔断冷却时间（分钟）',
};

/**
 * The installation's hook settings: private targets (SSRF guard), how long and how many execution
 * records are kept, and the circuit breaker. Read by whoever sees the records; saved only by an
 * administrator (the call's permission).
 */
export function SettingsModal({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<HookSettings>();
  const [saving, setSaving] = useState(false);
  const canEdit = useCan(hookEndpoints.settingEdit);
  const settings = useQuery({ queryKey: hookKeys.setting, queryFn: () => call(hookEndpoints.settingOne, {}, { loading: false }) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [form, settings.data]);
  const save = async () => {
    const checked = validateWith(hookSettings, form.getFieldsValue(true), LABELS, t);
    if (!checked.ok) {
      form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as keyof HookSettings, errors })));
      return;
    }
    setSaving(true);
    try {
      await call(hookEndpoints.settingEdit, checked.data);
      void message.success(t('保存成功'));
      await client.invalidateQueries({ queryKey: hookKeys.setting });
      onClose();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };
  const data = settings.data;
  return (
    <Modal
      open
      title={t('钩子设置')}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('保存')}
      cancelText={t('取消')}
      okButtonProps={{ disabled: !canEdit || !data }}
      confirmLoading={saving}
      destroyOnHidden
      width={560}
    >
      {settings.isPending ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" disabled={!canEdit} data-testid="hook-settings">
          {!canEdit && <Alert type="info" showIcon message={t('只有管理员可以修改钩子设置')} style={{ marginBottom: 12 }} />}
          <Form.Item name="allowPrivateTargets" label={t(LABELS.allowPrivateTargets)} valuePropName="checked" help={t('允许目标地址解析到本机、内网、链路本地、CGNAT 或 ULA 地址；云元数据地址始终拒绝')}>
            <Switch />
          </Form.Item>
          <Form.Item name="recordMaxAgeDays" label={t(LABELS.recordMaxAgeDays)}>
            <InputNumber min={1} max={365} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="recordMaxCount" label={t(LABELS.recordMaxCount)}>
            <InputNumber min={1000} max={10_000_000} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="circuitThreshold" label={t(LABELS.circuitThreshold)} help={t('连续失败达到该次数后暂停钩子并通知负责人')}>
            <InputNumber min={1} max={100} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="circuitCooldownMinutes" label={t(LABELS.circuitCooldownMinutes)} help={t('熔断后等待该时间再试探投递一次')}>
            <InputNumber min={1} max={1440} style={{ width: '100%' }} />
          </Form.Item>
          {data?.updatedAt && (
            <Typography.Text type="secondary">{t('最近修改：$1 $2', formatDateTime(data.updatedAt), data.updatedByName ?? '')}</Typography.Text>
          )}
        </Form>
      )}
    </Modal>
  );
}
