import type { MeterRegister, MonitorChild, MonitorFigure } from '@ess/contract/monitor';
import { Badge, Card, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link, useLocation } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { formatValue, thingProperty } from '../../components/format.ts';
import { StatusBadge } from '../../components/StatusBadge.tsx';

function Figure({ f, type }: { f: MonitorFigure | undefined; type: string }) {
  const t = useT();
  if (!f) return <>-</>;
  if (f.valueLabel) return f.colour ? <Badge color={f.colour} text={t(f.valueLabel)} /> : <>{t(f.valueLabel)}</>;
  const prop = thingProperty(type, f.identifier);
  const v = formatValue(prop ?? { dataType: 'float', unit: f.unit }, f.value, t);
  return v.colour ? <Badge color={v.colour} text={v.text} /> : <>{v.text}</>;
}

/** Child devices of a detail (clusters of a BMS, packs of a cluster, guns of a pile, converters of an ESS), live with the page. */
export function ChildrenPanel({ title, rows }: { title: string; rows: readonly MonitorChild[] }) {
  const t = useT();
  // A child opens in the same section as this page (monitor or registry).
  const { pathname } = useLocation();
  if (!rows.length) return null;
  const first = rows[0]!;
  const columns: ColumnsType<MonitorChild> = [
    { title: t('设备名称'), dataIndex: 'name', width: 160, fixed: 'left', render: (v: string, r) => <Link to={`${pathname}?id=${r.id}`}>{v}</Link> },
    { title: t('状态'), dataIndex: 'status', width: 90, render: (_: unknown, r) => <StatusBadge status={r.status} /> },
    ...first.figures.map((f) => ({
      title: f.unit ? `${t(f.name)} (${f.unit})` : t(f.name),
      key: f.identifier,
      width: 130,
      render: (_: unknown, r: MonitorChild) => <Figure f={r.figures.find((x) => x.identifier === f.identifier)} type={r.type} />,
    })),
  ];
  return (
    <Card title={t(title)} data-testid="children-panel">
      <Table rowKey="id" size="small" columns={columns} dataSource={[...rows]} pagination={rows.length > 20 ? { pageSize: 20 } : false} scroll={{ x: 260 + first.figures.length * 130 }} />
    </Card>
  );
}

/** A meter's registers per time-of-use period, forward and reverse, kWh. */
export function MeterRegisters({ rows }: { rows: readonly MeterRegister[] }) {
  const t = useT();
  if (!rows.length) return null;
  const kwh = (v: number | null) => (v === null ? '-' : `${formatNumber(v)} kWh`);
  return (
    <Card title={t('电能示值')}>
      <Table
        rowKey="period"
        size="small"
        pagination={false}
        dataSource={[...rows]}
        columns={[
          { title: t('时段'), dataIndex: 'label', render: (v: string) => t(v) },
          { title: t('正向有功电能'), dataIndex: 'forward', render: kwh },
          { title: t('反向有功电能'), dataIndex: 'reverse', render: kwh },
        ]}
      />
    </Card>
  );
}
