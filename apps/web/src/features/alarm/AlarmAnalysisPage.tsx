import { ALARM_LEVELS } from '@ess/contract/constants';
import { ALARM_LEVEL_LABELS, type AlarmKanbanChart } from '@ess/contract/alarm';
import { DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Col, DatePicker, Row, Space, Statistic, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { countBarsOption, levelBarsOption, raisedEndedOption, sumLevels, typeItems } from './alarm.charts.ts';
import { alarmApi, useKanbanChart, useKanbanSite, type KanbanQuery } from './alarm.api.ts';
import { formatDuration } from './alarm.options.ts';
import { levelColour } from '../../components/options/levels.ts';
import { StationPicker } from '../../components/StationPicker.tsx';

type TopDevice = AlarmKanbanChart['topDevices'][number];

/** Ranges offered: the last day, week, month and quarter. */
export const ANALYSIS_PRESETS = [
  { label: '近24小时', days: 1 },
  { label: '近7天', days: 7 },
  { label: '近30天', days: 30 },
  { label: '近90天', days: 90 },
] as const;

/**
 * /alarm/analysis (fault analysis): over a chosen range and station, the alarms raised by level,
 * type, station and device, the raised/ended chart and the mean time from raising to ending.
 */
export function AlarmAnalysisPage() {
  const t = useT();
  const [siteId, setSiteId] = useState<number | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(7, 'day').startOf('day'), dayjs()]);
  const q: KanbanQuery = { start: range[0].valueOf(), end: range[1].valueOf(), ...(siteId ? { siteId } : {}) };
  const chart = useKanbanChart(q);
  const exporting = useMutation({ mutationFn: (query: KanbanQuery) => alarmApi.exportFile(query) });
  const site = useKanbanSite(q);
  const c = chart.data;
  const total = site.data?.total;
  const raised = sumLevels(total, 'raised');

  const trend = useMemo(() => raisedEndedOption(c, t), [c, t]);
  const byLevel = useMemo(
    () => countBarsOption(ALARM_LEVELS.map((l) => ({ name: t(ALARM_LEVEL_LABELS[l]), count: total?.[l - 1]?.raised ?? 0, colour: levelColour(l) })), t),
    [total, t],
  );
  const byType = useMemo(() => countBarsOption(typeItems(c, t), t), [c, t]);
  const byStation = useMemo(
    () => levelBarsOption((site.data?.sites ?? []).map((s) => ({ name: s.siteName, levels: s.levels })), 'raised', t),
    [site.data, t],
  );
  const deviceColumns = useMemo<ColumnsType<TopDevice>>(
    () => [
      { title: t('设备'), dataIndex: 'deviceName', ellipsis: true, render: (_: unknown, r) => `${r.deviceName} (${r.deviceCode})` },
      { title: t('所属站点'), dataIndex: 'siteName', width: 160, ellipsis: true },
      { title: t('告警数'), dataIndex: 'count', width: 90, align: 'right' },
    ],
    [t],
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="alarm-analysis">
      <Card size="small">
        <Space wrap>
          <StationPicker value={siteId} onChange={setSiteId} onClear={() => setSiteId(undefined)} />
          <DatePicker.RangePicker
            aria-label={t('统计时间')}
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={range}
            allowClear={false}
            onChange={(v) => {
              if (v?.[0] && v[1]) setRange([v[0], v[1]]);
            }}
            presets={ANALYSIS_PRESETS.map((p) => ({ label: t(p.label), value: () => [dayjs().subtract(p.days, 'day'), dayjs()] as [Dayjs, Dayjs] }))}
          />
          <Button icon={<DownloadOutlined />} loading={exporting.isPending} onClick={() => exporting.mutate(q)} data-testid="analysis-export">
            {t('导出')}
          </Button>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={12} lg={6}>
          <Card size="small" data-testid="analysis-raised">
            <Statistic title={t('告警总数')} value={raised} />
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card size="small" data-testid="analysis-ended">
            <Statistic title={t('已结束')} value={c?.endedCount ?? 0} />
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card size="small" data-testid="analysis-active">
            <Statistic title={t('仍在进行')} value={raised - (c?.endedCount ?? 0)} />
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card size="small" data-testid="analysis-mttr">
            <Statistic title={t('平均结束时长')} value={formatDuration(c?.meanTimeToEndMs, t)} />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('告警趋势')}>
        <EChart option={trend} height={280} label={t('告警趋势')} testId="analysis-trend" />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('按等级')}>
            <EChart option={byLevel} height={240} label={t('按等级')} testId="analysis-level" />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('按类型')}>
            <EChart option={byType} height={240} label={t('按类型')} testId="analysis-type" />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('按站点')}>
            <EChart option={byStation} height={260} label={t('按站点')} testId="analysis-station" />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('告警最多的设备')}>
            <Table<TopDevice>
              rowKey="deviceId"
              size="small"
              data-testid="analysis-devices"
              columns={deviceColumns}
              dataSource={c?.topDevices ?? []}
              loading={chart.isLoading}
              pagination={false}
              locale={{ emptyText: t('所选时间内没有告警') }}
            />
            <Typography.Text type="secondary">{t('平均结束时长按所选时间内产生且已结束的告警计算')}</Typography.Text>
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
