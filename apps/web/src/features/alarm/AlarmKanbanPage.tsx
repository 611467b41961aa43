import { ALARM_LEVELS } from '@ess/contract/constants';
import { ALARM_LEVEL_LABELS, type AlarmKanbanCabinet, type AlarmRecord } from '@ess/contract/alarm';
import { Card, Col, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState, type HTMLAttributes } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { levelBarsOption, raisedEndedOption, sumLevels } from './alarm.charts.ts';
import { useAlarmList, useAlarmLiveRefresh, useKanbanCabinet, useKanbanChart, useKanbanSite, type KanbanQuery } from './alarm.api.ts';
import { formatDuration } from './alarm.options.ts';
import { levelColour } from '../../components/options/levels.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { LevelTag } from '../../components/LevelTag.tsx';
import { RepairFromAlarm } from '../../components/RepairFromAlarm.tsx';
import { maintenanceEndpoints } from '@ess/contract/maintenance';
import { useCan } from '../../platform/permissions.ts';

type CabinetRow = AlarmKanbanCabinet['cabinets'][number];

/** The most severe first, then the newest. */
const bySeverity = (a: AlarmRecord, b: AlarmRecord) => a.level - b.level || b.startedAt.localeCompare(a.startedAt);

/**
 * /alarm/alarmKanban: alarms in progress by level, by station and by energy cabinet, the open
 * alarms themselves and the last 24 hours of raised and ended alarms. Kept current by the
 * RefreshAlarmKanban live event, without a reload.
 */
export function AlarmKanbanPage() {
  const t = useT();
  useAlarmLiveRefresh();
  const [siteId, setSiteId] = useState<number | undefined>();
  const q: KanbanQuery = siteId ? { siteId } : {};
  const site = useKanbanSite(q);
  const chart = useKanbanChart(q);
  const cabinet = useKanbanCabinet(q);
  const open = useAlarmList({ status: 'active', ...q });
  const openRows = useMemo(() => [...(open.data ?? [])].sort(bySeverity), [open.data]);
  const total = site.data?.total;
  const canRepair = useCan(maintenanceEndpoints.repairAdd);

  const trend = useMemo(() => raisedEndedOption(chart.data, t), [chart.data, t]);
  const stations = useMemo(
    () => levelBarsOption((site.data?.sites ?? []).map((s) => ({ name: s.siteName, levels: s.levels })), 'active', t),
    [site.data, t],
  );

  const openColumns = useMemo<ColumnsType<AlarmRecord>>(
    () => [
      { title: t('告警等级'), dataIndex: 'level', width: 100, render: (v: number) => <LevelTag level={v} /> },
      { title: t('告警描述'), dataIndex: 'description', width: 180, ellipsis: true, render: (v: string) => t(v) },
      { title: t('设备'), dataIndex: 'deviceName', width: 150, ellipsis: true },
      { title: t('所属站点'), dataIndex: 'siteName', width: 150, ellipsis: true },
      { title: t('开始时间'), dataIndex: 'startedAt', width: 165, render: (v: string) => formatDateTime(v) },
      { title: t('持续时长'), dataIndex: 'durationMs', width: 120, render: (v: number) => formatDuration(v, t) },
      ...(canRepair ? [{ title: t('操作'), key: 'actions', width: 150, render: (_: unknown, r: AlarmRecord) => <RepairFromAlarm alarm={r} /> }] : []),
    ],
    [t, canRepair],
  );
  const cabinetColumns = useMemo<ColumnsType<CabinetRow>>(
    () => [
      { title: t('储能柜'), key: 'cabinet', width: 130, ellipsis: true, render: (_: unknown, r) => r.cabinetName ?? t('柜外设备') },
      { title: t('所属站点'), dataIndex: 'siteName', width: 150, ellipsis: true },
      ...ALARM_LEVELS.map((level) => ({
        title: t(ALARM_LEVEL_LABELS[level]),
        key: `l${level}`,
        width: 90,
        align: 'right' as const,
        render: (_: unknown, r: CabinetRow) => {
          const n = r.levels[level - 1]?.active ?? 0;
          return n ? <Typography.Text strong style={{ color: levelColour(level) }}>{n}</Typography.Text> : <Typography.Text type="secondary">0</Typography.Text>;
        },
      })),
      { title: t('24小时内新增'), key: 'raised', width: 110, align: 'right' as const, render: (_: unknown, r) => sumLevels(r.levels, 'raised') },
    ],
    [t],
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="alarm-kanban">
      <Card size="small">
        <Space wrap>
          <StationPicker value={siteId} onChange={setSiteId} onClear={() => setSiteId(undefined)} />
          <Typography.Text type="secondary">{t('告警发生或结束时自动刷新')}</Typography.Text>
          <Link to="/alarm/monitor">{t('告警监控')}</Link>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        {ALARM_LEVELS.map((level) => (
          <Col key={level} flex="1 1 200px">
            <Card size="small" style={{ borderTop: `3px solid ${levelColour(level)}` }} data-testid={`active-level-${level}`}>
              <Statistic
                title={t(ALARM_LEVEL_LABELS[level])}
                value={total?.[level - 1]?.active ?? 0}
                valueStyle={{ color: levelColour(level) }}
                suffix={<span style={{ fontSize: 14 }}>{t('条进行中')}</span>}
              />
              <Typography.Text type="secondary">{t('24小时内新增 $1，结束 $2', total?.[level - 1]?.raised ?? 0, total?.[level - 1]?.ended ?? 0)}</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t('近24小时告警趋势')}>
            <EChart option={trend} height={300} label={t('近24小时告警趋势')} testId="alarm-trend" />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t('各站点进行中的告警')}>
            <EChart option={stations} height={300} label={t('各站点进行中的告警')} testId="alarm-stations" />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={<span>{t('进行中的告警')} <Tag>{openRows.length}</Tag></span>}>
            <Table<AlarmRecord>
              rowKey="id"
              size="small"
              data-testid="open-alarms"
              columns={openColumns}
              dataSource={openRows}
              loading={open.isLoading}
              pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
              onRow={(r) => ({ 'data-alarm-no': r.no }) as HTMLAttributes<HTMLElement>}
              locale={{ emptyText: t('没有进行中的告警') }}
              scroll={{ x: canRepair ? 1015 : 865 }}
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t('储能柜进行中的告警')}>
            <Table<CabinetRow>
              rowKey={(r) => `${r.siteId}-${r.cabinetId ?? 'none'}`}
              size="small"
              data-testid="cabinet-alarms"
              columns={cabinetColumns}
              dataSource={cabinet.data?.cabinets ?? []}
              loading={cabinet.isLoading}
              pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
              scroll={{ x: 840 }}
            />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
