import {
  firmwareComplianceEndpoints, firmwareDeviceEndpoints, firmwareKeyEndpoints, firmwarePackageEndpoints, firmwareSettingEndpoints,
} from '@ess/contract/firmware';
import { route } from '../../platform/http/route.ts';
import { complianceQuery } from './compliance.service.ts';
import * as keys from './key.service.ts';
import * as packages from './package.service.ts';
import * as upload from './package.upload.ts';
import { settingEdit, settingOne } from './setting.service.ts';

/**
 * The firmware calls of the package side (decision 0047): settings, public keys, packages with
 * their chunked upload, the device's download by token, and the compliance view. Rollouts, tasks
 * and log captures are served by their own routes (the rollout engine's).
 */
const area = 'Firmware';
const inScope = { global: "rows filtered to the caller's companies; names no object" };

/** A well-formed upload id the route-table probe's fixture stores for another company. */
export const probeUploadId = (id: number) => `probe${String(id).padStart(16, '0')}`;
const uploadProbe = { entity: 'firmwareUpload', input: (id: number) => ({ uploadId: probeUploadId(id) }) };
const keyBody = (companyId: number) => ({ companyId, name: 'probe', publicKeyPem: '-----BEGIN PUBLIC KEY-----\nprobe\n-----END PUBLIC KEY-----' });

export const firmwareRoutes = [
  route(firmwareSettingEndpoints.one, {
    access: 'menu', name: '固件设置', area, kind: 'one', scope: { global: 'the installation-wide firmware settings, the same for every company' },
    handler: ({ ctx, user }) => settingOne(ctx, user),
  }),
  route(firmwareSettingEndpoints.edit, {
    access: 'menu', name: '修改固件设置', area, kind: 'edit', scope: { global: 'installation-wide settings; only an administrator of the top company edits them' },
    handler: ({ ctx, user, body }) => settingEdit(ctx, user, body),
  }),

  route(firmwareKeyEndpoints.page, {
    access: 'menu', name: '公钥分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => keys.keyPage(ctx, user, body),
  }),
  route(firmwareKeyEndpoints.one, {
    access: 'menu', name: '公钥详情', area, kind: 'one', scope: { entity: 'firmwareKey' },
    handler: ({ ctx, user, body }) => keys.keyOne(ctx, user, body.id),
  }),
  route(firmwareKeyEndpoints.add, {
    access: 'menu', name: '新增公钥', area, kind: 'add', scope: { entity: 'company', input: keyBody },
    handler: ({ ctx, user, body }) => keys.keyAdd(ctx, user, body),
  }),
  route(firmwareKeyEndpoints.edit, {
    access: 'menu', name: '编辑公钥', area, kind: 'edit', scope: { entity: 'firmwareKey', input: (id) => ({ id, companyId: 1, name: 'probe' }) },
    handler: ({ ctx, user, body }) => keys.keyEdit(ctx, user, body),
  }),
  route(firmwareKeyEndpoints.delete, {
    access: 'menu', name: '删除公钥', area, kind: 'delete', scope: { entity: 'firmwareKey' },
    handler: ({ ctx, user, query }) => keys.keyDelete(ctx, user, query.id),
  }),

  route(firmwarePackageEndpoints.page, {
    access: 'menu', name: '升级包分页', area, kind: 'page', scope: inScope,
    handler: ({ ctx, user, body }) => packages.packagePage(ctx, user, body),
  }),
  route(firmwarePackageEndpoints.list, {
    access: 'menu', name: '升级包列表', area, kind: 'list', scope: inScope,
    handler: ({ ctx, user, body }) => packages.packageList(ctx, user, body),
  }),
  route(firmwarePackageEndpoints.one, {
    access: 'menu', name: '升级包详情', area, kind: 'one', scope: { entity: 'firmwarePackage' },
    handler: ({ ctx, user, body }) => packages.packageOne(ctx, user, body.id),
  }),
  route(firmwarePackageEndpoints.edit, {
    access: 'menu', name: '编辑升级包', area, kind: 'edit', scope: { entity: 'firmwarePackage', input: (id) => ({ id, releaseNotes: 'probe' }) },
    handler: ({ ctx, user, body }) => packages.packageEdit(ctx, user, body),
  }),
  route(firmwarePackageEndpoints.delete, {
    access: 'menu', name: '删除升级包', area, kind: 'delete', scope: { entity: 'firmwarePackage' },
    handler: ({ ctx, user, query }) => packages.packageDelete(ctx, user, query.id),
  }),
  route(firmwarePackageEndpoints.withdraw, {
    access: 'menu', name: '撤回升级包', area, kind: 'action', scope: { entity: 'firmwarePackage' },
    handler: ({ ctx, user, body }) => packages.packageState(ctx, user, body.id, 'withdrawn'),
  }),
  route(firmwarePackageEndpoints.release, {
    access: 'menu', name: '发布升级包', area, kind: 'action', scope: { entity: 'firmwarePackage' },
    handler: ({ ctx, user, body }) => packages.packageState(ctx, user, body.id, 'released'),
  }),
  route(firmwarePackageEndpoints.download, {
    access: 'menu', name: '下载升级包', area, kind: 'download', scope: { entity: 'firmwarePackage' },
    handler: ({ ctx, user, query, reply }) => packages.packageDownload(ctx, user, query.id, reply),
  }),
  route(firmwarePackageEndpoints.uploadStart, {
    access: 'menu', name: '开始上传升级包', area, kind: 'add',
    scope: { entity: 'company', input: (companyId) => ({ companyId, deviceType: 'bms', name: 'probe', version: '1.0.0', fileName: 'probe.bin', size: 1 }) },
    handler: ({ ctx, user, body }) => upload.uploadStart(ctx, user, body),
  }),
  route(firmwarePackageEndpoints.uploadChunk, {
    access: 'menu', name: '上传升级包分片', area, kind: 'other', scope: { ...uploadProbe, input: (id) => ({ ...uploadProbe.input(id), offset: 0 }) },
    handler: ({ ctx, user, req, query }) => upload.uploadChunk(ctx, user, req, query),
  }),
  route(firmwarePackageEndpoints.uploadStatus, {
    access: 'menu', name: '升级包上传进度', area, kind: 'one', scope: uploadProbe,
    handler: ({ ctx, user, body }) => upload.uploadStatus(ctx, user, body.uploadId),
  }),
  route(firmwarePackageEndpoints.uploadFinish, {
    access: 'menu', name: '完成上传升级包', area, kind: 'add', scope: uploadProbe,
    handler: ({ ctx, user, body }) => upload.uploadFinish(ctx, user, body.uploadId),
  }),
  route(firmwarePackageEndpoints.uploadAbort, {
    access: 'menu', name: '放弃上传升级包', area, kind: 'action', scope: uploadProbe,
    handler: ({ ctx, user, body }) => upload.uploadAbort(ctx, user, body.uploadId),
  }),

  route(firmwareDeviceEndpoints.package, {
    access: 'public', name: '设备下载升级包', area, kind: 'download',
    scope: { global: 'a device downloads by a short-lived token bound to its task, package and device; no session' },
    handler: ({ ctx, query, req, reply }) => packages.deviceDownload(ctx, query.token, req, reply),
  }),

  route(firmwareComplianceEndpoints.query, {
    access: 'menu', name: '固件合规视图', area, kind: 'list', scope: { entity: 'site', input: (siteId) => ({ siteIds: [siteId] }) },
    handler: ({ ctx, user, body }) => complianceQuery(ctx, user, body),
  }),
];
