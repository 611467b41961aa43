import { PRICE_PERIODS } from '@ess/contract/constants';
import {
  PRICE_FIELD, PRICE_PERIOD_LABELS, sitePriceCycleAdd, sitePriceCycleEdit, sitePriceEndpoints, solarPriceCycleAdd, solarPriceCycleEdit, solarPriceEndpoints,
  type PricePeriod, type PriceTemplateWithCycles, type SitePriceCycleRecord, type SolarPriceCycleRecord,
} from '@ess/contract/pricing';
import { todayIn } from '@ess/contract/site';
import { InputNumber, Space, Tag } from 'antd';
import { Link } from 'react-router';
import { StatusBadge, defineResource, type EnumOption } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import type { SiteRef } from '../../components/options/sites.ts';
import { DateField } from '../../components/DateField.tsx';
import { DayBar } from './DayBar.tsx';
import { BILLING_SYSTEM_OPTIONS, formatPrice, perKwh, priceOf, templateSourceFor } from './pricing.options.ts';

/** A station's price configuration over time (/operatecfg/rate), as resources bound to one station. */

interface Dated {
  startDate: string;
  endDate: string | null;
}

/** In force, not yet, or over — on the station's own calendar. */
export const DATE_STATE_OPTIONS: EnumOption[] = [
  { value: 'active', label: '生效中', color: 'success' },
  { value: 'upcoming', label: '未生效', color: 'processing' },
  { value: 'ended', label: '已结束', color: 'default' },
];
export function dateState(r: Dated, today: string): 'active' | 'upcoming' | 'ended' {
  if (r.startDate > today) return 'upcoming';
  if (r.endDate !== null && r.endDate < today) return 'ended';
  return 'active';
}

const nullIfEmpty = (v: unknown) => (v === undefined || v === '' ? null : v);

/** A price input with its unit. */
function PriceInput({ id, value, onChange, unit }: { id?: string; value?: unknown; onChange?: (v: unknown) => void; unit: string }) {
  return (
    <InputNumber
      id={id}
      style={{ width: '100%' }}
      min={0}
      value={typeof value === 'number' ? value : null}
      addonAfter={unit}
      onChange={(v) => onChange?.(priceOf(v))}
    />
  );
}

/** Feed-in prices per period type where they differ from the base price (empty: the base price). */
function PeriodPricesField({ id, value, onChange, currency }: { id?: string; value?: unknown; onChange?: (v: unknown) => void; currency: string }) {
  const t = useT();
  const cur = (value && typeof value === 'object' ? value : {}) as Partial<Record<PricePeriod, number>>;
  return (
    <Space wrap id={id}>
      {PRICE_PERIODS.map((p) => (
        <InputNumber
          key={p}
          aria-label={t('$1时段上网电价', t(PRICE_PERIOD_LABELS[p]))}
          style={{ width: 150 }}
          min={0}
          addonBefore={t(PRICE_PERIOD_LABELS[p])}
          placeholder={t('同基准')}
          value={cur[p] ?? null}
          onChange={(v) => {
            const next = { ...cur };
            const price = priceOf(v);
            if (price !== null) next[p] = price;
            else delete next[p];
            onChange?.(next);
          }}
        />
      ))}
      <span style={{ color: 'rgba(0,0,0,0.65)' }}>{perKwh(currency)}</span>
    </Space>
  );
}

export interface SitePriceForm {
  templateId?: number;
  startDate?: string | null;
  endDate?: string | null;
  serviceFee?: number | null;
  remark?: string | null;
}

/** The template's cycle for a station-local month, for the small day bar of a row. */
function cycleFor(template: PriceTemplateWithCycles | undefined, month: number) {
  return template?.cycles.find((c) => c.months.includes(month)) ?? null;
}

/**
 * The station's configure price cycles: which template from when to when, and the charging
 * service fee. `templateOf` looks up the templates the station may use (for the day bar).
 */
export function sitePriceResource(site: SiteRef, templateOf: (id: number) => PriceTemplateWithCycles | undefined) {
  const today = todayIn(site.timeZone);
  const month = Number(today.slice(5, 7));
  return defineResource<SitePriceCycleRecord, SitePriceForm>({
    key: ['configure', 'price', 'cycle'],
    name: '站点电价配置',
    endpoints: {
      list: sitePriceEndpoints.list,
      one: sitePriceEndpoints.one,
      add: sitePriceEndpoints.add,
      edit: sitePriceEndpoints.edit,
      delete: sitePriceEndpoints.delete,
    },
    fixedFilters: { siteId: site.id },
    columns: [
      {
        key: 'templateName', title: '选用模板', width: 220,
        render: (row) => <Link to={`/operatecfg/pricedetail?id=${row.templateId}`}>{row.templateName}</Link>,
      },
      { key: 'billingSystem', title: '计费制度', type: 'enum', options: BILLING_SYSTEM_OPTIONS },
      { key: 'startDate', title: '开始日期' },
      { key: 'endDate', title: '结束日期', render: (row, t) => row.endDate ?? t('长期') },
      { key: 'state', title: '状态', render: (row, t) => <StatusBadge options={DATE_STATE_OPTIONS} value={dateState(row, today)} t={t} /> },
      {
        key: 'today', title: '本月时段', width: 280, inDetail: false,
        render: (row, t) => {
          const c = cycleFor(templateOf(row.templateId), month);
          if (!c) return t('本月未设置电价周期');
          const prices = Object.fromEntries(PRICE_PERIODS.map((p) => [p, c[PRICE_FIELD[p]]]));
          return <DayBar bands={c.periods} prices={prices} currency={row.currency} height={16} legend={false} label={t('$1的24小时时段', c.name)} />;
        },
      },
      { key: 'serviceFee', title: '充电服务费', render: (row) => (row.serviceFee === null ? '-' : `${formatPrice(row.serviceFee)} ${perKwh(row.currency)}`) },
      { key: 'currency', title: '币种', width: 80, inTable: false },
      { key: 'remark', title: '备注', type: 'longText', inTable: false },
      { key: 'updatedAt', title: '更新时间', type: 'datetime', inTable: false },
    ],
    form: {
      width: 560,
      fields: [
        {
          name: 'templateId', label: '选用模板', type: 'select', source: templateSourceFor(site.id), required: true,
          help: '仅列出站点所属公司及其上级公司的、与站点币种相同的模板',
        },
        { name: 'startDate', label: '开始日期', type: 'custom', required: true, help: '站点当地日期', render: (p) => <DateField id={p.id} value={p.value} onChange={p.onChange} /> },
        { name: 'endDate', label: '结束日期', type: 'custom', help: '留空表示长期有效；同一站点的日期范围不能重叠', render: (p) => <DateField id={p.id} value={p.value} onChange={p.onChange} /> },
        {
          name: 'serviceFee', label: '充电服务费', type: 'custom', help: '充电桩收取的服务费，用于充电收益；无充电桩可留空',
          render: (p) => <PriceInput id={p.id} value={p.value} onChange={p.onChange} unit={perKwh(site.currency)} />,
        },
        { name: 'remark', label: '备注', type: 'textarea', maxLength: 200 },
      ],
      schemas: { add: sitePriceCycleAdd, edit: sitePriceCycleEdit },
      toValues: (r) => ({ templateId: r.templateId, startDate: r.startDate, endDate: r.endDate, serviceFee: r.serviceFee, remark: r.remark }),
      toBody: (v, mode, id) => ({
        ...(mode === 'edit' ? { id } : {}),
        siteId: site.id,
        templateId: v.templateId,
        startDate: nullIfEmpty(v.startDate),
        endDate: nullIfEmpty(v.endDate),
        serviceFee: nullIfEmpty(v.serviceFee),
        remark: nullIfEmpty(v.remark),
      }),
    },
    actionsWidth: 200,
  });
}

export interface SolarPriceForm {
  startDate?: string | null;
  endDate?: string | null;
  price?: number | null;
  periodPrices?: Partial<Record<PricePeriod, number>> | null;
  remark?: string | null;
}

/** The station's PV feed-in prices over date ranges, optionally per period type. */
export function solarPriceResource(site: SiteRef) {
  const today = todayIn(site.timeZone);
  return defineResource<SolarPriceCycleRecord, SolarPriceForm>({
    key: ['configure', 'solar', 'price', 'cycle'],
    name: '光伏上网电价',
    endpoints: {
      page: solarPriceEndpoints.page,
      one: solarPriceEndpoints.one,
      add: solarPriceEndpoints.add,
      edit: solarPriceEndpoints.edit,
      delete: solarPriceEndpoints.delete,
    },
    fixedFilters: { siteId: site.id },
    columns: [
      { key: 'startDate', title: '开始日期' },
      { key: 'endDate', title: '结束日期', render: (row, t) => row.endDate ?? t('长期') },
      { key: 'state', title: '状态', render: (row, t) => <StatusBadge options={DATE_STATE_OPTIONS} value={dateState(row, today)} t={t} /> },
      { key: 'price', title: '上网电价', render: (row) => `${formatPrice(row.price)} ${perKwh(row.currency)}` },
      {
        key: 'periodPrices', title: '分时上网电价',
        render: (row, t) => {
          const set = PRICE_PERIODS.filter((p) => row.periodPrices?.[p] !== undefined);
          return set.length ? (
            <Space size={[4, 4]} wrap>
              {set.map((p) => (
                <Tag key={p}>
                  {t(PRICE_PERIOD_LABELS[p])} {formatPrice(row.periodPrices![p])}
                </Tag>
              ))}
            </Space>
          ) : (
            t('各时段同基准')
          );
        },
      },
      { key: 'currency', title: '币种', width: 80, inTable: false },
      { key: 'remark', title: '备注', type: 'longText', inTable: false },
      { key: 'updatedAt', title: '更新时间', type: 'datetime', inTable: false },
    ],
    form: {
      width: 640,
      fields: [
        { name: 'startDate', label: '开始日期', type: 'custom', required: true, help: '站点当地日期', render: (p) => <DateField id={p.id} value={p.value} onChange={p.onChange} /> },
        { name: 'endDate', label: '结束日期', type: 'custom', help: '留空表示长期有效；同一站点的日期范围不能重叠', render: (p) => <DateField id={p.id} value={p.value} onChange={p.onChange} /> },
        {
          name: 'price', label: '上网电价', type: 'custom', required: true,
          render: (p) => <PriceInput id={p.id} value={p.value} onChange={p.onChange} unit={perKwh(site.currency)} />,
        },
        {
          name: 'periodPrices', label: '分时上网电价', type: 'custom', help: '某时段的上网电价与基准不同时填写，留空按基准电价',
          render: (p) => <PeriodPricesField id={p.id} value={p.value} onChange={p.onChange} currency={site.currency} />,
        },
        { name: 'remark', label: '备注', type: 'textarea', maxLength: 200 },
      ],
      schemas: { add: solarPriceCycleAdd, edit: solarPriceCycleEdit },
      toValues: (r) => ({ startDate: r.startDate, endDate: r.endDate, price: r.price, periodPrices: r.periodPrices, remark: r.remark }),
      toBody: (v, mode, id) => ({
        ...(mode === 'edit' ? { id } : {}),
        siteId: site.id,
        startDate: nullIfEmpty(v.startDate),
        endDate: nullIfEmpty(v.endDate),
        price: nullIfEmpty(v.price),
        periodPrices: v.periodPrices && Object.keys(v.periodPrices).length ? v.periodPrices : null,
        remark: nullIfEmpty(v.remark),
      }),
    },
    actionsWidth: 200,
  });
}
