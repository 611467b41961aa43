import { CALLBACK_CODES, callbackEndpoints, paramEndpoints, type CallbackExecRecord, type ParamRecord } from '@ess/contract/site';
import { productEndpoints } from '@ess/contract/product';
import { Typography } from 'antd';
import { defineResource, type OptionSource } from '../../components/crud/index.ts';
import { call } from '../../platform/request.ts';
import { siteSource } from '../../components/options/sites.ts';
import { siteKeys } from './site.keys.ts';

/** Source-text names of the registered callbacks (the server's registry names them the same). */
export const CALLBACK_NAMES: Record<(typeof CALLBACK_CODES)[number], string> = {
  'site.deviceStatus': '站点设备状态汇总',
  'site.diagramCheck': '配电图绑定校验',
  'site.energyCheck': '储能关键值核对',
};

const productSource: OptionSource = {
  queryKey: siteKeys.productOptions(),
  load: async () => (await call(productEndpoints.list, {}, { loading: false })).map((p) => ({ value: p.id, label: `${p.name} (${p.code})` })),
};

export type ParamRow = ParamRecord;

const range = (p: ParamRecord, t: (s: string) => string) => {
  if (p.enumValues?.length) return p.enumValues.map((e) => `${e.value}=${t(e.label)}`).join(', ');
  if (p.dataType === 'bool') return '0/1';
  if (p.min === null && p.max === null) return '-';
  return `${p.min ?? '-∞'} ~ ${p.max ?? '+∞'}`;
};

/** Parameters: the settable properties of every product (read-only list). */
export const paramResource = defineResource<ParamRow, Record<string, never>>({
  key: ['configure', 'param'],
  name: '参数',
  endpoints: { list: paramEndpoints.list },
  columns: [
    { key: 'productName', title: '产品', builtIn: true },
    { key: 'productType', title: '设备类型', type: 'code', width: 100 },
    { key: 'identifier', title: '标识符', type: 'code' },
    { key: 'name', title: '参数名称', builtIn: true },
    { key: 'dataType', title: '数据类型', type: 'code', width: 100 },
    { key: 'unit', title: '单位', width: 80 },
    { key: 'range', title: '取值范围', render: (row, t) => <Typography.Text>{range(row, t)}</Typography.Text> },
  ],
  filters: [
    { key: 'productId', title: '产品', type: 'select', source: productSource },
    { key: 'keyword', title: '标识符/名称' },
  ],
  detail: false,
});

export type CallbackExecRow = CallbackExecRecord;

/** Execution records of the callbacks, newest first. */
export const callbackExecResource = defineResource<CallbackExecRow, Record<string, never>>({
  key: ['configure', 'callback', 'exec'],
  name: '执行记录',
  endpoints: { page: callbackEndpoints.page },
  detail: true,
  columns: [
    { key: 'createdAt', title: '执行时间', type: 'datetime' },
    { key: 'code', title: '回调', render: (row, t) => t(CALLBACK_NAMES[row.code] ?? row.code) },
    { key: 'siteName', title: '站点' },
    { key: 'username', title: '执行人' },
    {
      key: 'success', title: '结果', type: 'enum',
      options: [{ value: true, label: '成功', color: 'success' }, { value: false, label: '失败', color: 'error' }],
    },
    { key: 'durationMs', title: '耗时(ms)', type: 'number', width: 100 },
    { key: 'error', title: '失败原因', ellipsis: true, render: (row, t) => (row.error ? t(row.error) : '-') },
    { key: 'result', title: '执行结果', inTable: false, detailSpan: 2, render: (row) => <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(row.result, null, 2)}</pre> },
  ],
  filters: [
    { key: 'code', title: '回调', type: 'enum', options: CALLBACK_CODES.map((c) => ({ value: c, label: CALLBACK_NAMES[c] })) },
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'success', title: '结果', type: 'enum', options: [{ value: true, label: '成功' }, { value: false, label: '失败' }] },
  ],
});
