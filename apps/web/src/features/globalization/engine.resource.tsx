import { engineAdd, engineEdit, i18nEndpoints, type EngineKind, type EngineRecord, type engineOptional } from '@ess/contract/i18n';
import type { z } from 'zod';
import { defineResource, type FormMode } from '../../components/crud/index.ts';
import { globalizationKeys } from './globalization.keys.ts';
import { ENABLED_OPTIONS, ENGINE_KIND_OPTIONS } from './globalization.options.ts';

export type EngineOptional = z.infer<typeof engineOptional>;

export interface EngineForm {
  name: string;
  kind: EngineKind;
  endpoint?: string | null;
  appId?: string | null;
  /** Write-only: empty on edit keeps the stored key. */
  apiKey?: string | null;
  enabled: boolean;
  batchSize: number;
  remark?: string | null;
}

export const KEY_SET_OPTIONS = [
  { value: true, label: '已设置', color: 'success' as const },
  { value: false, label: '未设置', color: 'default' as const },
];

/**
 * The engine form's body: a key typed is sent; an empty one is left out (on edit the stored key
 * stays; the server never sends it back), an app id only for the kinds that need one.
 */
export function engineBody(optionals: readonly EngineOptional[]) {
  return (v: EngineForm, mode: FormMode, id?: number): Record<string, unknown> => {
    const kind = optionals.find((o) => o.kind === v.kind);
    const body: Record<string, unknown> = {
      name: v.name, kind: v.kind, endpoint: v.endpoint || null, appId: kind?.needsAppId ? v.appId || null : null,
      enabled: v.enabled, batchSize: v.batchSize, remark: v.remark || null,
      ...(v.apiKey ? { apiKey: v.apiKey } : {}),
    };
    return mode === 'edit' ? { id, ...body } : body;
  };
}

/** /globalization/engine: the translation engines (DeepL, Google, Baidu, LibreTranslate); the form's fields follow the kind's optionals. */
export function engineResource(optionals: readonly EngineOptional[]) {
  const of = (kind: unknown) => optionals.find((o) => o.kind === kind);
  return defineResource<EngineRecord, EngineForm>({
    key: globalizationKeys.engines,
    name: '翻译引擎',
    endpoints: { page: i18nEndpoints.enginePage, one: i18nEndpoints.engineOne, add: i18nEndpoints.engineAdd, edit: i18nEndpoints.engineEdit, delete: i18nEndpoints.engineDelete },
    columns: [
      { key: 'name', title: '引擎名称', width: 160 },
      { key: 'kind', title: '引擎类型', type: 'enum', options: ENGINE_KIND_OPTIONS, width: 170 },
      { key: 'endpoint', title: '接口地址', width: 220, ellipsis: true, render: (r, t) => r.endpoint ?? `${t('默认')}: ${of(r.kind)?.defaultEndpoint ?? '-'}` },
      { key: 'appId', title: 'APP ID', type: 'code', width: 110 },
      { key: 'keySet', title: '密钥', type: 'boolean', options: KEY_SET_OPTIONS, width: 90 },
      { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 80 },
      { key: 'batchSize', title: '每批条数', type: 'number', width: 90 },
      { key: 'lastCheckOk', title: '最近测试', width: 170, render: (r, t) => (r.lastCheckedAt ? `${t(r.lastCheckOk ? '连接成功' : '连接失败')}` : '-') },
      { key: 'remark', title: '备注', width: 160, ellipsis: true },
    ],
    filters: [
      { key: 'keyword', title: '关键字' },
      { key: 'kind', title: '引擎类型', type: 'enum', options: ENGINE_KIND_OPTIONS },
      { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
    ],
    form: {
      fields: [
        { name: 'name', label: '引擎名称', required: true },
        { name: 'kind', label: '引擎类型', type: 'select', options: ENGINE_KIND_OPTIONS, required: true },
        { name: 'endpoint', label: '接口地址', help: '留空则使用该服务公布的地址', placeholder: 'https://' },
        { name: 'appId', label: 'APP ID', required: true, visible: (v) => Boolean(of(v.kind)?.needsAppId) },
        {
          name: 'apiKey', label: '密钥', type: 'password',
          help: (mode) => (mode === 'edit' ? '留空则保留已存储的密钥；密钥加密存储，从不返回' : '密钥加密存储，从不返回'),
        },
        { name: 'batchSize', label: '每批条数', type: 'number', required: true },
        { name: 'enabled', label: '启用', type: 'switch' },
        { name: 'remark', label: '备注', type: 'textarea' },
      ],
      schemas: { add: engineAdd, edit: engineEdit },
      initialValues: { kind: 'libre', enabled: true, batchSize: 20 },
      toValues: (r) => ({ name: r.name, kind: r.kind, endpoint: r.endpoint, appId: r.appId, enabled: r.enabled, batchSize: r.batchSize, remark: r.remark }),
      toBody: engineBody(optionals),
    },
    detail: false,
    actionsWidth: 300,
    pageSize: 20,
  });
}
