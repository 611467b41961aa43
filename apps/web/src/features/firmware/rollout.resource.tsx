import { firmwareRolloutEndpoints, type FirmwareRolloutRecord } from '@ess/contract/firmware';
import { Progress } from 'antd';
import { defineResource } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { siteSource } from '../../components/options/sites.ts';
import { rolloutProgress } from './DetailPage.tsx';
import { firmwareKeys } from './firmware.keys.ts';
import { packageSource, ROLLOUT_STATE_OPTIONS } from './firmware.options.ts';
import { RolloutStateTag } from './parts.tsx';

/** A rollout's share of devices that ended (success or failed), 0–100. */
export const rolloutPercent = (r: Pick<FirmwareRolloutRecord, 'counts'>): number => {
  const c = r.counts;
  const ended = c.success + c.issuedFailed + c.downloadFailed + c.verifyFailed + c.flashFailed + c.upgradeFailed + c.cancelled;
  return c.total ? Math.round((ended / c.total) * 100) : 0;
};

/** /firmware/upgrade: the rollouts. */
export const rolloutResource = defineResource<FirmwareRolloutRecord>({
  key: firmwareKeys.rollouts,
  name: '升级任务',
  endpoints: { page: firmwareRolloutEndpoints.page },
  columns: [
    { key: 'name', title: '升级任务名称', width: 180, ellipsis: true },
    { key: 'package', title: '升级包', width: 170, render: (r) => `${r.packageName} ${r.packageVersion}` },
    { key: 'state', title: '状态', width: 100, render: (r) => <RolloutStateTag state={r.state} /> },
    { key: 'progress', title: '进度', width: 160, render: (r, t) => <Progress percent={rolloutPercent(r)} size="small" aria-label={t('进度')} /> },
    { key: 'counts', title: '成功 / 全部', width: 120, render: (r) => rolloutProgress(r) },
    { key: 'sites', title: '站点', width: 180, ellipsis: true, render: (r, t) => r.siteNames.join('、') || t('全部') },
    { key: 'approval', title: '审批', width: 120, render: (r, t) => (r.requireApproval ? (r.approvedByName ?? t('待审批')) : t('无需审批')) },
    { key: 'startAt', title: '计划开始', type: 'datetime', width: 170 },
    { key: 'createdByName', title: '创建人', width: 100 },
    { key: 'createdAt', title: '创建时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '升级任务名称' },
    { key: 'state', title: '状态', type: 'enum', options: ROLLOUT_STATE_OPTIONS },
    { key: 'packageId', title: '升级包', type: 'select', source: packageSource },
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ],
  detail: false,
  actionsWidth: 360,
  pageSize: 20,
});
