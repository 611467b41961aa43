import { hookEndpoints, hookParamAdd, hookParamEdit, type HookParamKind, type HookParamRecord } from '@ess/contract/hooks';
import { defineResource, type FormMode } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { hookKeys } from './hooks.keys.ts';
import { PARAM_KIND_OPTIONS } from './hooks.options.ts';

export interface ParamForm {
  companyId: number;
  name: string;
  kind: HookParamKind;
  /** A constant's value; a secret's new value (empty on edit: the stored one stays). */
  value?: string;
  secretValue?: string;
  remark?: string | null;
}

/** A secret is written, never read back: the form starts empty and an empty value keeps the stored one. */
export const paramValues = (r: HookParamRecord): Partial<ParamForm> => ({
  companyId: r.companyId,
  name: r.name,
  kind: r.kind,
  value: r.kind === 'constant' ? (r.value ?? '') : undefined,
  remark: r.remark,
});

export function paramBody(v: ParamForm, mode: FormMode, id?: number): Record<string, unknown> {
  const value = v.kind === 'secret' ? v.secretValue || undefined : (v.value ?? '');
  const body = { companyId: v.companyId, name: v.name, kind: v.kind, ...(value !== undefined ? { value } : {}), remark: v.remark || null };
  return mode === 'edit' ? { id, ...body } : body;
}

const isSecret = (v: Partial<ParamForm>) => v.kind === 'secret';

/** The company's constants and secrets a hook's script reads as `params.<name>`. */
export const paramResource = defineResource<HookParamRecord, ParamForm>({
  key: hookKeys.params,
  name: '参数',
  endpoints: {
    list: hookEndpoints.relateParamList,
    one: hookEndpoints.relateParamOne,
    add: hookEndpoints.relateParamAdd,
    edit: hookEndpoints.relateParamEdit,
    delete: hookEndpoints.relateParamDelete,
  },
  columns: [
    { key: 'name', title: '参数名', type: 'code', width: 150 },
    { key: 'kind', title: '参数类型', type: 'enum', options: PARAM_KIND_OPTIONS, width: 100 },
    {
      key: 'value', title: '参数值', width: 220, ellipsis: true,
      render: (r, t) => (r.kind === 'secret' ? <ToneTag tone={r.valueSet ? 'success' : 'default'}>{t(r.valueSet ? '已设置' : '未设置')}</ToneTag> : <code>{r.value}</code>),
    },
    { key: 'usedBy', title: '使用的钩子数', width: 120 },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '参数名' },
    { key: 'kind', title: '参数类型', type: 'enum', options: PARAM_KIND_OPTIONS },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ],
  form: {
    fields: [
      { name: 'companyId', label: '所属公司', type: 'treeSelect', source: companyTreeSource, required: true },
      { name: 'name', label: '参数名', required: true, maxLength: 64, help: '脚本中以 params.参数名 引用；字母开头，只含字母、数字和下划线' },
      { name: 'kind', label: '参数类型', type: 'radio', options: PARAM_KIND_OPTIONS, required: true, lockedOnEdit: true },
      { name: 'value', label: '参数值', type: 'textarea', maxLength: 4096, required: true, visible: (v) => !isSecret(v) },
      {
        name: 'secretValue', label: '密钥值', type: 'password', maxLength: 4096, visible: isSecret, required: (mode) => mode === 'add',
        help: (mode) => (mode === 'edit' ? '留空则保持原值不变；密钥加密保存，不会再显示' : '密钥加密保存，保存后不会再显示'),
      },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200 },
    ],
    schemas: { add: hookParamAdd, edit: hookParamEdit },
    initialValues: { kind: 'constant' },
    toValues: paramValues,
    toBody: paramBody,
  },
  detail: false,
  actionsWidth: 160,
});
