import type { ChargingSummary, GenerationType, SiteHandleAction, SiteInfo, SiteOverview, SitePerformance, SolarSummary } from '@ess/contract/comprehensive';
import { comprehensiveEndpoints, SITE_HANDLE_ACTION_LABELS, SITE_HANDLE_NOTE_MAX, siteHandleMachine } from '@ess/contract/comprehensive';
import { allowedActions } from '@ess/contract/state-machine';
import { SITE_TYPE_LABELS } from '@ess/contract/site';
import { Alert, App, Button, Card, Col, Descriptions, Empty, Input, Modal, Result, Row, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Deferred } from '../../components/Deferred.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { formatTime } from '../../components/format.ts';
import { curvesOption, generationOption, SERIES_COLOURS } from './charts.ts';
import { DASHBOARD_CHART_MS, siteIdParam, useGeneration, useHandleSite, useSitePart, type GenerationKind } from './comprehensive.api.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { siteListQuery } from '../../components/options/sites.ts';
import { useQuery } from '@tanstack/react-query';
import { EfficiencyFigure, fmt, Figure, MaintenanceTag, StateTags } from './parts.tsx';
import { EarningsCard } from './EarningsCard.tsx';
import { PowerFlow } from './PowerFlow.tsx';

const KEY_VALUE_LABELS: Record<string, string> = {
  installedCapacity: '装机容量', installedPower: '额定功率', depthOfDischarge: '放电深度', voltageLevel: '电压等级',
  transformerProtectionPower: '变压器保护功率', pvModuleCount: '光伏组件数量', pvWorkingMode: '光伏工作模式', pilePower: '充电桩总功率',
};

/** Power now and the day's energy, with units; only the parts the station has. */
function KeyFigures({ o }: { o: SiteOverview }) {
  const t = useT();
  const s = o.subsystems;
  const now: [string, number | null, string][] = [
    ['电网功率', o.power.grid, 'kW'],
    ...(s.storage ? [['储能功率', o.power.storage, 'kW'] as [string, number | null, string], ['储能SOC', o.soc, '%'] as [string, number | null, string]] : []),
    ...(s.pv ? [['光伏功率', o.power.pv, 'kW'] as [string, number | null, string]] : []),
    ['负荷功率', o.power.load, 'kW'],
    ...(s.charging ? [['充电桩功率', o.power.piles, 'kW'] as [string, number | null, string]] : []),
  ];
  const energy = (which: 'day' | 'total'): [string, number | null][] => {
    const e = o[which];
    const today = which === 'day';
    return [
      ...(s.storage ? [[today ? '今日充电量' : '累计充电量', e.charge], [today ? '今日放电量' : '累计放电量', e.discharge]] as [string, number | null][] : []),
      ...(s.pv ? [[today ? '今日光伏发电量' : '累计光伏发电量', e.pv]] as [string, number | null][] : []),
      [today ? '今日负荷用电量' : '累计负荷用电量', e.load],
      [today ? '今日购电量' : '累计购电量', e.gridImport],
      [today ? '今日上网电量' : '累计上网电量', e.gridExport],
      ...(s.charging ? [[today ? '今日充电桩用电量' : '累计充电桩用电量', e.piles]] as [string, number | null][] : []),
    ];
  };
  return (
    <Card title={t('关键指标')} size="small" data-testid="key-figures" extra={<Typography.Text type="secondary">{t('数据时间：$1', formatTime(o.ts))}</Typography.Text>}>
      <Row gutter={[16, 16]}>
        {now.map(([title, v, unit]) => (
          <Col key={title} xs={12} md={8}>
            <Figure title={title} value={v} unit={unit} />
          </Col>
        ))}
      </Row>
      <Typography.Title level={5} style={{ marginTop: 16 }}>{t('今日电量（站点当地 $1）', o.date)}</Typography.Title>
      <Row gutter={[16, 16]}>
        {energy('day').map(([title, v]) => (
          <Col key={title} xs={12} md={8}>
            <Figure title={title} value={v} unit="kWh" />
          </Col>
        ))}
      </Row>
      <Typography.Title level={5} style={{ marginTop: 16 }}>{t('累计电量')}</Typography.Title>
      <Row gutter={[16, 4]} data-testid="total-energy">
        {energy('total').map(([title, v]) => (
          <Col key={title} xs={24} sm={12}>
            <Space style={{ width: '100%', justifyContent: 'space-between' }}>
              <Typography.Text type="secondary">{t(title)}</Typography.Text>
              <Typography.Text strong>{fmt(v, 'kWh')}</Typography.Text>
            </Space>
          </Col>
        ))}
      </Row>
    </Card>
  );
}

function PerformanceCard({ p }: { p: SitePerformance | undefined }) {
  const t = useT();
  return (
    <Card title={t('储能运行指标')} size="small" style={{ height: '100%' }} data-testid="performance">
      {p && p.missing.length > 0 && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }}
          message={t('未设置站点关键值：$1，无法计算循环次数', p.missing.map((k) => t(KEY_VALUE_LABELS[k] ?? k)).join('、'))} />
      )}
      <Row gutter={[16, 16]}>
        <Col span={12}><Figure title="今日循环次数" value={p?.cycleCount} /></Col>
        <Col span={12}><Figure title="累计循环次数" value={p?.totalCycleCount} /></Col>
        <Col span={12}><EfficiencyFigure title="今日充放电效率" value={p?.efficiency} discharge={p ? p.discharge : undefined} testId="efficiency-today" /></Col>
        <Col span={12}><EfficiencyFigure title="累计充放电效率" value={p?.totalEfficiency} testId="efficiency-total" /></Col>
        <Col span={12}><Figure title="今日可用率" value={p?.availability} unit="%" /></Col>
      </Row>
    </Card>
  );
}

function InfoCard({ info }: { info: SiteInfo }) {
  const t = useT();
  const kv = info.keyValues;
  return (
    <Card title={t('站点信息')} size="small" style={{ height: '100%' }} data-testid="site-info">
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('站点类型')}>{t(SITE_TYPE_LABELS[info.siteType])}</Descriptions.Item>
        <Descriptions.Item label={t('所属公司')}>{info.companyName}</Descriptions.Item>
        <Descriptions.Item label={t('地址')}>{info.address ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('时区')}>{info.timeZone}</Descriptions.Item>
        <Descriptions.Item label={t('投运日期')}>{info.commissioningDate ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('投运天数')}>{info.runningDays ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('装机容量')}>{fmt(kv.installedCapacity, 'kWh')}</Descriptions.Item>
        <Descriptions.Item label={t('额定功率')}>{fmt(kv.installedPower, 'kW')}</Descriptions.Item>
        <Descriptions.Item label={t('放电深度')}>{fmt(kv.depthOfDischarge, '%')}</Descriptions.Item>
        {info.subsystems.pv && <Descriptions.Item label={t('光伏装机功率')}>{fmt(info.pvRatedPower, 'kW')}</Descriptions.Item>}
        {info.subsystems.charging && <Descriptions.Item label={t('充电桩总功率')}>{fmt(kv.pilePower, 'kW')}</Descriptions.Item>}
      </Descriptions>
      {info.missing.length > 0 && (
        <Typography.Text type="warning" data-testid="missing-key-values">
          {t('未设置：$1', info.missing.map((k) => t(KEY_VALUE_LABELS[k] ?? k)).join('、'))}
        </Typography.Text>
      )}
    </Card>
  );
}

const GENERATION_TYPES: { value: GenerationType; label: string }[] = [
  { value: 'day', label: '日' },
  { value: 'month', label: '月' },
  { value: 'year', label: '年' },
];

/** Energy per hour / day / month of a subsystem, with a day-month-year switch. */
function GenerationChartCard({ kind, siteId, title }: { kind: GenerationKind; siteId: number; title: string }) {
  const t = useT();
  const [type, setType] = useState<GenerationType>('day');
  const g = useGeneration(kind, siteId, type);
  const option = useMemo(
    () => generationOption(g.data, t(title), kind === 'solar' ? SERIES_COLOURS.pv! : SERIES_COLOURS.piles!, g.isFetching ? '' : t('暂无数据')),
    [g.data, g.isFetching, t, title, kind],
  );
  return (
    <div>
      <Space style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text strong>{t(title)}</Typography.Text>
        <Segmented size="small" value={type} onChange={(v) => setType(v)} options={GENERATION_TYPES.map((o) => ({ value: o.value, label: t(o.label) }))} />
      </Space>
      <EChart option={option} height={220} label={t(title)} testId={`generation-${kind}`} />
      {g.data && <Typography.Text type="secondary">{t('合计 $1 kWh', fmt(g.data.total))}</Typography.Text>}
    </div>
  );
}

function SolarCard({ siteId, s }: { siteId: number; s: SolarSummary | undefined }) {
  const t = useT();
  return (
    <Card title={t('光伏')} size="small" style={{ height: '100%' }} data-testid="solar-card">
      <Row gutter={[16, 16]}>
        <Col span={8}><Figure title="光伏功率" value={s?.power} unit="kW" /></Col>
        <Col span={8}><Figure title="今日发电量" value={s?.todayEnergy} unit="kWh" /></Col>
        <Col span={8}><Figure title="等效利用小时" value={s?.equivalentHours} unit="h" /></Col>
        <Col span={8}><Figure title="本月发电量" value={s?.monthEnergy} unit="kWh" /></Col>
        <Col span={8}><Figure title="本年发电量" value={s?.yearEnergy} unit="kWh" /></Col>
        <Col span={8}><Figure title="累计发电量" value={s?.totalEnergy} unit="kWh" /></Col>
      </Row>
      <div style={{ margin: '12px 0' }}>
        <StateTags states={s?.states ?? []} />
      </div>
      <GenerationChartCard kind="solar" siteId={siteId} title="光伏发电量" />
    </Card>
  );
}

function ChargingCard({ siteId, c }: { siteId: number; c: ChargingSummary | undefined }) {
  const t = useT();
  return (
    <Card title={t('充电桩')} size="small" style={{ height: '100%' }} data-testid="charging-card">
      <Row gutter={[16, 16]}>
        <Col span={8}><Figure title="充电功率" value={c?.power} unit="kW" /></Col>
        <Col span={8}><Figure title="今日充电量" value={c?.todayEnergy} unit="kWh" /></Col>
        <Col span={8}><Figure title="今日充电次数" value={c?.todaySessions} /></Col>
        <Col span={8}><Figure title="本月充电量" value={c?.monthEnergy} unit="kWh" /></Col>
        <Col span={8}><Figure title="充电枪利用率" value={c?.utilisation} unit="%" /></Col>
        <Col span={8}><Figure title="累计充电量" value={c?.totalEnergy} unit="kWh" /></Col>
      </Row>
      <div style={{ margin: '12px 0' }}>
        <StateTags states={c?.gunStates ?? []} />
      </div>
      <GenerationChartCard kind="charging" siteId={siteId} title="充电量" />
    </Card>
  );
}

/** Acknowledge the station, or start / end its maintenance, with a note; journalled with who did it. */
function HandleActions({ info }: { info: SiteInfo }) {
  const t = useT();
  const { message } = App.useApp();
  const handle = useHandleSite();
  const [action, setAction] = useState<SiteHandleAction | null>(null);
  const [note, setNote] = useState('');
  const needsNote = action === 'maintenanceStart';
  const submit = () => {
    if (!action) return;
    handle.mutate(
      { siteId: info.id, action, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          void message.success(t('操作成功'));
          setAction(null);
          setNote('');
        },
      },
    );
  };
  const open = (a: SiteHandleAction) => {
    setNote('');
    setAction(a);
  };
  return (
    <>
      <Space wrap>
        {/* Only the actions the contract's transition table allows from the station's state. */}
        {allowedActions(siteHandleMachine, info.maintenance ? 'maintenance' : 'normal').map((a) => (
          <Button key={a} onClick={() => open(a)} data-testid={`handle-${a.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`}>
            {t(SITE_HANDLE_ACTION_LABELS[a])}
          </Button>
        ))}
      </Space>
      <Modal
        open={action !== null}
        title={action ? t(SITE_HANDLE_ACTION_LABELS[action]) : ''}
        okText={t('确定')}
        cancelText={t('取消')}
        onOk={submit}
        okButtonProps={{ disabled: needsNote && !note.trim(), loading: handle.isPending }}
        onCancel={() => setAction(null)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          {needsNote ? t('检修期间设备离线属于预期，请说明检修内容') : t('说明（可选）')}
        </Typography.Paragraph>
        <Input.TextArea aria-label={t('说明')} value={note} onChange={(e) => setNote(e.target.value)} maxLength={SITE_HANDLE_NOTE_MAX} showCount rows={3} />
      </Modal>
    </>
  );
}

/**
 * /overview/station?siteId=…: one station, live — its power flow, power now and the day's
 * energy, the day's curves, storage performance, earnings, PV and charging (each only where the station has
 * them, otherwise saying it has none) — and handling it (acknowledge, maintenance).
 */
export function StationPage() {
  const t = useT();
  const [search, setSearch] = useSearchParams();
  const sites = useQuery(siteListQuery);
  const siteId = siteIdParam(search) ?? sites.data?.[0]?.id;
  const choose = useCallback((id: number) => setSearch({ siteId: String(id) }, { replace: true }), [setSearch]);
  const info = useSitePart('info', siteId, DASHBOARD_CHART_MS);
  const overview = useSitePart('overview', siteId);
  const topology = useSitePart('topology', siteId);
  const curves = useSitePart('powerData', siteId, DASHBOARD_CHART_MS);
  const perf = useSitePart('performance', siteId, DASHBOARD_CHART_MS, info.data?.subsystems.storage ?? false);
  const subsystems = info.data?.subsystems;
  const solar = useSitePart('solarSummary', siteId, DASHBOARD_CHART_MS, subsystems?.pv ?? false);
  const charging = useSitePart('chargingSummary', siteId, undefined, subsystems?.charging ?? false);
  const curveOption = useMemo(() => curvesOption(curves.data, t, curves.isFetching ? '' : t('今日暂无数据')), [curves.data, curves.isFetching, t]);
  // Acknowledge and maintenance only for a user the handling call allows (not a read-only investor).
  const canHandle = useCan(comprehensiveEndpoints.handle);

  if (sites.data && sites.data.length === 0) return <Result status="info" title={t('没有可查看的站点')} />;
  if (info.isError && !info.data) return <Result status="warning" title={t('站点数据加载失败')} subTitle={info.error.message} />;
  // The page is drawn once the parts at its top are in (the station, its power flow, its key
  // figures): drawn before, their placeholders grew into the real thing and pushed everything
  // under them down (layout shift, worst on a phone where the cards stack).
  const topPending = (q: { data?: unknown; isError: boolean }) => !q.data && !q.isError;
  if (siteId === undefined || !info.data || topPending(overview) || topPending(topology)) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  const i = info.data;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="station-page">
      <Card size="small">
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <StationPicker value={siteId} onChange={choose} width={260} />
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="station-name">{i.name}</Typography.Title>
            <Tag>{t(SITE_TYPE_LABELS[i.siteType])}</Tag>
            <MaintenanceTag m={i.maintenance} />
          </Space>
          {canHandle && <HandleActions info={i} />}
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card title={t('能量流向')} size="small" style={{ height: '100%' }}>
            {topology.data ? <PowerFlow topology={topology.data} height={420} /> : <Spin />}
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          {overview.data ? <KeyFigures o={overview.data} /> : <Card loading />}
        </Col>
      </Row>
      {/* The parts below the top drawn in turns (components/Deferred.tsx), each under the last: a
          short task each instead of the whole page in one long one; nothing above them moves. */}
      <Deferred>
        <Card title={t('今日功率曲线')} size="small" extra={curves.data && <Typography.Text type="secondary">{t('站点当地时间 $1', curves.data.timeZone)}</Typography.Text>}>
          <EChart option={curveOption} height={320} label={t('今日功率曲线')} testId="station-curves" />
        </Card>
      </Deferred>
      <Deferred>
        <Row gutter={[16, 16]}>
          {i.subsystems.storage && (
            <Col xs={24} lg={12}>
              <PerformanceCard p={perf.data} />
            </Col>
          )}
          <Col xs={24} lg={12}>
            <InfoCard info={i} />
          </Col>
        </Row>
      </Deferred>
      <Deferred>
        <EarningsCard siteId={i.id} subsystems={i.subsystems} />
      </Deferred>
      <Deferred>
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            {i.subsystems.pv
              ? <SolarCard siteId={i.id} s={solar.data} />
              : <Card title={t('光伏')} size="small"><Empty description={t('该站点没有光伏')} data-testid="no-pv" /></Card>}
          </Col>
          <Col xs={24} lg={12}>
            {i.subsystems.charging
              ? <ChargingCard siteId={i.id} c={charging.data} />
              : <Card title={t('充电桩')} size="small"><Empty description={t('该站点没有充电桩')} data-testid="no-piles" /></Card>}
          </Col>
        </Row>
      </Deferred>
    </Space>
  );
}
