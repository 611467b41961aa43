import { Alert, Card, Col, DatePicker, Empty, Form, Row, Statistic, Tag } from 'antd';
import { ToneTag } from '../../components/ToneTag.tsx';
import dayjs from 'dayjs';
import { useCallback, useState, type ReactNode } from 'react';
import type { SiteRef } from '../../components/options/sites.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { currentMonth } from './demand.model.ts';

/** The station and month a demand screen shows: the first station, its current month. */
export function useStationMonth() {
  const [site, setSite] = useState<SiteRef | null>(null);
  const [chosen, setMonth] = useState<string | null>(null);
  const month = chosen ?? (site ? currentMonth(site.timeZone) : null);
  const onSite = useCallback((_id: number, s: SiteRef) => setSite(s), []);
  return { site, onSite, month, setMonth };
}

/** The month picker of a station's months (none after the station's current month). */
export function MonthField({ value, onChange, id = 'demand-month' }: { value: string | null; onChange: (m: string) => void; id?: string }) {
  const t = useT();
  return (
    <DatePicker
      id={id}
      aria-label={t('月份')}
      picker="month"
      allowClear={false}
      value={value ? dayjs(`${value}-01`) : null}
      disabledDate={(d) => d.isAfter(dayjs().endOf('month'))}
      onChange={(v) => v && onChange(v.format('YYYY-MM'))}
    />
  );
}

/** The filter bar of a station's screen: the station picker first, then the screen's own fields. */
export function StationBar({ site, onSite, children }: { site: SiteRef | null; onSite: (id: number, s: SiteRef) => void; children?: ReactNode }) {
  const t = useT();
  return (
    <Card size="small">
      <Form layout="inline" style={{ rowGap: 12 }}>
        <Form.Item label={t('站点')} htmlFor="demand-site">
          <StationPicker id="demand-site" autoSelectFirst value={site?.id ?? null} onChange={onSite} width={220} />
        </Form.Item>
        {children}
      </Form>
    </Card>
  );
}

/** One figure of a summary card. */
export function Figure({ title, value, testId, danger }: { title: string; value: ReactNode; testId?: string; danger?: boolean }) {
  return (
    <Col xs={12} md={8} xl={4} data-testid={testId}>
      <Statistic title={title} valueRender={() => <span style={danger ? { color: '#cf1322' } : undefined}>{value}</span>} />
    </Col>
  );
}

export const Figures = ({ children }: { children: ReactNode }) => <Row gutter={[16, 16]}>{children}</Row>;

/** What a failed load shows: the reason, above an otherwise empty page. */
export function LoadError({ error }: { error: Error | null }) {
  return error ? <Alert type="error" showIcon message={error.message} data-testid="demand-error" /> : null;
}

/** The page's empty state: no station to pick, or nothing measured yet. */
export function NoData({ text, testId = 'demand-empty' }: { text: string; testId?: string }) {
  return <Empty description={text} data-testid={testId} />;
}

/** A red "exceeded" tag or a green "within target"; nothing for a day or month without any window. */
export function ExceededTag({ exceeded, hasTarget, hasData = true }: { exceeded: boolean; hasTarget: boolean; hasData?: boolean }) {
  const t = useT();
  if (!hasData) return <span>-</span>;
  if (!hasTarget) return <Tag>{t('未设目标')}</Tag>;
  return exceeded ? <ToneTag tone="error">{t('超目标')}</ToneTag> : <ToneTag tone="success">{t('未超目标')}</ToneTag>;
}
