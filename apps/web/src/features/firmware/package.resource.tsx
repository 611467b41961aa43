import { firmwarePackageEdit, firmwarePackageEndpoints, type FirmwarePackageRecord } from '@ess/contract/firmware';
import { Typography } from 'antd';
import { defineResource } from '../../components/crud/index.ts';
import { productSource } from '../../components/options/products.ts';
import { typeLabel } from '../../components/device-types.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { DEVICE_TYPE_OPTIONS, formatBytes, PACKAGE_STATE_OPTIONS, SIGNED_OPTIONS } from './firmware.options.ts';
import { PackageStateTag, SignedTag } from './parts.tsx';

export interface PackageEditForm {
  upgradeFrom?: string | null;
  releaseNotes?: string | null;
}

/** /firmware/firmware: the upgrade packages (added by the chunked upload; release notes and the versions it upgrades from edited here). */
export const packageResource = defineResource<FirmwarePackageRecord, PackageEditForm>({
  key: firmwareKeys.packages,
  name: '升级包',
  endpoints: { page: firmwarePackageEndpoints.page, one: firmwarePackageEndpoints.one, edit: firmwarePackageEndpoints.edit },
  columns: [
    { key: 'name', title: '固件名称', width: 150, ellipsis: true },
    { key: 'version', title: '版本', width: 110, render: (r) => <code>{r.version}</code> },
    { key: 'deviceType', title: '设备类型', width: 100, render: (r, t) => t(typeLabel(r.deviceType)) },
    { key: 'productName', title: '产品', width: 140, ellipsis: true, render: (r, t) => r.productName ?? t('该类型全部产品') },
    { key: 'upgradeFrom', title: '可升级的起始版本', width: 160, ellipsis: true, render: (r, t) => (r.upgradeFrom ? <code>{r.upgradeFrom}</code> : t('任意版本')) },
    { key: 'size', title: '文件大小', width: 100, render: (r) => formatBytes(r.size) },
    { key: 'signed', title: '签名', width: 100, render: (r) => <SignedTag signed={r.signed} keyName={r.keyName} /> },
    { key: 'sha256', title: 'SHA-256', width: 130, render: (r) => <Typography.Text code title={r.sha256}>{r.sha256.slice(0, 12)}…</Typography.Text> },
    { key: 'state', title: '状态', width: 90, render: (r) => <PackageStateTag state={r.state} /> },
    { key: 'rollouts', title: '升级任务（执行中/全部）', width: 170, render: (r) => `${r.activeRolloutCount} / ${r.rolloutCount}` },
    { key: 'deviceCount', title: '运行该版本的设备', width: 140 },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'createdAt', title: '上传时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'deviceType', title: '设备类型', type: 'enum', options: DEVICE_TYPE_OPTIONS },
    { key: 'productId', title: '产品', type: 'select', source: productSource },
    { key: 'name', title: '固件名称' },
    { key: 'version', title: '版本' },
    { key: 'signed', title: '签名', type: 'enum', options: SIGNED_OPTIONS },
    { key: 'state', title: '状态', type: 'enum', options: PACKAGE_STATE_OPTIONS },
  ],
  form: {
    container: 'drawer',
    width: 640,
    fields: [
      { name: 'upgradeFrom', label: '可升级的起始版本', placeholder: '>=1.2.0 <2.0.0', help: '语义化版本范围；留空表示任意版本均可升级' },
      { name: 'releaseNotes', label: '发布说明', type: 'textarea', maxLength: 10_000, wide: true },
    ],
    schemas: { edit: firmwarePackageEdit },
    toValues: (r) => ({ upgradeFrom: r.upgradeFrom, releaseNotes: r.releaseNotes }),
    toBody: (v, _mode, id) => ({ id, upgradeFrom: v.upgradeFrom || null, releaseNotes: v.releaseNotes || null }),
  },
  detail: false,
  actionsWidth: 330,
  pageSize: 20,
});
