import { statementEndpoints, type StatementRecord } from '@ess/contract/statement';
import dayjs from 'dayjs';
import { Tag } from 'antd';
import { Link } from 'react-router';
import { defineResource } from '../../components/crud/index.ts';
import { siteSource } from '../../components/options/sites.ts';
import { meteringKeys } from './metering.keys.ts';
import { QUALITY_COLOURS, solidTag } from './quality.tsx';
import { statementLink, STATEMENT_STATE_OPTIONS } from './statement.model.ts';

const money = (v: string, r: Pick<StatementRecord, 'currency'>) => `${v} ${r.currency}`;
const month = (x: unknown) => (x ? dayjs(x as string).format('YYYY-MM') : undefined);

/** /operation/statement: the monthly statements of the stations in scope. */
export const statementResource = defineResource<StatementRecord>({
  key: meteringKeys.statements,
  name: '结算单',
  endpoints: { page: statementEndpoints.page },
  columns: [
    { key: 'code', title: '结算单号', width: 170, render: (r) => <Link to={statementLink(r.id)} data-testid="statement-link">{r.code}</Link> },
    { key: 'month', title: '结算月份', width: 100 },
    { key: 'siteName', title: '站点', width: 150, ellipsis: true },
    { key: 'state', title: '状态', type: 'enum', options: STATEMENT_STATE_OPTIONS, width: 130 },
    { key: 'periodStart', title: '结算周期', width: 200, render: (r) => `${r.periodStart} ~ ${r.periodEnd}` },
    { key: 'totalRevenue', title: '总收益', width: 140, render: (r) => money(r.totalRevenue, r) },
    { key: 'investorAmount', title: '投资方分成', width: 140, render: (r) => money(r.investorAmount, r) },
    { key: 'powerUserAmount', title: '电力用户分成', width: 140, render: (r) => money(r.powerUserAmount, r) },
    { key: 'investorShareRatio', title: '投资方分成比例', width: 120, render: (r) => `${r.investorShareRatio}%` },
    {
      key: 'flaggedLines', title: '数据质量', width: 130,
      render: (r, t) => (r.flaggedLines > 0 ? <Tag {...solidTag(QUALITY_COLOURS.estimated)}>{t('$1行非实测', r.flaggedLines)}</Tag> : <Tag {...solidTag(QUALITY_COLOURS.measured)}>{t('实测')}</Tag>),
    },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'state', title: '状态', type: 'enum', options: STATEMENT_STATE_OPTIONS },
    {
      key: 'months', title: '结算月份', type: 'dateRange',
      toBody: (v) => {
        const [a, b] = Array.isArray(v) ? (v as unknown[]) : [];
        const from = month(a);
        const to = month(b);
        return { ...(from ? { monthFrom: from } : {}), ...(to ? { monthTo: to } : {}) };
      },
    },
  ],
  detail: false,
  actionsWidth: 300,
  pageSize: 20,
});
