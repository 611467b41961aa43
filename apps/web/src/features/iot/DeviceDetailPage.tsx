import { LinkOutlined, SyncOutlined } from '@ant-design/icons';
import { iotQueryEndpoints, iotSyncEndpoints } from '@ess/contract/iot';
import { deviceEndpoints } from '@ess/contract/device';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Result, Select, Space, Spin, Tabs } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDateTime, StatusBadge, useOptionSource } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { iotKeys } from './iot.keys.ts';
import { DEVICE_STATE_OPTIONS } from './iot.options.ts';
import { idOf, useRowCall } from './parts.tsx';
import { useItemSync } from './ProductManagementPage.tsx';
import { RelationTable } from './RelationTable.tsx';

const consoleDevices = {
  queryKey: iotKeys.options('console-devices'),
  load: async () => (await call(deviceEndpoints.list, {}, { loading: false })).map((d) => ({ value: d.id, label: `${d.code} · ${d.name}` })),
};

/** Bind the platform device to a console device (or unbind): its data then feeds that device. */
function BindField({ id, deviceId }: { id: number; deviceId: number | null }) {
  const t = useT();
  const { message } = App.useApp();
  const options = useOptionSource(consoleDevices);
  const [value, setValue] = useState<number | null>(deviceId);
  const { busy, run } = useRowCall();
  const save = async () => {
    const ok = await run('bind', () => call(iotQueryEndpoints.deviceBind, { id, deviceId: value }));
    if (ok !== undefined) void message.success(t('保存成功'));
  };
  return (
    <Space wrap>
      <Select
        aria-label={t('绑定设备')}
        style={{ minWidth: 260 }}
        value={value}
        onChange={(v: number | undefined) => setValue(v ?? null)}
        options={options.data ?? []}
        loading={options.isFetching}
        allowClear
        showSearch
        optionFilterProp="label"
        placeholder={t('未绑定')}
        data-testid="bind-select"
      />
      <Button icon={<LinkOutlined />} loading={busy === 'bind'} disabled={value === deviceId} onClick={() => void save()} data-testid="bind-save">
        {t('保存绑定')}
      </Button>
    </Space>
  );
}

/** /iot/deviceDetail?id=: one platform device — its connectivity, the console device it feeds, and its own relations (overriding its product's). */
export function DeviceDetailPage() {
  const t = useT();
  const [search] = useSearchParams();
  const id = idOf(search, 'id');
  const device = useQuery({ queryKey: iotKeys.device(id ?? 0), queryFn: () => call(iotQueryEndpoints.deviceOne, { id: id! }, { loading: false }), enabled: id !== null, retry: false });
  const canSync = useCan(iotSyncEndpoints.device);
  const canBind = useCan(iotQueryEndpoints.deviceBind);
  const { busy, sync, view } = useItemSync('device');
  if (id === null) return <Result status="warning" title={t('物联网设备不存在')} />;
  if (device.isPending) return <Spin />;
  const d = device.data;
  if (!d) return <Result status="error" title={t('物联网设备不存在')} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="iot-device-detail">
      <Card
        size="small"
        title={<h2 className="ess-resource-title">{d.name}</h2>}
        extra={
          canSync ? (
            <Button type="primary" icon={<SyncOutlined />} loading={busy === `sync-${d.id}`} onClick={() => void sync(d.id)} data-testid="detail-sync">
              {t('同步')}
            </Button>
          ) : null
        }
      >
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'ext', label: t('平台设备编号'), children: <code>{d.externalId}</code> },
            { key: 'state', label: t('状态'), children: <StatusBadge options={DEVICE_STATE_OPTIONS} value={d.state} t={t} /> },
            { key: 'product', label: t('物联网产品'), children: d.iotProductName },
            { key: 'app', label: t('物联网应用'), children: d.configName },
            { key: 'synced', label: t('同步时间'), children: formatDateTime(d.syncedAt) },
            { key: 'site', label: t('所属站点'), children: d.siteName ?? '-' },
            { key: 'bind', label: t('绑定设备'), span: 2, children: canBind ? <BindField key={d.deviceId ?? 0} id={d.id} deviceId={d.deviceId} /> : (d.deviceCode ?? t('未绑定')) },
          ]}
        />
      </Card>
      <Card size="small" title={<h3 className="ess-resource-title">{t('设备级关联（覆盖产品级关联）')}</h3>}>
        <Tabs
          items={[
            { key: 'property', label: t('属性关联'), children: <RelationTable kind="property" iotProductId={d.iotProductId} iotDeviceId={d.id} /> },
            { key: 'event', label: t('事件关联'), children: <RelationTable kind="event" iotProductId={d.iotProductId} iotDeviceId={d.id} /> },
            { key: 'command', label: t('命令关联'), children: <RelationTable kind="command" iotProductId={d.iotProductId} iotDeviceId={d.id} /> },
          ]}
        />
      </Card>
      {view}
    </Space>
  );
}
