import { Alert, Checkbox, Col, Input, InputNumber, List, Radio, Row, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DateField } from '../../components/DateField.tsx';
import { siteListQuery } from '../../components/options/sites.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { SCHEDULE_KIND_OPTIONS, WEEKDAY_OPTIONS } from './maintenance.options.ts';
import { previewOf, slotText, type ScheduleDraft } from './schedule.ts';

/** The browser's own zone, for a preview before any station is chosen. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * The next 10 due dates of a schedule at one of the plan's stations, in that station's zone,
 * recomputed as the form changes (the contract's nextDueDates, as the generator uses it).
 */
export function SchedulePreview({ schedule, siteIds, now: fixedNow }: { schedule: ScheduleDraft | undefined; siteIds: readonly number[]; now?: number }) {
  const t = useT();
  const [opened] = useState(() => Date.now());
  const now = fixedNow ?? opened;
  const sites = useQuery(siteListQuery);
  const chosen = useMemo(() => (sites.data ?? []).filter((s) => siteIds.includes(s.id)), [sites.data, siteIds]);
  const [siteId, setSiteId] = useState<number | null>(null);
  const site = chosen.find((s) => s.id === siteId) ?? chosen[0];
  const zone = site?.timeZone ?? browserZone();
  const { slots, issue } = previewOf(schedule, zone, now);
  return (
    <div data-testid="schedule-preview">
      <Space wrap>
        <Typography.Text strong>{t('接下来10次的计划时间')}</Typography.Text>
        {chosen.length > 1 ? (
          <Select
            size="small"
            value={site?.id}
            onChange={setSiteId}
            aria-label={t('按站点时区')}
            options={chosen.map((s) => ({ value: s.id, label: `${s.name} (${s.timeZone})` }))}
            style={{ minWidth: 200 }}
          />
        ) : (
          <Typography.Text type="secondary">{site ? `${site.name} (${zone})` : t('未选择站点，按本机时区 $1', zone)}</Typography.Text>
        )}
      </Space>
      {issue ? (
        <Alert type="warning" showIcon message={t(issue)} data-testid="schedule-issue" />
      ) : slots.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('结束日期前没有计划时间')}</Typography.Paragraph>
      ) : (
        <List
          size="small"
          dataSource={slots}
          renderItem={(slot, i) => (
            <List.Item data-testid="preview-slot">
              <Typography.Text>
                {i + 1}. {slotText(slot, zone, t)}
              </Typography.Text>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}

/** The schedule of a plan: kind with its own fields, start and end date, start time and the due-time offset. */
export function ScheduleField({ value, onChange, id }: { value?: ScheduleDraft; onChange?: (v: ScheduleDraft) => void; id?: string }) {
  const t = useT();
  const v: ScheduleDraft = value ?? { kind: 'daily' };
  const set = (patch: Partial<ScheduleDraft>) => onChange?.({ ...v, ...patch });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="schedule-field">
      <Radio.Group
        id={id}
        optionType="button"
        buttonStyle="solid"
        value={v.kind}
        onChange={(e) => set({ kind: e.target.value as ScheduleDraft['kind'] })}
        options={SCHEDULE_KIND_OPTIONS.map((o) => ({ value: o.value as string, label: t(o.label) }))}
      />
      {v.kind === 'weekly' && (
        <Checkbox.Group
          aria-label={t('星期')}
          value={v.weekdays ?? []}
          onChange={(days) => set({ weekdays: days })}
          options={WEEKDAY_OPTIONS.map((o) => ({ value: o.value as number, label: t(o.label) }))}
        />
      )}
      {v.kind === 'monthly' && (
        <Space>
          <Typography.Text>{t('每月第')}</Typography.Text>
          <InputNumber aria-label={t('每月几日')} min={1} max={31} value={v.day ?? null} onChange={(d) => set({ day: d })} />
          <Typography.Text type="secondary">{t('日（当月没有这一天时取月末）')}</Typography.Text>
        </Space>
      )}
      {v.kind === 'interval' && (
        <Space>
          <Typography.Text>{t('每隔')}</Typography.Text>
          <InputNumber aria-label={t('间隔天数')} min={1} max={366} value={v.everyDays ?? null} onChange={(d) => set({ everyDays: d })} />
          <Typography.Text>{t('天')}</Typography.Text>
        </Space>
      )}
      <Row gutter={8}>
        <Col xs={24} sm={12}>
          <label className="ess-field-label">
            {t('开始日期')}
            <DateField value={v.startDate ?? undefined} onChange={(d) => set({ startDate: d })} />
          </label>
        </Col>
        <Col xs={24} sm={12}>
          <label className="ess-field-label">
            {t('结束日期（可不填）')}
            <DateField value={v.endDate ?? undefined} onChange={(d) => set({ endDate: d })} />
          </label>
        </Col>
        <Col xs={24} sm={12}>
          <label className="ess-field-label">
            {t('开始时间（站点时间）')}
            <Input value={v.time ?? ''} placeholder="08:00" maxLength={5} onChange={(e) => set({ time: e.target.value })} />
          </label>
        </Col>
        <Col xs={24} sm={12}>
          <label className="ess-field-label">
            {t('完成时限（小时）')}
            <InputNumber min={1} max={744} value={v.dueHours ?? null} onChange={(h) => set({ dueHours: h })} style={{ width: '100%' }} />
          </label>
        </Col>
      </Row>
    </Space>
  );
}
