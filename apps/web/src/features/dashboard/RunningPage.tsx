import type { DeviceTypeStatus, GunStatus, InverterStatus, MeterRegisterDay, PileStatus } from '@ess/contract/comprehensive';
import { Badge, Card, Col, Empty, Row, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { formatTime } from '../../components/format.ts';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { DASHBOARD_CHART_MS, useDeviceStatus, useSitePart } from './comprehensive.api.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { EfficiencyFigure, fmt, Figure, StateLabel, StateTags, StatusFigures } from './parts.tsx';

/** Devices by type and live status, with the faulted ones. */
function DeviceStatusTable({ types, loading }: { types: readonly DeviceTypeStatus[]; loading: boolean }) {
  const t = useT();
  return (
    <Table<DeviceTypeStatus>
      rowKey="type"
      size="small"
      pagination={false}
      loading={loading}
      dataSource={[...types]}
      columns={[
        { title: t('设备类型'), dataIndex: 'label', render: (v: string) => t(v) },
        { title: t('总数'), dataIndex: 'total', align: 'right' },
        { title: t('在线'), dataIndex: 'online', align: 'right' },
        { title: t('离线'), dataIndex: 'offline', align: 'right', render: (v: number) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : v) },
        { title: t('禁用'), dataIndex: 'disabled', align: 'right' },
        { title: t('未激活'), dataIndex: 'inactive', align: 'right' },
        { title: t('故障'), dataIndex: 'fault', align: 'right', render: (v: number) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : v) },
      ]}
    />
  );
}

function MeterTable({ registers }: { registers: readonly MeterRegisterDay[] }) {
  const t = useT();
  return (
    <Table<MeterRegisterDay>
      rowKey="period"
      size="small"
      pagination={false}
      dataSource={[...registers]}
      columns={[
        { title: t('时段'), dataIndex: 'label', render: (v: string) => t(v) },
        { title: t('正向有功电能（读数）'), dataIndex: 'forward', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
        { title: t('今日正向电量'), dataIndex: 'dayForward', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
        { title: t('反向有功电能（读数）'), dataIndex: 'reverse', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
        { title: t('今日反向电量'), dataIndex: 'dayReverse', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
      ]}
    />
  );
}

/**
 * /synthesis/running: how the stations run — devices by type and status (all stations or one),
 * and for one station its storage performance, main meter registers of the day, inverters and
 * charging piles with their states. Alarms come with the alarm change.
 */
export function RunningPage() {
  const t = useT();
  const [siteId, setSiteId] = useState<number | undefined>();
  const allStatus = useDeviceStatus({});
  const siteStatus = useDeviceStatus(siteId ? { siteId } : {});
  const info = useSitePart('info', siteId, DASHBOARD_CHART_MS);
  const s = info.data?.subsystems;
  const perf = useSitePart('performance', siteId, DASHBOARD_CHART_MS, s?.storage ?? false);
  const meter = useSitePart('mainMeter', siteId, undefined, s?.mainMeter ?? false);
  const inverters = useSitePart('inverterStatus', siteId, undefined, s?.pv ?? false);
  const piles = useSitePart('chargingStatus', siteId, undefined, s?.charging ?? false);
  const all = allStatus.data?.total;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="running-page">
      <Card title={t('全部站点设备状态')} size="small">
        <StatusFigures counts={all} />
      </Card>
      <Card size="small">
        <Space wrap>
          <StationPicker autoSelectFirst value={siteId} onChange={setSiteId} width={260} />
          {info.data && <Typography.Text type="secondary">{info.data.address}</Typography.Text>}
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card title={t('设备状态')} size="small" style={{ height: '100%' }}>
            <DeviceStatusTable types={siteStatus.data?.types ?? []} loading={siteStatus.isLoading} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('储能运行指标')} size="small" style={{ height: '100%' }} data-testid="running-performance">
            {s && !s.storage ? <Empty description={t('该站点没有储能')} /> : (
              <Row gutter={[16, 16]}>
                <Col span={8}><Figure title="今日充电量" value={perf.data?.charge} unit="kWh" /></Col>
                <Col span={8}><Figure title="今日放电量" value={perf.data?.discharge} unit="kWh" /></Col>
                <Col span={8}><Figure title="今日循环次数" value={perf.data?.cycleCount} /></Col>
                <Col span={8}><EfficiencyFigure title="今日充放电效率" value={perf.data?.efficiency} discharge={perf.data ? perf.data.discharge : undefined} /></Col>
                <Col span={8}><EfficiencyFigure title="累计充放电效率" value={perf.data?.totalEfficiency} /></Col>
                <Col span={8}><Figure title="今日可用率" value={perf.data?.availability} unit="%" /></Col>
              </Row>
            )}
            {perf.data && perf.data.missing.length > 0 && <Typography.Text type="warning">{t('未设置站点关键值，无法计算循环次数')}</Typography.Text>}
          </Card>
        </Col>
      </Row>
      <Card
        title={t('关口表')}
        size="small"
        extra={meter.data?.device && (
          <Space>
            <StatusBadge status={meter.data.device.status} />
            <Typography.Text type="secondary">{t('数据时间：$1', formatTime(meter.data.ts))}</Typography.Text>
          </Space>
        )}
      >
        {s && !s.mainMeter ? <Empty description={t('该站点没有关口表')} /> : (
          <>
            <Row gutter={[16, 16]} style={{ marginBottom: 12 }}>
              <Col xs={12} md={6}><Figure title="有功功率" value={meter.data?.activePower} unit="kW" /></Col>
              <Col xs={12} md={6}><Figure title="当前需量（15分钟）" value={meter.data?.demand} unit="kW" /></Col>
              <Col xs={12} md={6}><Figure title="本月最大需量" value={meter.data?.maxDemand} unit="kW" /></Col>
              <Col xs={12} md={6}><Figure title="功率因数" value={meter.data?.powerFactor} /></Col>
            </Row>
            <MeterTable registers={meter.data?.registers ?? []} />
          </>
        )}
      </Card>
      {s?.pv && (
        <Card title={t('光伏逆变器')} size="small" extra={<StateTags states={inverters.data?.states ?? []} />}>
          <Table<InverterStatus>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={inverters.data?.inverters ?? []}
            columns={[
              { title: t('设备名称'), dataIndex: 'name' },
              { title: t('状态'), dataIndex: 'status', render: (_: unknown, r) => <StatusBadge status={r.status} /> },
              { title: t('运行状态'), key: 'state', render: (_: unknown, r) => <StateLabel label={r.stateLabel} colour={r.colour} /> },
              { title: t('有功功率'), dataIndex: 'power', align: 'right', render: (v: number | null) => fmt(v, 'kW') },
              { title: t('额定功率'), dataIndex: 'ratedPower', align: 'right', render: (v: number | null) => fmt(v, 'kW') },
              { title: t('转换效率'), dataIndex: 'efficiency', align: 'right', render: (v: number | null) => fmt(v, '%') },
              { title: t('今日发电量'), dataIndex: 'todayEnergy', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
              { title: t('累计发电量'), dataIndex: 'totalEnergy', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
            ]}
          />
        </Card>
      )}
      {s?.charging && (
        <Card title={t('充电桩')} size="small" extra={<StateTags states={piles.data?.gunStates ?? []} />}>
          <Table<PileStatus>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={piles.data?.piles ?? []}
            columns={[
              { title: t('设备名称'), dataIndex: 'name' },
              { title: t('状态'), dataIndex: 'status', render: (_: unknown, r) => <StatusBadge status={r.status} /> },
              { title: t('运行状态'), key: 'state', render: (_: unknown, r) => <StateLabel label={r.stateLabel} colour={r.colour} /> },
              { title: t('输入功率'), dataIndex: 'power', align: 'right', render: (v: number | null) => fmt(v, 'kW') },
              { title: t('今日充电量'), dataIndex: 'todayEnergy', align: 'right', render: (v: number | null) => fmt(v, 'kWh') },
              { title: t('今日充电次数'), dataIndex: 'todaySessions', align: 'right', render: (v: number | null) => fmt(v) },
              {
                title: t('充电枪'), key: 'guns',
                render: (_: unknown, r) => (
                  <Space size={4} wrap>
                    {r.guns.map((g: GunStatus) => (
                      <StateLabel key={g.id} testId="gun-state" label={g.stateLabel} colour={g.colour}
                        suffix={` (${g.subNo ?? ''}#${g.power ? ` ${fmt(g.power, 'kW')}` : ''})`} />
                    ))}
                  </Space>
                ),
              },
            ]}
          />
        </Card>
      )}
      {info.isError && <Badge status="error" text={t('数据加载失败')} />}
    </Space>
  );
}
