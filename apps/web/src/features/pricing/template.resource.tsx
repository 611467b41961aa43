import {
  priceTemplateAdd, priceTemplateEdit, priceTemplateEndpoints, type BillingSystem, type ElectricityType, type PriceTemplateDetail, type PriceTemplateRecord,
} from '@ess/contract/pricing';
import { bodyOfFields, defineResource } from '../../components/crud/index.ts';
import { currencySource } from '../../components/options/sites.ts';
import { RegionName, RegionPicker } from '../../components/RegionPicker.tsx';
import { companyTreeSource } from '../../components/options/companies.ts';
import { BILLING_SYSTEM_OPTIONS, ELECTRICITY_TYPE_OPTIONS } from './pricing.options.ts';

export interface TemplateForm {
  companyId?: number;
  name: string;
  type: ElectricityType;
  billingSystem: BillingSystem;
  voltageLevel: string;
  currency: string;
  regionCode?: string | null;
  remark?: string | null;
}

const FORM_KEYS = ['companyId', 'name', 'type', 'billingSystem', 'voltageLevel', 'currency', 'regionCode', 'remark'] as const satisfies readonly (keyof TemplateForm)[];

/** The request body of the form: every field, empty ones as null. */
export const templateBody = bodyOfFields<TemplateForm>(FORM_KEYS);

/** Price templates (product-spec §3): name, category, billing system, voltage level, company, currency; cycles on the detail page. */
export const priceTemplateResource = defineResource<PriceTemplateRecord, TemplateForm, PriceTemplateDetail>({
  key: ['operation', 'price', 'template'],
  name: '电价模板',
  endpoints: {
    page: priceTemplateEndpoints.page,
    one: priceTemplateEndpoints.one,
    add: priceTemplateEndpoints.add,
    edit: priceTemplateEndpoints.edit,
    delete: priceTemplateEndpoints.delete,
  },
  columns: [
    { key: 'name', title: '模板名称', width: 220 },
    { key: 'companyName', title: '所属公司' },
    { key: 'type', title: '用电类别', type: 'enum', options: ELECTRICITY_TYPE_OPTIONS },
    { key: 'billingSystem', title: '计费制度', type: 'enum', options: BILLING_SYSTEM_OPTIONS },
    { key: 'voltageLevel', title: '电压等级' },
    { key: 'currency', title: '币种', width: 80 },
    { key: 'regionCode', title: '所在地区', render: (row) => <RegionName code={row.regionCode} />, inTable: false },
    { key: 'cycleCount', title: '周期数', type: 'number', width: 90 },
    { key: 'siteCount', title: '使用站点数', type: 'number', width: 110 },
    { key: 'remark', title: '备注', type: 'longText', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', inTable: false },
  ],
  filters: [
    { key: 'keyword', title: '模板名称' },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
    { key: 'type', title: '用电类别', type: 'enum', options: ELECTRICITY_TYPE_OPTIONS },
    { key: 'billingSystem', title: '计费制度', type: 'enum', options: BILLING_SYSTEM_OPTIONS },
    { key: 'currency', title: '币种', type: 'select', source: currencySource },
  ],
  form: {
    width: 640,
    columns: 2,
    fields: [
      { name: 'companyId', label: '所属公司', type: 'treeSelect', source: companyTreeSource, required: true, wide: true, help: '该公司及其下级公司的站点可使用此模板' },
      { name: 'name', label: '模板名称', required: true, maxLength: 64 },
      { name: 'type', label: '用电类别', type: 'select', options: ELECTRICITY_TYPE_OPTIONS, required: true },
      { name: 'billingSystem', label: '计费制度', type: 'radio', options: BILLING_SYSTEM_OPTIONS, required: true, help: '两部制在电度电价外按月收取需量电价或容量电价' },
      { name: 'voltageLevel', label: '电压等级', required: true, maxLength: 32, placeholder: '如 10kV、1-10kV' },
      { name: 'currency', label: '币种', type: 'select', source: currencySource, required: true, help: '与使用该模板的站点币种一致' },
      { name: 'regionCode', label: '所在地区', type: 'custom', render: (p) => <RegionPicker id={p.id} value={p.value} onChange={p.onChange} /> },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200, wide: true },
    ],
    schemas: { add: priceTemplateAdd, edit: priceTemplateEdit },
    initialValues: { type: 'generalCommercial', billingSystem: 'singlePart', currency: 'CNY' },
    toValues: (r) => ({ companyId: r.companyId, name: r.name, type: r.type, billingSystem: r.billingSystem, voltageLevel: r.voltageLevel, currency: r.currency, regionCode: r.regionCode, remark: r.remark }),
    toBody: templateBody,
  },
  // The detail is its own page (cycles and their bands), linked from each row.
  detail: false,
  actionsWidth: 220,
  canDelete: (row) => row.siteCount === 0,
});
