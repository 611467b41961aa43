import { i18nEndpoints, languageAdd, languageEdit, type LanguageRecord } from '@ess/contract/i18n';
import { defineResource } from '../../components/crud/index.ts';
import { globalizationKeys } from './globalization.keys.ts';
import { DIRECTION_OPTIONS, ENABLED_OPTIONS } from './globalization.options.ts';
import { CompletionCell } from './parts.tsx';

export type LanguageForm = Pick<LanguageRecord, 'code' | 'name' | 'nativeName' | 'direction' | 'uiLocale' | 'dateFormat' | 'numberLocale' | 'enabled' | 'sort'>;

/** /globalization/language: the console's languages with their formats and how complete their translations are. */
export const languageResource = defineResource<LanguageRecord, LanguageForm>({
  key: globalizationKeys.languages,
  name: '语言',
  endpoints: { page: i18nEndpoints.languagePage, add: i18nEndpoints.languageAdd, edit: i18nEndpoints.languageEdit },
  // Widths that fit the list beside the menu at 1440 px (the table area is about 1110 px); the UI component
  // language, nearly always the code written with an underscore, is in the form only.
  columns: [
    { key: 'name', title: '语言', width: 130, render: (r) => <span lang={r.code}>{r.nativeName}</span> },
    { key: 'code', title: '语言编码', type: 'code', width: 90 },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 80 },
    { key: 'uiLocale', title: 'UI 组件语言', type: 'code', width: 110, inTable: false },
    { key: 'direction', title: '文字方向', type: 'enum', options: DIRECTION_OPTIONS, width: 110 },
    { key: 'numberLocale', title: '数字格式', type: 'code', width: 96 },
    { key: 'dateFormat', title: '日期格式', type: 'code', width: 116 },
    { key: 'text', title: '界面文本完成度', width: 180, render: (r) => <CompletionCell counts={r.text} testId={`completion-text-${r.code}`} /> },
    { key: 'data', title: '业务数据完成度', width: 180, render: (r) => <CompletionCell counts={r.data} testId={`completion-data-${r.code}`} /> },
  ],
  filters: [
    { key: 'keyword', title: '关键字' },
    { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
  ],
  form: {
    columns: 2,
    fields: [
      { name: 'code', label: '语言编码', required: true, lockedOnEdit: true, placeholder: 'en-US' },
      { name: 'name', label: '语言名称', required: true },
      { name: 'nativeName', label: '本地名称', required: true },
      { name: 'direction', label: '文字方向', type: 'radio', options: DIRECTION_OPTIONS, required: true },
      { name: 'uiLocale', label: 'UI 组件语言', placeholder: 'en_US' },
      { name: 'numberLocale', label: '数字格式', placeholder: 'en-US', help: '数字和日期按此区域书写，留空则同语言编码' },
      { name: 'dateFormat', label: '日期格式', required: true, placeholder: 'YYYY-MM-DD' },
      { name: 'sort', label: '排序', type: 'number', required: true },
      { name: 'enabled', label: '启用', type: 'switch' },
    ],
    schemas: { add: languageAdd, edit: languageEdit },
    initialValues: { direction: 'ltr', dateFormat: 'YYYY-MM-DD', enabled: true, sort: 100 },
    toBody: (v, mode, id) => {
      const body = { name: v.name, nativeName: v.nativeName, direction: v.direction, uiLocale: v.uiLocale || null, dateFormat: v.dateFormat, numberLocale: v.numberLocale || null, enabled: v.enabled, sort: v.sort };
      return mode === 'edit' ? { id, ...body } : { code: v.code, ...body };
    },
  },
  canEdit: (r) => !r.isSource,
  detail: false,
  actionsWidth: 120,
  pageSize: 20,
});
