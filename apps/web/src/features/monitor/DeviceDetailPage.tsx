import { Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { ClusterCells, PackCells } from './CellPanel.tsx';
import { ChildrenPanel, MeterRegisters } from './ChildrenPanel.tsx';
import { DeviceControls } from './device-controls.tsx';
import { typeLabel, viewOf } from '../../components/device-types.ts';
import { FaultPanel } from './FaultPanel.tsx';
import { formatTime } from '../../components/format.ts';
import { HistoryPanel } from './HistoryPanel.tsx';
import { useDeviceDetail } from './monitor.api.ts';
import { KeyFigures, PropertyGrid } from './PropertyGrid.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';

/** The device id of `?id=`, or null. */
export function deviceIdParam(search: URLSearchParams): number | null {
  const raw = search.get('id');
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/**
 * /monitor/deviceDetail?id=… (opened from the monitor) and /product/equipmentDetail?id=… (from the
 * device registry): one device, live (values and state read every few seconds),
 * laid out for its type: key figures, every value with its unit, history chart, cell heat map
 * for packs and clusters, faults and the controls the type accepts.
 */
export function DeviceDetailPage() {
  const t = useT();
  const [search] = useSearchParams();
  // Related devices open in the same section as this page (monitor or registry).
  const { pathname } = useLocation();
  const id = deviceIdParam(search);
  const { record, detail } = useDeviceDetail(id);
  const failed = (record.isError && !record.data) || (detail.isError && !detail.data);

  if (id === null) return <Result status="warning" title={t('缺少设备编号')} />;
  if (failed) return <Result status="error" title={t('设备数据加载失败')} subTitle={(record.error ?? detail.error)?.message} />;
  if (!detail.data) return <Spin style={{ display: 'block', margin: '64px auto' }} />;

  const d = detail.data;
  const { device, ts, properties } = d;
  const view = viewOf(device.type);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="device-detail">
      <Card
        title={
          <Space>
            <span data-testid="device-name">{device.name}</span>
            <StatusBadge status={device.status} />
          </Space>
        }
        extra={<Typography.Text type="secondary">{t('数据时间：$1', formatTime(ts))}</Typography.Text>}
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
          <Descriptions.Item label={t('设备编码')}>{device.code}</Descriptions.Item>
          <Descriptions.Item label={t('设备类型')}>{t(typeLabel(device.type))}</Descriptions.Item>
          <Descriptions.Item label={t('所属站点')}>{device.siteName}</Descriptions.Item>
          <Descriptions.Item label={t('上级设备')}>
            {device.parentId ? <Link to={`${pathname}?id=${device.parentId}`}>{device.parentName ?? device.parentId}</Link> : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('产品')}>{device.productName}</Descriptions.Item>
          <Descriptions.Item label={t('储能柜')}>{device.cabinetName ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('固件版本')}>{device.firmwareVersion ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('最后上报时间')}>{formatTime(device.lastSeenAt)}</Descriptions.Item>
        </Descriptions>
      </Card>
      {view && <KeyFigures properties={properties} keys={view.key} />}
      {/* The controls area: sections by device type (device-controls.tsx): storage operation, remote commands. */}
      <DeviceControls device={device} properties={properties} />
      {view?.cells === 'pack' && <PackCells properties={properties} />}
      {view?.cells === 'cluster' && <ClusterCells clusterId={device.id} />}
      {d.registers && <MeterRegisters rows={d.registers} />}
      {d.pcs && <ChildrenPanel title="储能变流器" rows={d.pcs} />}
      {d.bms && <ChildrenPanel title="电池管理系统" rows={d.bms} />}
      {d.airConditioners && <ChildrenPanel title="空调" rows={d.airConditioners} />}
      {d.clusters && <ChildrenPanel title="电池簇" rows={d.clusters} />}
      {d.packs && <ChildrenPanel title="电池包" rows={d.packs} />}
      {d.guns && <ChildrenPanel title="充电枪" rows={d.guns} />}
      <HistoryPanel key={device.id} deviceId={device.id} properties={properties} defaults={view?.chart ?? []} />
      <PropertyGrid properties={properties} />
      <FaultPanel deviceId={device.id} />
    </Space>
  );
}
