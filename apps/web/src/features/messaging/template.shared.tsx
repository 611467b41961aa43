import { MESSAGE_VARIABLE_LABELS } from '@ess/contract/messaging';
import { Space, Tag } from 'antd';
import type { ColumnDef, FieldDef, FilterDef } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { LOCALE_NAMES } from '../../platform/i18n/locales.ts';
import { companyAndName } from '../../components/CompanyField.tsx';
import { ENABLED_OPTIONS, LANGUAGE_OPTIONS } from './messaging.options.ts';

interface TemplateRow {
  id: number;
  companyId: number;
  name: string;
  code: string;
  language: string;
  variables: string[];
  enabled: boolean;
  remark: string | null;
}

/** The columns mail and SMS templates share, with the text column of the kind. */
export function templateColumns<R extends TemplateRow>(text: { key: string; title: string }): ColumnDef<R>[] {
  return [
    { key: 'name', title: '模板名称', width: 160, ellipsis: true },
    { key: 'code', title: '模板编码', type: 'code', width: 170 },
    { key: 'language', title: '语言', width: 110, render: (r) => LOCALE_NAMES[r.language as keyof typeof LOCALE_NAMES] ?? r.language },
    { key: text.key, title: text.title, width: 260, ellipsis: true, detailSpan: 2 },
    {
      key: 'variables', title: '使用的变量', width: 220, detailSpan: 2,
      render: (r, t) =>
        r.variables.length ? (
          <Space size={[2, 2]} wrap>
            {r.variables.map((v) => (
              <Tag key={v} title={v in MESSAGE_VARIABLE_LABELS ? t(MESSAGE_VARIABLE_LABELS[v as keyof typeof MESSAGE_VARIABLE_LABELS]) : undefined}>
                {v}
              </Tag>
            ))}
          </Space>
        ) : (
          '-'
        ),
    },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 90 },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ];
}

export const templateFilters: FilterDef[] = [
  { key: 'name', title: '模板名称' },
  { key: 'code', title: '模板编码' },
  { key: 'language', title: '语言', type: 'enum', options: LANGUAGE_OPTIONS },
  { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
];

/** The form values both kinds share. */
export const templateValues = (r: TemplateRow & { companyId: number }) => ({
  companyId: r.companyId, name: r.name, code: r.code, language: r.language, enabled: r.enabled, remark: r.remark,
});

/** The first fields of both kinds' forms: company, name, code (rules pick by it) and language. */
export const templateHeadFields = <F,>(): FieldDef<F>[] => [
  ...companyAndName<F>('模板名称'),
  { name: 'code' as Extract<keyof F, string>, label: '模板编码', required: true, maxLength: 64, help: '消息规则按编码选用模板，不同语言的模板共用一个编码' },
  { name: 'language' as Extract<keyof F, string>, label: '语言', type: 'select', options: LANGUAGE_OPTIONS, required: true },
];
