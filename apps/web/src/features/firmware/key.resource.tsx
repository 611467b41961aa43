import { firmwareKeyAdd, firmwareKeyEdit, firmwareKeyEndpoints, type FirmwareKeyRecord } from '@ess/contract/firmware';
import { Typography } from 'antd';
import { defineResource } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { ENABLED_OPTIONS, KEY_ALGORITHM_OPTIONS } from './firmware.options.ts';

export interface KeyForm {
  companyId: number;
  name: string;
  publicKeyPem: string;
  enabled: boolean;
  remark?: string | null;
}

/** The public keys that verify packages' detached signatures (Ed25519 or ECDSA P-256, PEM). */
export const keyResource = defineResource<FirmwareKeyRecord, KeyForm>({
  key: firmwareKeys.keys,
  name: '签名公钥',
  endpoints: { page: firmwareKeyEndpoints.page, one: firmwareKeyEndpoints.one, add: firmwareKeyEndpoints.add, edit: firmwareKeyEndpoints.edit, delete: firmwareKeyEndpoints.delete },
  columns: [
    { key: 'name', title: '公钥名称', width: 160, ellipsis: true },
    { key: 'algorithm', title: '算法', type: 'enum', options: KEY_ALGORITHM_OPTIONS, width: 170 },
    { key: 'fingerprint', title: '指纹（SHA-256）', width: 220, render: (r) => <Typography.Text code copyable={{ text: r.fingerprint }}>{r.fingerprint.slice(0, 16)}…</Typography.Text> },
    { key: 'enabled', title: '状态', type: 'boolean', options: ENABLED_OPTIONS, width: 90 },
    { key: 'packageCount', title: '已验证的升级包', width: 130 },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'publicKeyPem', title: '公钥（PEM）', type: 'longText', inTable: false, detailSpan: 2 },
    { key: 'remark', title: '备注', inTable: false },
    { key: 'createdAt', title: '创建时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '公钥名称' },
    { key: 'algorithm', title: '算法', type: 'enum', options: KEY_ALGORITHM_OPTIONS },
    { key: 'enabled', title: '状态', type: 'enum', options: ENABLED_OPTIONS },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ],
  form: {
    width: 640,
    fields: [
      { name: 'companyId', label: '所属公司', type: 'treeSelect', source: companyTreeSource, required: true },
      { name: 'name', label: '公钥名称', required: true, maxLength: 64 },
      {
        name: 'publicKeyPem', label: '公钥（PEM）', type: 'textarea', required: true, modes: ['add'],
        placeholder: '-----BEGIN PUBLIC KEY-----', help: 'Ed25519 或 ECDSA P-256 公钥（SPKI PEM）；保存后不能修改，可停用后另加',
      },
      { name: 'enabled', label: '启用', type: 'switch' },
      { name: 'remark', label: '备注', type: 'textarea', maxLength: 200 },
    ],
    schemas: { add: firmwareKeyAdd, edit: firmwareKeyEdit },
    initialValues: { enabled: true },
    toValues: (r) => ({ companyId: r.companyId, name: r.name, publicKeyPem: r.publicKeyPem, enabled: r.enabled, remark: r.remark }),
    toBody: (v, mode, id) => ({
      ...(mode === 'edit' ? { id } : { publicKeyPem: v.publicKeyPem }),
      companyId: v.companyId,
      name: v.name,
      enabled: v.enabled,
      remark: v.remark || null,
    }),
  },
  actionsWidth: 200,
  pageSize: 20,
});
