import { currencyAdd, currencyEdit, i18nEndpoints, type CurrencyRecord } from '@ess/contract/i18n';
import { defineResource } from '../../components/crud/index.ts';
import { formatNumber } from '../../components/number-format.ts';
import { globalizationKeys } from './globalization.keys.ts';
import { ENABLED_OPTIONS } from './globalization.options.ts';

export type CurrencyForm = Pick<CurrencyRecord, 'code' | 'symbol' | 'name' | 'minorUnits' | 'enabled'>;

/** /globalization/currency: the currencies stations are run in (ISO 4217), with the decimals money is shown to. */
export const currencyResource = defineResource<CurrencyRecord, CurrencyForm>({
  key: globalizationKeys.currencies,
  name: '币种',
  endpoints: { page: i18nEndpoints.currencyPage, add: i18nEndpoints.currencyAdd, edit: i18nEndpoints.currencyEdit },
  columns: [
    { key: 'code', title: '币种代码', type: 'code', width: 100 },
    { key: 'symbol', title: '货币符号', width: 90 },
    { key: 'name', title: '币种名称', width: 160, builtIn: true },
    { key: 'minorUnits', title: '小数位数', type: 'number', width: 90 },
    { key: 'sample', title: '金额示例', width: 150, inDetail: false, render: (r) => `${formatNumber(1234.5, { decimals: r.minorUnits })} ${r.code}` },
    { key: 'stations', title: '使用站点', type: 'number', width: 90 },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 80 },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'keyword', title: '关键字' },
    { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
  ],
  form: {
    fields: [
      { name: 'code', label: '币种代码', required: true, placeholder: 'EUR', maxLength: 3, help: 'ISO 4217 的三位大写字母代码' },
      { name: 'symbol', label: '货币符号', required: true, placeholder: '€' },
      { name: 'name', label: '币种名称', required: true },
      { name: 'minorUnits', label: '小数位数', type: 'number', required: true, help: '金额显示到的小数位（日元 0，欧元 2）' },
      { name: 'enabled', label: '启用', type: 'switch' },
    ],
    schemas: { add: currencyAdd, edit: currencyEdit },
    initialValues: { minorUnits: 2, enabled: true },
  },
  detail: false,
  pageSize: 20,
});
