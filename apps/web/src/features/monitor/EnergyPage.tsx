import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Badge, Card, Col, Empty, Row, Space, Statistic, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { formatNumber, historyToSeries, timeChartOption } from '../../components/chart/chart-options.ts';
import { detailHref } from './DeviceListPage.tsx';
import { EChart } from '../../components/chart/EChart.tsx';
import { energyCurveIdentifiers, energyDevices, stationDayStart } from './energy.ts';
import { formatTime } from '../../components/format.ts';
import { useEnergyOverview, useHistory, useLatestList, useSiteTree } from './monitor.api.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { METER_PURPOSE_LABELS, type DeviceType, type MeterPurpose } from '@ess/contract/telemetry';

const TYPES: DeviceType[] = ['ems', 'meter', 'pvInverter', 'dcdc', 'chargingPile'];

function Flow({ title, value, unit = 'kW', positive, negative, testId }: {
  title: string;
  value: number | null;
  unit?: string;
  /** Source texts of the direction when the value is positive / negative. */
  positive?: string;
  negative?: string;
  testId: string;
}) {
  const t = useT();
  const dir = value === null || !positive || Math.abs(value) < 0.05 ? null : value > 0 ? 'pos' : 'neg';
  return (
    <Card size="small" data-testid={testId}>
      <Statistic title={t(title)} value={value === null ? '-' : formatNumber(value)} suffix={value === null ? undefined : unit} />
      <Typography.Text type="secondary">
        {dir === 'pos' && (
          <>
            <ArrowUpOutlined /> {t(positive!)}
          </>
        )}
        {dir === 'neg' && (
          <>
            <ArrowDownOutlined /> {t(negative!)}
          </>
        )}
        {dir === null && (value === null ? t('暂无数据') : positive ? t('无功率流动') : '\u00a0')}
      </Typography.Text>
    </Card>
  );
}

/**
 * /monitor/energy: one station's power picture, live — grid, storage with SOC, PV, load and
 * charging piles — the energy of the station-local today and since the registers started (the
 * station overview's own figures, one computation on the server), the EMS's curve of the
 * station-local day, and every meter.
 */
export function EnergyPage() {
  const t = useT();
  const tree = useSiteTree();
  const [picked, setPicked] = useState<number | undefined>();
  const siteId = picked ?? tree.data?.find((n) => n.kind === 'site')?.id;
  const devices = useLatestList({ siteId, types: TYPES }, siteId !== undefined);
  const overview = useEnergyOverview(siteId);
  const o = overview.data && overview.data.siteId === siteId ? overview.data : undefined;
  const parts = useMemo(() => energyDevices(devices.data ?? []), [devices.data]);
  const ems = parts.ems;
  const dayStart = o ? stationDayStart(o) : undefined;
  const curveIds = energyCurveIdentifiers(parts);
  // 'grow' reads from the station's midnight up to the moment of each read (liveHistoryBody).
  const body = ems && dayStart !== undefined
    ? { deviceId: ems.id, identifiers: curveIds, start: new Date(dayStart).toISOString(), end: new Date(dayStart + 1000).toISOString(), interval: 'auto' as const }
    : null;
  const history = useHistory(body, 'grow');
  const option = useMemo(
    () => timeChartOption(historyToSeries(history.data?.series ?? [], t), { emptyText: history.isFetching ? '' : t('暂无数据'), ...(dayStart !== undefined ? { min: dayStart } : {}) }),
    [history.data, history.isFetching, t, dayStart],
  );
  const meters = (devices.data ?? []).filter((d) => d.type === 'meter');
  const sub = o?.subsystems;
  const energyRow = (when: 'day' | 'total') => {
    const f = o?.[when];
    const label = (today: string, total: string) => (when === 'day' ? today : total);
    const cells: [string, number | null | undefined][] = [
      ...(sub?.storage !== false ? [[label('今日充电量', '累计充电量'), f?.charge], [label('今日放电量', '累计放电量'), f?.discharge]] as [string, number | null | undefined][] : []),
      ...(sub?.pv ? [[label('今日光伏发电量', '累计光伏发电量'), f?.pv]] as [string, number | null | undefined][] : []),
      [label('今日负荷用电量', '累计负荷用电量'), f?.load],
      ...(sub?.charging ? [[label('今日充电桩用电量', '累计充电桩电量'), f?.piles]] as [string, number | null | undefined][] : []),
    ];
    return (
      <Row gutter={16} data-testid={`energy-${when}`}>
        {cells.map(([title, v]) => (
          <Col key={title} xs={12} lg={4}>
            <Statistic title={t(title)} value={v === null || v === undefined ? '-' : formatNumber(v)} suffix={v === null || v === undefined ? undefined : 'kWh'} />
          </Col>
        ))}
      </Row>
    );
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Space wrap>
          <StationPicker value={siteId} onChange={setPicked} />
          {ems && (
            <>
              <Link to={detailHref(ems.id)}>{ems.name}</Link>
              <StatusBadge status={ems.status} />
            </>
          )}
          <Typography.Text type="secondary">{t('数据时间：$1', formatTime(o?.ts))}</Typography.Text>
        </Space>
      </Card>
      {siteId !== undefined && devices.data && !ems && meters.length === 0 ? (
        <Card>
          <Empty description={t('该站点没有能量管理系统或电表')} />
        </Card>
      ) : (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={12} lg={4}>
              <Flow testId="energy-grid" title={sub?.mainMeter ? '关口表功率' : '电网功率'} value={o?.power.grid ?? null} positive="从电网取电" negative="向电网送电" />
            </Col>
            <Col xs={12} lg={4}>
              <Flow testId="energy-storage" title="储能功率" value={o?.power.storage ?? null} positive="放电" negative="充电" />
            </Col>
            <Col xs={12} lg={4}>
              <Flow testId="energy-soc" title="储能SOC" value={o?.soc ?? null} unit="%" />
            </Col>
            {sub?.pv && (
              <Col xs={12} lg={4}>
                <Flow testId="energy-pv" title="光伏功率" value={o?.power.pv ?? null} />
              </Col>
            )}
            <Col xs={12} lg={4}>
              <Flow testId="energy-load" title="负荷功率" value={o?.power.load ?? null} />
            </Col>
            {sub?.charging && (
              <Col xs={12} lg={4}>
                <Flow testId="energy-piles" title="充电桩功率" value={o?.power.piles ?? null} />
              </Col>
            )}
          </Row>
          <Card title={o ? t('今日电量（站点当地 $1）', o.date) : t('今日电量')} size="small" loading={!o && siteId !== undefined}>
            {energyRow('day')}
            <Typography.Title level={5} style={{ marginTop: 16 }}>{t('累计')}</Typography.Title>
            {energyRow('total')}
          </Card>
          <Card title={t('今日功率曲线')}>
            <EChart option={option} height={380} label={t('今日功率曲线')} testId="energy-chart" />
          </Card>
          <Card title={t('电表')}>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={meters}
              columns={[
                { title: t('设备名称'), dataIndex: 'name', render: (v: string, r) => <Link to={detailHref(r.id)}>{v}</Link> },
                { title: t('电表用途'), dataIndex: 'meterPurpose', render: (v: string | null) => (v ? t(METER_PURPOSE_LABELS[v as MeterPurpose] ?? v) : '-') },
                { title: t('状态'), dataIndex: 'status', render: (_: unknown, r) => <StatusBadge status={r.status} /> },
                { title: t('有功功率'), key: 'p', render: (_: unknown, r) => fmt(r.values.activePower, 'kW') },
                { title: t('正向有功电能（总）'), key: 'f', render: (_: unknown, r) => fmt(r.values.forwardActiveEnergy, 'kWh') },
                { title: t('反向有功电能（总）'), key: 'r', render: (_: unknown, r) => fmt(r.values.reverseActiveEnergy, 'kWh') },
                { title: t('本月最大需量'), key: 'd', render: (_: unknown, r) => fmt(r.values.maxDemand, 'kW') },
              ]}
            />
          </Card>
        </>
      )}
      {(devices.isError || overview.isError) && <Badge status="error" text={t('数据加载失败')} />}
    </Space>
  );
}

const fmt = (v: unknown, unit: string) => (typeof v === 'number' ? `${formatNumber(v)} ${unit}` : '-');
