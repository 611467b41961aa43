import type { DeviceTypeStatus } from '@ess/contract/comprehensive';
import { DEVICE_TYPES, DEVICE_TYPE_LABELS, type DeviceType } from '@ess/contract/telemetry';
import { Badge, Card, Col, Row, Select, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { StationPicker } from '../../components/StationPicker.tsx';
import { statusBarsOption } from './charts.ts';
import { useDeviceStatus } from './comprehensive.api.ts';
import { StatusFigures } from './parts.tsx';

/**
 * /overview/apparatus: the devices of every station the user sees (or one), by type and live
 * status — online, offline, disabled, never reported — and those reporting a fault state.
 */
export function ApparatusPage() {
  const t = useT();
  const [siteId, setSiteId] = useState<number | undefined>();
  const [type, setType] = useState<DeviceType | undefined>();
  const q = useMemo(() => ({ ...(siteId ? { siteId } : {}), ...(type ? { type } : {}) }), [siteId, type]);
  const status = useDeviceStatus(q);
  const types = useMemo(() => status.data?.types ?? [], [status.data]);
  const total = status.data?.total;
  const option = useMemo(() => statusBarsOption(types, t), [types, t]);
  const canList = useUserStore((s) => s.authPaths.includes('/monitor/device'));
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="apparatus-page">
      <Card size="small">
        <Space wrap>
          <StationPicker value={siteId} onChange={setSiteId} onClear={() => setSiteId(undefined)} />
          <Select
            aria-label={t('设备类型')}
            allowClear
            placeholder={t('全部设备类型')}
            style={{ width: 240 }}
            value={type}
            onChange={(v: DeviceType | undefined) => setType(v)}
            options={DEVICE_TYPES.map((d) => ({ value: d, label: t(DEVICE_TYPE_LABELS[d]) }))}
          />
        </Space>
      </Card>
      <Card size="small">
        <StatusFigures counts={total} testId="apparatus-total" />
      </Card>
      {/* Side by side only from 1600 px: the status table's eight columns need the whole width before (German headers at 1440 px). */}
      <Row gutter={[16, 16]}>
        <Col xs={24} xxl={12}>
          <Card title={t('各类设备状态')} size="small">
            <EChart option={option} height={Math.max(240, 36 * types.length + 60)} label={t('各类设备状态')} testId="apparatus-chart" />
          </Card>
        </Col>
        <Col xs={24} xxl={12}>
          <Card title={t('设备状态')} size="small" extra={canList && <Link to="/monitor/device">{t('设备列表')}</Link>}>
            <Table<DeviceTypeStatus>
              rowKey="type"
              size="small"
              pagination={false}
              loading={status.isLoading}
              dataSource={types}
              columns={[
                { title: t('设备类型'), dataIndex: 'label', render: (v: string) => t(v) },
                { title: t('总数'), dataIndex: 'total', align: 'right' },
                { title: t('在线'), dataIndex: 'online', align: 'right' },
                { title: t('离线'), dataIndex: 'offline', align: 'right' },
                { title: t('禁用'), dataIndex: 'disabled', align: 'right' },
                { title: t('未激活'), dataIndex: 'inactive', align: 'right' },
                { title: t('故障'), dataIndex: 'fault', align: 'right', render: (v: number) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : v) },
                {
                  title: t('在线率'), key: 'rate', align: 'right',
                  render: (_: unknown, r) => (r.total ? `${Math.round((r.online / r.total) * 1000) / 10}%` : '-'),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      {status.isError && <Badge status="error" text={t('数据加载失败')} />}
    </Space>
  );
}
