import type { LiveSite } from '@ess/contract/comprehensive';
import { IDLE_POWER_KW } from '@ess/contract/comprehensive';
import { SITE_TYPE_LABELS } from '@ess/contract/site';
import { Badge, Card, Col, Empty, Pagination, Progress, Row, Space, Statistic, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { formatTime } from '../../components/format.ts';
import { SERIES_COLOURS } from './charts.ts';
import { stationHref, useLiveSites } from './comprehensive.api.ts';
import { fmt, MaintenanceTag, SiteStatusBadge } from './parts.tsx';

const PAGE_SIZE = 12;

/**
 * One power figure of a card: its colour, name and kW ('-' when not measured). Grid and storage
 * say which way the energy goes (`ways`: source texts for positive and negative) with the size.
 */
function Power({ name, value, colour, testId, ways }: { name: string; value: number | null; colour: string; testId: string; ways?: [string, string] }) {
  const t = useT();
  const way = ways && value !== null && Math.abs(value) >= IDLE_POWER_KW ? t(value > 0 ? ways[0] : ways[1]) : null;
  return (
    <div data-testid={testId}>
      <Badge color={colour} text={<Typography.Text type="secondary">{t(name)}{way ? ` · ${way}` : ''}</Typography.Text>} />
      <div style={{ fontSize: 16, fontWeight: 600, paddingInlineStart: 14 }}>{fmt(way && value !== null ? Math.abs(value) : value, 'kW')}</div>
    </div>
  );
}

function SiteCard({ s, linked }: { s: LiveSite; linked: boolean }) {
  const t = useT();
  const title = linked ? <Link to={stationHref(s.id)}>{s.name}</Link> : s.name;
  const sub = s.subsystems;
  return (
    <Card
      size="small"
      title={<Space>{title}<MaintenanceTag m={s.maintenance} /></Space>}
      extra={<SiteStatusBadge status={s.status} />}
      data-testid="live-site"
      data-code={s.code}
      style={{ height: '100%' }}
    >
      <Space size={4} wrap style={{ marginBottom: 8 }}>
        <Tag>{t(SITE_TYPE_LABELS[s.siteType])}</Tag>
        <Typography.Text type="secondary">{s.companyName}</Typography.Text>
      </Space>
      <Row gutter={[8, 8]}>
        <Col span={8}><Power name="电网" value={s.power.grid} colour={SERIES_COLOURS.grid!} testId="power-grid" ways={['取电', '送电']} /></Col>
        <Col span={8}><Power name="储能" value={s.power.storage} colour={SERIES_COLOURS.storage!} testId="power-storage" ways={['放电', '充电']} /></Col>
        <Col span={8}><Power name="负荷" value={s.power.load} colour={SERIES_COLOURS.load!} testId="power-load" /></Col>
        {sub.pv && <Col span={8}><Power name="光伏" value={s.power.pv} colour={SERIES_COLOURS.pv!} testId="power-pv" /></Col>}
        {sub.charging && <Col span={8}><Power name="充电桩" value={s.power.piles} colour={SERIES_COLOURS.piles!} testId="power-piles" /></Col>}
      </Row>
      {sub.storage && (
        <div style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">SOC</Typography.Text>
          <Progress aria-label={t('储能SOC')} percent={s.soc ?? 0} format={() => (s.soc === null ? '-' : `${formatNumber(s.soc)}%`)} size="small" status={s.soc === null ? 'exception' : 'normal'} />
        </div>
      )}
      <Space split="·" wrap>
        <Typography.Text type="secondary">{t('设备在线 $1/$2', s.devices.online, s.devices.total)}</Typography.Text>
        <Typography.Text type="secondary">{t('数据时间：$1', formatTime(s.ts))}</Typography.Text>
      </Space>
    </Card>
  );
}

/**
 * Totals over the page's stations: how many report, and the power they move now — every part of
 * the balance, piles included, so grid + storage + PV = load + piles adds up here too.
 */
function Totals({ sites, total }: { sites: readonly LiveSite[]; total: number }) {
  const t = useT();
  const sum = (pick: (s: LiveSite) => number | null) => {
    const vs = sites.map(pick).filter((v): v is number => v !== null);
    return vs.length ? vs.reduce((a, x) => a + x, 0) : null;
  };
  const online = sites.filter((s) => s.status === 'online' || s.status === 'partial').length;
  const cell = (key: string, title: string, value: number | null, unit?: string) => (
    <Col key={key} xs={12} md={8} xl={3} data-testid={`total-${key}`}>
      <Statistic title={t(title)} value={value === null ? '-' : formatNumber(Math.round(value * 10) / 10)} suffix={value === null ? undefined : unit} />
    </Col>
  );
  return (
    <Card size="small" data-testid="live-totals">
      <Row gutter={[16, 16]}>
        {cell('sites', '站点总数', total)}
        {cell('online', '本页在线站点', online)}
        {cell('storage', '储能功率', sum((s) => s.power.storage), 'kW')}
        {cell('pv', '光伏功率', sum((s) => s.power.pv), 'kW')}
        {cell('load', '负荷功率', sum((s) => s.power.load), 'kW')}
        {cell('piles', '充电桩功率', sum((s) => s.power.piles), 'kW')}
        {cell('grid', '电网功率', sum((s) => s.power.grid), 'kW')}
      </Row>
    </Card>
  );
}

/**
 * /synthesis/realTime: every station the user sees, live (read every few seconds): whether its
 * devices report, the power of grid, storage, PV, load and piles, SOC and maintenance. A station
 * opens in the single-station view when the user may open that screen.
 */
export function RealTimePage() {
  const t = useT();
  const [current, setCurrent] = useState(1);
  const q = useMemo(() => ({ current, pageSize: PAGE_SIZE }), [current]);
  const sites = useLiveSites(q);
  const linked = useUserStore((s) => s.authPaths.includes('/overview/station'));
  const records = sites.data?.records ?? [];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="realtime-page">
      <Totals sites={records} total={sites.data?.total ?? 0} />
      {sites.data && records.length === 0 ? (
        <Card><Empty description={t('没有可查看的站点')} /></Card>
      ) : (
        <Row gutter={[16, 16]}>
          {records.map((s) => (
            <Col key={s.id} xs={24} md={12} xxl={8}>
              <SiteCard s={s} linked={linked} />
            </Col>
          ))}
        </Row>
      )}
      {(sites.data?.total ?? 0) > PAGE_SIZE && (
        <Pagination current={current} pageSize={PAGE_SIZE} total={sites.data?.total ?? 0} onChange={setCurrent} showSizeChanger={false} />
      )}
      {sites.isError && <Badge status="error" text={t('数据加载失败')} />}
    </Space>
  );
}
