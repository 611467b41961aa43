import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, InputNumber, Row, Select, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { siteEndpoints, siteKeyValueBody, type SiteKeyValue, type SiteKeyValueRecord } from '@ess/contract/site';
import { formatDateTime, validateWith } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { PV_MODE_OPTIONS } from './site.options.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { siteKeys } from './site.keys.ts';

type KeyValueForm = Omit<SiteKeyValueRecord, 'siteId' | 'siteName' | 'saved' | 'updatedAt'>;

/** The key values of product-spec §3 with their units (source text). */
export const KEY_VALUE_FIELDS: { name: keyof KeyValueForm; label: string; unit?: string; integer?: boolean }[] = [
  { name: 'installedCapacity', label: '装机容量', unit: 'kWh' },
  { name: 'installedPower', label: '装机功率', unit: 'kW' },
  { name: 'voltageLevel', label: '电压等级', unit: 'kV' },
  { name: 'transformerProtectionPower', label: '变压器保护功率', unit: 'kW' },
  { name: 'depthOfDischarge', label: '放电深度', unit: '%' },
  { name: 'pvModuleCount', label: '光伏组件数量', unit: '块', integer: true },
  { name: 'pilePower', label: '充电桩功率', unit: 'kW' },
];
const LABELS: Record<string, string> = Object.fromEntries<string>([...KEY_VALUE_FIELDS.map((f): [string, string] => [f.name, f.label]), ['pvWorkingMode', '光伏工作模式'], ['siteId', '站点']]);

/** The request body of the key-value form: every key value, empty ones as null. */
export function keyValueBody(siteId: number, v: Partial<KeyValueForm>): Record<string, unknown> {
  const body: Record<string, unknown> = { siteId };
  for (const f of KEY_VALUE_FIELDS) body[f.name] = v[f.name] ?? null;
  body.pvWorkingMode = v.pvWorkingMode ?? null;
  return body;
}

/** /config/siteSet: a station's key values, added the first time and edited after. */
export function SiteSetPage() {
  const t = useT();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [siteId, setSiteId] = useState<number | null>(null);
  const [form] = Form.useForm<KeyValueForm>();
  const one = useQuery({
    queryKey: siteKeys.keyValue(siteId),
    queryFn: siteId === null ? skipToken : () => call(siteEndpoints.keyValueOne, { siteId }),
  });
  useEffect(() => {
    if (one.data) {
      form.resetFields();
      form.setFieldsValue(one.data);
    }
  }, [one.data, form]);
  const save = useMutation({
    mutationFn: (body: SiteKeyValue) => call(one.data?.saved ? siteEndpoints.keyValueEdit : siteEndpoints.keyValueAdd, body),
    onSuccess: async () => {
      void message.success(t('保存成功'));
      await client.invalidateQueries({ queryKey: siteKeys.keyValue(siteId) });
    },
  });
  const onSite = useCallback((id: number) => setSiteId(id), []);

  const submit = (values: KeyValueForm) => {
    if (siteId === null) return;
    const checked = validateWith(siteKeyValueBody, keyValueBody(siteId, values), LABELS, t);
    if (!checked.ok) {
      form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as keyof KeyValueForm, errors })));
      return;
    }
    save.mutate(checked.data);
  };

  return (
    <Card
      title={t('站点关键值')}
      extra={
        <Space>
          <Typography.Text>{t('站点')}</Typography.Text>
          <StationPicker autoSelectFirst value={siteId} onChange={onSite} id="siteSet-site" />
        </Space>
      }
    >
      {one.data && !one.data.saved && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('该站点尚未设置关键值，保存后生效')} />}
      <Form form={form} layout="vertical" onFinish={submit} disabled={siteId === null || one.isFetching}>
        <Row gutter={24}>
          {KEY_VALUE_FIELDS.map((f) => (
            <Col key={f.name} xs={24} md={12} xl={8}>
              <Form.Item name={f.name} label={t(f.label)}>
                <InputNumber style={{ width: '100%' }} min={0} precision={f.integer ? 0 : undefined} addonAfter={f.unit ? t(f.unit) : undefined} />
              </Form.Item>
            </Col>
          ))}
          <Col xs={24} md={12} xl={8}>
            <Form.Item name="pvWorkingMode" label={t('光伏工作模式')}>
              <Select allowClear options={PV_MODE_OPTIONS.map((o) => ({ value: o.value as string, label: t(o.label) }))} />
            </Form.Item>
          </Col>
        </Row>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('保存')}
          </Button>
          {one.data?.updatedAt && <Typography.Text type="secondary">{t('最后更新：$1', formatDateTime(one.data.updatedAt))}</Typography.Text>}
        </Space>
      </Form>
    </Card>
  );
}
