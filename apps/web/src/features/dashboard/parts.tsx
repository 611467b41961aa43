import type { DeviceStatusOverview, LiveSite, SiteMaintenance, StateCount } from '@ess/contract/comprehensive';
import { Badge, Col, Row, Space, Statistic, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { formatNumber } from '../../components/chart/chart-options.ts';
import { formatEfficiency, formatTime } from '../../components/format.ts';

/** A number with its unit, or '-' when not known. */
export const fmt = (v: number | null | undefined, unit = '') => (v === null || v === undefined ? '-' : unit ? `${formatNumber(v)} ${unit}` : formatNumber(v));

/** A key figure: title, value, unit. */
export function Figure({ title, value, unit, testId, extra }: { title: string; value: number | null | undefined; unit?: string; testId?: string; extra?: ReactNode }) {
  const t = useT();
  return (
    <div data-testid={testId}>
      <Statistic title={t(title)} value={value === null || value === undefined ? '-' : formatNumber(value)} suffix={value === null || value === undefined ? undefined : unit} />
      {extra}
    </div>
  );
}

/** A round-trip efficiency figure: "–" when nothing was discharged (components/format.ts). */
export function EfficiencyFigure({ title, value, discharge, testId }: { title: string; value: number | null | undefined; discharge?: number | null; testId?: string }) {
  const t = useT();
  return (
    <div data-testid={testId}>
      <Statistic title={t(title)} value={formatEfficiency(value, discharge)} />
    </div>
  );
}

/** Device counts by status, as a row of key figures (device overview, running monitoring). */
export function StatusFigures({ counts, testId }: { counts: DeviceStatusOverview['total'] | undefined; testId?: string }) {
  const figures = [
    ['设备总数', counts?.total], ['在线', counts?.online], ['离线', counts?.offline], ['禁用', counts?.disabled], ['未激活', counts?.inactive], ['故障', counts?.fault],
  ] as const;
  return (
    <Row gutter={[16, 16]}>
      {figures.map(([title, value], i) => (
        <Col key={title} xs={12} md={4}><Figure title={title} value={value} testId={i === 0 ? testId : undefined} /></Col>
      ))}
    </Row>
  );
}

export const SITE_STATUS: Record<LiveSite['status'], { label: string; status: 'success' | 'warning' | 'error' | 'default' }> = {
  online: { label: '全部在线', status: 'success' },
  partial: { label: '部分离线', status: 'warning' },
  offline: { label: '全部离线', status: 'error' },
  noData: { label: '尚无数据', status: 'default' },
};

/** How a station's devices are doing, as a badge. */
export function SiteStatusBadge({ status }: { status: LiveSite['status'] }) {
  const t = useT();
  const s = SITE_STATUS[status];
  return <Badge status={s.status} text={t(s.label)} data-testid="site-status" data-status={status} />;
}

/** The maintenance tag, with who started it and why. */
export function MaintenanceTag({ m }: { m: SiteMaintenance | null }) {
  const t = useT();
  if (!m) return null;
  return (
    <Tooltip title={`${m.username} · ${formatTime(m.since)}${m.note ? ` · ${m.note}` : ''}`}>
      {/* Dark text on the light orange: antd's orange preset is too faint for small text. */}
      <Tag style={{ background: '#fff7e6', borderColor: '#ffd591', color: '#873800' }} data-testid="maintenance-tag">{t('检修中')}</Tag>
    </Tooltip>
  );
}

/**
 * A state with its colour as a dot beside the text: the thing model's colours (white text on a
 * bright green or blue tag) would be too faint to read.
 */
export function StateLabel({ label, colour, suffix = '', testId }: { label: string | null; colour: string | null; suffix?: string; testId?: string }) {
  const t = useT();
  if (!label) return <span>-</span>;
  return <Badge color={colour ?? '#8c8c8c'} text={`${t(label)}${suffix}`} data-testid={testId} />;
}

/** Counts by state (only states that occur). */
export function StateTags({ states }: { states: readonly StateCount[] }) {
  const shown = states.filter((s) => s.count > 0);
  if (shown.length === 0) return <span>-</span>;
  return (
    <Space size={[12, 4]} wrap>
      {shown.map((s) => (
        <StateLabel key={s.value} label={s.label} colour={s.colour} suffix={` ${s.count}`} />
      ))}
    </Space>
  );
}
