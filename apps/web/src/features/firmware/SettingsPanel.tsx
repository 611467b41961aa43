import { firmwareSettingEdit, firmwareSettingEndpoints, type FirmwareSettingEdit } from '@ess/contract/firmware';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, InputNumber, Row, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatDateTime, validateWith } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';

/** Labels of the settings (source text; they name the field in error messages). */
export const SETTING_LABELS: Record<keyof FirmwareSettingEdit, string> = {
  maxPackageMb: '升级包大小上限（MB）',
  allowUnsigned: '允许未签名的升级包',
  tokenTtlMinutes: '下载凭证有效期（分钟）',
  successThreshold: '默认成功阈值（%）',
  errorThreshold: '默认失败阈值（%）',
  requireApproval: '默认需要审批',
  commandTimeoutSeconds: '命令超时（秒）',
  downloadTimeoutMinutes: '下载超时（分钟）',
  flashTimeoutMinutes: '刷写超时（分钟）',
  socMin: '安全门 SOC 下限（%）',
  socMax: '安全门 SOC 上限（%）',
  logTimeoutMinutes: '日志上传超时（分钟）',
};

const NUMBERS: { name: keyof FirmwareSettingEdit; min: number; max: number; help?: string }[] = [
  { name: 'maxPackageMb', min: 1, max: 2048 },
  { name: 'tokenTtlMinutes', min: 1, max: 1440, help: '设备下载升级包、上传日志所用凭证的有效期' },
  { name: 'successThreshold', min: 1, max: 100, help: '一组设备的成功比例达到该值后开始下一组' },
  { name: 'errorThreshold', min: 1, max: 100, help: '一组设备的失败比例超过该值时暂停升级任务' },
  { name: 'commandTimeoutSeconds', min: 5, max: 600 },
  { name: 'downloadTimeoutMinutes', min: 1, max: 1440 },
  { name: 'flashTimeoutMinutes', min: 1, max: 1440 },
  { name: 'socMin', min: 0, max: 100, help: '仅当站点 SOC 在该范围内时刷写 PCS、BMS、EMS' },
  { name: 'socMax', min: 0, max: 100 },
  { name: 'logTimeoutMinutes', min: 1, max: 1440 },
];

/** The firmware settings tab: size limit, unsigned allowed, the rollouts' defaults, the safe gate's SOC band, timeouts. Saved by an administrator. */
export function SettingsPanel() {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<FirmwareSettingEdit>();
  const [saving, setSaving] = useState(false);
  const canEdit = useCan(firmwareSettingEndpoints.edit);
  const settings = useQuery({ queryKey: firmwareKeys.setting, queryFn: () => call(firmwareSettingEndpoints.one, {}, { loading: false }) });
  const data = settings.data;
  const editable = canEdit && data?.editable === true;
  useEffect(() => {
    if (data) form.setFieldsValue(data);
  }, [form, data]);
  const save = async () => {
    const checked = validateWith(firmwareSettingEdit, form.getFieldsValue(true), SETTING_LABELS, t);
    if (!checked.ok) {
      form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as keyof FirmwareSettingEdit, errors })));
      return;
    }
    setSaving(true);
    try {
      await call(firmwareSettingEndpoints.edit, checked.data);
      void message.success(t('保存成功'));
      await client.invalidateQueries({ queryKey: firmwareKeys.setting });
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };
  if (settings.isPending) return <Spin />;
  return (
    <Card size="small" data-testid="firmware-settings">
      {!editable && <Alert type="info" showIcon message={t('只有管理员可以修改固件设置')} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" disabled={!editable}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="allowUnsigned" label={t(SETTING_LABELS.allowUnsigned)} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="requireApproval" label={t(SETTING_LABELS.requireApproval)} valuePropName="checked" help={t('新建升级任务默认须由另一位用户审批后才能开始')}>
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          {NUMBERS.map((n) => (
            <Col xs={24} md={8} key={n.name}>
              <Form.Item name={n.name} label={t(SETTING_LABELS[n.name])} help={n.help ? t(n.help) : undefined}>
                <InputNumber min={n.min} max={n.max} style={{ width: '100%' }} data-testid={`setting-${n.name}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Form>
      {data?.updatedAt && <Typography.Paragraph type="secondary">{t('最近修改：$1', formatDateTime(data.updatedAt))}</Typography.Paragraph>}
      {editable && (
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="settings-save">
          {t('保存')}
        </Button>
      )}
    </Card>
  );
}
