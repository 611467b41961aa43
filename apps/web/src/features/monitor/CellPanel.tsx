import type { DeviceProperty } from '@ess/contract/device';
import { Card, Col, Descriptions, Row, Segmented } from 'antd';
import { useMemo, useState } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { CELL_UNITS, cellIdentifiers, clusterMatrix, heatmapOption, packMatrix, type CellKind, type HeatMatrix } from './cells.ts';
import { EChart } from '../../components/chart/EChart.tsx';
import { useLatestList } from './monitor.api.ts';

const KIND_LABELS: Record<CellKind, string> = { voltage: '电芯电压', temperature: '电芯温度' };

function Stats({ m, kind }: { m: HeatMatrix; kind: CellKind }) {
  const t = useT();
  if (!m.stats) return null;
  const u = CELL_UNITS[kind];
  const s = m.stats;
  const spread = kind === 'voltage' ? `${formatNumber(s.spread * 1000)} mV` : `${formatNumber(s.spread)} ${u}`;
  return (
    <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} data-testid={`cell-stats-${kind}`}>
      <Descriptions.Item label={t('最高')}>{`${formatNumber(s.max)} ${u} (${s.maxAt})`}</Descriptions.Item>
      <Descriptions.Item label={t('最低')}>{`${formatNumber(s.min)} ${u} (${s.minAt})`}</Descriptions.Item>
      <Descriptions.Item label={t('平均')}>{`${formatNumber(s.avg)} ${u}`}</Descriptions.Item>
      <Descriptions.Item label={t('极差')}>{spread}</Descriptions.Item>
    </Descriptions>
  );
}

function Heat({ m, kind, height }: { m: HeatMatrix; kind: CellKind; height: number }) {
  const t = useT();
  const option = useMemo(() => heatmapOption(m, kind, { series: t(KIND_LABELS[kind]), empty: t('暂无数据') }), [m, kind, t]);
  return <EChart option={option} height={height} label={t(KIND_LABELS[kind])} testId={`cell-heatmap-${kind}`} />;
}

/** A battery pack's cells: voltage and temperature heat maps (2 rows of 8), live with the page. */
export function PackCells({ properties }: { properties: readonly DeviceProperty[] }) {
  const t = useT();
  const values = useMemo(() => Object.fromEntries(properties.map((p) => [p.identifier, p.value ?? ''])), [properties]);
  return (
    <Row gutter={[16, 16]}>
      {(['voltage', 'temperature'] as const).map((kind) => {
        const m = packMatrix(values, kind);
        return (
          <Col key={kind} xs={24} xl={12}>
            <Card title={t(KIND_LABELS[kind])}>
              <Heat m={m} kind={kind} height={200} />
              <Stats m={m} kind={kind} />
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}

/** A cluster's packs × cells: the distribution of cell voltage or temperature over the whole rack, live. */
export function ClusterCells({ clusterId }: { clusterId: number }) {
  const t = useT();
  const [kind, setKind] = useState<CellKind>('voltage');
  const packs = useLatestList({ parentId: clusterId, type: 'batteryPack', identifiers: [...cellIdentifiers('voltage'), ...cellIdentifiers('temperature')] });
  const m = useMemo(
    () => clusterMatrix([...(packs.data ?? [])].sort((a, b) => (a.no ?? a.id) - (b.no ?? b.id)).map((p) => ({ name: p.name, values: p.values })), kind),
    [packs.data, kind],
  );
  return (
    <Card
      title={t('电芯分布')}
      extra={<Segmented value={kind} onChange={(v) => setKind(v)} options={(['voltage', 'temperature'] as const).map((k) => ({ value: k, label: t(KIND_LABELS[k]) }))} />}
    >
      <Heat m={m} kind={kind} height={Math.max(240, m.yLabels.length * 26 + 60)} />
      <Stats m={m} kind={kind} />
    </Card>
  );
}
