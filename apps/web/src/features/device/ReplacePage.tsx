import { SwapOutlined } from '@ant-design/icons';
import type { DeviceRecord } from '@ess/contract/device';
import { deviceChangeBody } from '@ess/contract/device';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Descriptions, Form, Input, Popconfirm, Row, Select, Space } from 'antd';
import { useState } from 'react';
import { ResourceTable, useOptionSource, validateWith } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { typeLabel } from '../../components/device-types.ts';
import { equipmentApi } from './device.api.ts';
import { siteSource } from '../../components/options/sites.ts';
import { changeResource } from './device.resource.tsx';
import { deviceKeys } from './device.keys.ts';

interface ChangeForm {
  newCode?: string;
  newBarcode?: string;
  newName?: string;
  newFirmwareVersion?: string;
  reason?: string;
}

const LABELS: Record<string, string> = {
  deviceId: '设备', newCode: '新设备编码', newBarcode: '新条码', newName: '新设备名称', newFirmwareVersion: '新固件版本', reason: '更换原因',
};

/**
 * /product/replace: replace the hardware at a device's position — pick station, product and
 * device, enter what the new device publishes under (code) and its barcode. The device keeps its
 * place and history; the list below shows past changes.
 */
export function ReplacePage() {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<ChangeForm>();
  const [siteId, setSiteId] = useState<number | undefined>();
  const [productId, setProductId] = useState<number | undefined>();
  const [deviceId, setDeviceId] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const sites = useOptionSource(siteSource);
  const products = useQuery({
    queryKey: deviceKeys.changeProducts(siteId),
    queryFn: () => equipmentApi.changeProducts(siteId!),
    enabled: !!siteId,
  });
  const devices = useQuery({
    queryKey: deviceKeys.changeDevices(siteId, productId),
    queryFn: () => equipmentApi.devices({ siteId: siteId!, ...(productId ? { productId } : {}) }),
    enabled: !!siteId,
  });
  const current: DeviceRecord | undefined = devices.data?.find((d) => d.id === deviceId);

  const submit = async () => {
    const v = form.getFieldsValue(true) as ChangeForm;
    const body = { deviceId, ...v };
    const checked = validateWith(deviceChangeBody, body, LABELS, t);
    if (!checked.ok) {
      form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as keyof ChangeForm, errors })));
      for (const text of checked.errors.form) void message.error(text);
      return;
    }
    setBusy(true);
    try {
      await equipmentApi.change(checked.data);
      void message.success(t('更换成功'));
      form.resetFields();
      await client.invalidateQueries({ queryKey: deviceKeys.all });
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('设备更换')}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item label={t('所属站点')} layout="vertical">
              <Select
                aria-label={t('所属站点')}
                data-testid="replace-site"
                value={siteId}
                onChange={(v: number) => {
                  setSiteId(v);
                  setProductId(undefined);
                  setDeviceId(undefined);
                }}
                options={sites.data ?? []}
                showSearch
                optionFilterProp="label"
                placeholder={t('选择站点')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label={t('产品')} layout="vertical">
              <Select
                aria-label={t('产品')}
                data-testid="replace-product"
                value={productId}
                onChange={(v: number | undefined) => {
                  setProductId(v);
                  setDeviceId(undefined);
                }}
                allowClear
                disabled={!siteId}
                options={(products.data ?? []).map((p) => ({ value: p.productId, label: `${p.productName} · ${t(typeLabel(p.type))} (${p.deviceCount})` }))}
                placeholder={t('全部产品')}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label={t('设备')} layout="vertical">
              <Select
                aria-label={t('设备')}
                data-testid="replace-device"
                value={deviceId}
                onChange={(v: number) => setDeviceId(v)}
                disabled={!siteId}
                showSearch
                optionFilterProp="label"
                options={(devices.data ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.code})` }))}
                placeholder={t('选择设备')}
              />
            </Form.Item>
          </Col>
        </Row>
        {current && (
          <Descriptions size="small" bordered column={{ xs: 1, md: 3 }} title={t('当前设备')} style={{ marginBottom: 16 }} data-testid="replace-current">
            <Descriptions.Item label={t('设备编码')}>{current.code}</Descriptions.Item>
            <Descriptions.Item label={t('条码')}>{current.barcode ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('设备类型')}>{t(typeLabel(current.type))}</Descriptions.Item>
            <Descriptions.Item label={t('上级设备')}>{current.parentName ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('固件版本')}>{current.firmwareVersion ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('储能柜')}>{current.cabinetName ?? '-'}</Descriptions.Item>
          </Descriptions>
        )}
        <Form form={form} layout="vertical" disabled={!current}>
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="newCode" label={t('新设备编码')} required tooltip={t('新设备上报数据使用的编码')}>
                <Input maxLength={64} data-testid="replace-new-code" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="newBarcode" label={t('新条码')}>
                <Input maxLength={64} data-testid="replace-new-barcode" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="newFirmwareVersion" label={t('新固件版本')}>
                <Input maxLength={32} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="newName" label={t('新设备名称')} tooltip={t('不填则沿用原名称')}>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={24} md={16}>
              <Form.Item name="reason" label={t('更换原因')}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
          </Row>
          <Popconfirm title={t('确定更换该设备吗？历史数据将保留在原位置。')} okText={t('确定')} cancelText={t('取消')} onConfirm={() => void submit()}>
            <Button type="primary" icon={<SwapOutlined />} loading={busy} disabled={!current} data-testid="replace-submit">
              {t('确认更换')}
            </Button>
          </Popconfirm>
        </Form>
      </Card>
      <ResourceTable def={changeResource} />
    </Space>
  );
}
