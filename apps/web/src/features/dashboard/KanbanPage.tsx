import { ALARM_LEVEL_LABELS, type AlarmLevel } from '@ess/contract/alarm';
import { IDLE_POWER_KW } from '@ess/contract/comprehensive';
import { Badge, Card, Col, Empty, Progress, Row, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { levelColour } from '../../components/options/levels.ts';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { formatTime } from '../../components/format.ts';
import { DASHBOARD_LIVE_MS, stationHref, useBoardSites } from './comprehensive.api.ts';
import { useBoardAlarms } from './board.api.ts';
import { boardTotals, buildBoard, KANBAN_LANE_INFO, KANBAN_LANES, type KanbanLane, type KanbanStation } from './kanban.ts';
import { fmt, MaintenanceTag, SiteStatusBadge } from './parts.tsx';

/** Alarm counts are kept current by RefreshAlarmKanban; this is a fallback when the stream is down. */
const ALARM_POLL_MS = 30_000;

/** Storage power with its way (discharging / charging / idle). */
function StoragePower({ kw }: { kw: number | null }) {
  const t = useT();
  if (kw === null) return <span>-</span>;
  if (Math.abs(kw) < IDLE_POWER_KW) return <span>{t('静置')}</span>;
  return <span>{t(kw > 0 ? '放电' : '充电')} {fmt(Math.abs(kw), 'kW')}</span>;
}

/** Alarms in progress per level, one coloured tag per level that has any. */
function AlarmTags({ active }: { active: number[] }) {
  const t = useT();
  const shown = active.map((n, i) => ({ n, level: i + 1 })).filter((x) => x.n > 0);
  if (shown.length === 0) return <Typography.Text type="secondary">{t('无进行中的告警')}</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap>
      {shown.map(({ n, level }) => (
        <Tooltip key={level} title={t(ALARM_LEVEL_LABELS[level as AlarmLevel])}>
          <Tag color={levelColour(level)} style={{ color: '#fff', marginInlineEnd: 0 }} data-testid="tile-alarm" data-level={level}>
            {t('$1级 $2条', level, n)}
          </Tag>
        </Tooltip>
      ))}
    </Space>
  );
}

/** One station on the board: status, alarms, storage power and SOC, devices reporting. */
function StationTile({ s, linked }: { s: KanbanStation; linked: boolean }) {
  const t = useT();
  const site = s.site;
  return (
    <Card
      size="small"
      data-testid="kanban-station"
      data-code={site.code}
      data-lane={s.lane}
      style={{ borderInlineStart: `3px solid ${s.worstLevel ? levelColour(s.worstLevel) : KANBAN_LANE_INFO[s.lane].colour}` }}
      styles={{ body: { padding: 10 } }}
    >
      <Space direction="vertical" size={6} style={{ width: '100%' }}>
        <Typography.Text strong ellipsis={{ tooltip: site.name }} style={{ width: '100%' }}>
          {linked ? <Link to={stationHref(site.id)}>{site.name}</Link> : site.name}
        </Typography.Text>
        <Space size={4} wrap>
          <SiteStatusBadge status={site.status} />
          <MaintenanceTag m={site.maintenance} />
        </Space>
        <AlarmTags active={s.active} />
        {site.subsystems.storage && (
          <>
            <Space style={{ width: '100%', justifyContent: 'space-between' }}>
              <Typography.Text type="secondary">{t('储能')}</Typography.Text>
              <Typography.Text data-testid="tile-storage"><StoragePower kw={site.power.storage} /></Typography.Text>
            </Space>
            <Progress
              aria-label={t('储能SOC')}
              percent={site.soc ?? 0}
              size="small"
              format={() => (site.soc === null ? '-' : `${formatNumber(site.soc)}%`)}
              status={site.soc === null ? 'exception' : 'normal'}
            />
          </>
        )}
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text type="secondary">{t('负荷')}</Typography.Text>
          <Typography.Text data-testid="tile-load">{fmt(site.power.load, 'kW')}</Typography.Text>
        </Space>
        <Typography.Text type="secondary" data-testid="tile-devices">
          {t('设备在线 $1/$2', site.devices.online, site.devices.total)}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('数据时间：$1', formatTime(site.ts))}</Typography.Text>
      </Space>
    </Card>
  );
}

function Lane({ lane, stations, linked }: { lane: KanbanLane; stations: KanbanStation[]; linked: boolean }) {
  const t = useT();
  const info = KANBAN_LANE_INFO[lane];
  return (
    <Card
      size="small"
      data-testid={`lane-${lane}`}
      style={{ height: '100%', borderTop: `3px solid ${info.colour}`, background: '#fafafa' }}
      title={<Space><Badge color={info.colour} text={t(info.title)} /><Tag data-testid="lane-count">{stations.length}</Tag></Space>}
    >
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>{t(info.hint)}</Typography.Paragraph>
      {stations.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('没有处于此状态的站点')} />
      ) : (
        <Space direction="vertical" size={8} style={{ width: '100%' }}>
          {stations.map((s) => <StationTile key={s.site.id} s={s} linked={linked} />)}
        </Space>
      )}
    </Card>
  );
}

/**
 * /overview/kanban: the operations board — every station the user sees in a lane by what needs
 * attention (alarms, devices offline, maintenance, normal), the most severe first, with its alarms
 * in progress by level, storage power and SOC, load and devices reporting; totals above. Live:
 * the stations every few seconds, the alarms at once on RefreshAlarmKanban.
 */
export function KanbanPage() {
  const t = useT();
  const sites = useBoardSites();
  const alarms = useBoardAlarms(ALARM_POLL_MS);
  const linked = useUserStore((s) => s.authPaths.includes('/overview/station'));
  const records = useMemo(() => sites.data?.records ?? [], [sites.data]);
  const board = useMemo(() => buildBoard(records, alarms.data), [records, alarms.data]);
  const totals = useMemo(() => boardTotals(records), [records]);
  const activeByLevel = (alarms.data?.total ?? []).map((l) => l.active);
  const activeTotal = activeByLevel.reduce((a, x) => a + x, 0);
  const more = (sites.data?.total ?? 0) - records.length;

  const cell = (title: string, value: string, testId: string, suffix?: string) => (
    <Col xs={12} md={8} xl={3} data-testid={testId}>
      <Statistic title={t(title)} value={value} suffix={suffix} />
    </Col>
  );
  const kw = (v: number | null) => (v === null ? '-' : formatNumber(Math.round(v * 10) / 10));

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="kanban-page">
      <Card size="small" data-testid="kanban-totals">
        <Row gutter={[16, 16]}>
          {cell('站点总数', String(sites.data?.total ?? '-'), 'total-stations')}
          {cell('上报中的站点', String(totals.reporting), 'total-reporting')}
          {cell('设备在线', `${totals.devicesOnline}/${totals.devicesTotal}`, 'total-devices')}
          {cell('进行中的告警', String(alarms.data ? activeTotal : '-'), 'total-alarms')}
          {cell('储能功率', kw(totals.storage), 'total-storage', totals.storage === null ? undefined : 'kW')}
          {cell('光伏功率', kw(totals.pv), 'total-pv', totals.pv === null ? undefined : 'kW')}
          {cell('负荷功率', kw(totals.load), 'total-load', totals.load === null ? undefined : 'kW')}
          {cell('平均SOC', totals.soc === null ? '-' : formatNumber(Math.round(totals.soc * 10) / 10), 'total-soc', totals.soc === null ? undefined : '%')}
        </Row>
        <Space wrap style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">{t('每$1秒刷新，告警发生或结束时立即刷新', DASHBOARD_LIVE_MS / 1000)}</Typography.Text>
          {alarms.data && activeTotal > 0 && activeByLevel.map((n, i) => n > 0 && (
            <Tag key={i} color={levelColour(i + 1)} style={{ color: '#fff' }}>{t('$1级 $2条', i + 1, n)}</Tag>
          ))}
          {more > 0 && <Typography.Text type="warning">{t('仅显示前 $1 个站点', records.length)}</Typography.Text>}
          {(sites.isError || alarms.isError) && <Badge status="error" text={t('数据加载失败')} />}
        </Space>
      </Card>
      {sites.data && records.length === 0 ? (
        <Card><Empty description={t('没有可查看的站点')} data-testid="kanban-empty" /></Card>
      ) : (
        <Row gutter={[12, 12]} wrap>
          {KANBAN_LANES.map((lane) => (
            <Col key={lane} flex="1 1 230px" style={{ minWidth: 230 }}>
              <Lane lane={lane} stations={board[lane]} linked={linked} />
            </Col>
          ))}
        </Row>
      )}
    </Space>
  );
}
