import { firmwareLogEndpoints, type FirmwareLogRecord } from '@ess/contract/firmware';
import { Space, Typography } from 'antd';
import { defineResource } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { siteSource } from '../../components/options/sites.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { CAPTURE_STATE_OPTIONS } from './firmware.options.ts';
import { CaptureStateTag } from './parts.tsx';

/** /firmware/log: log captures (devices asked to upload their logs for a time range). */
export const logResource = defineResource<FirmwareLogRecord>({
  key: firmwareKeys.logs,
  name: '日志抓取任务',
  endpoints: { page: firmwareLogEndpoints.page, delete: firmwareLogEndpoints.delete },
  columns: [
    { key: 'name', title: '抓取任务名称', width: 180, ellipsis: true },
    { key: 'state', title: '状态', width: 100, render: (r) => <CaptureStateTag state={r.state} /> },
    { key: 'range', title: '日志时间范围', width: 300, type: 'text', render: (r, t) => t('$1 至 $2', new Date(r.from).toLocaleString(), new Date(r.to).toLocaleString()) },
    {
      key: 'counts', title: '上传完成 / 设备数', width: 200,
      render: (r, t) => (
        <Space size={4} wrap>
          <span>{`${r.counts.uploaded} / ${r.counts.total}`}</span>
          {r.counts.failed + r.counts.timeout > 0 && <Typography.Text type="danger">{t('失败 $1', r.counts.failed + r.counts.timeout)}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'timeoutMinutes', title: '上传超时（分钟）', width: 140 },
    { key: 'createdByName', title: '创建人', width: 100 },
    { key: 'createdAt', title: '创建时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '抓取任务名称' },
    { key: 'state', title: '状态', type: 'enum', options: CAPTURE_STATE_OPTIONS },
    { key: 'siteId', title: '站点', type: 'select', source: siteSource },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ],
  detail: false,
  actionsWidth: 200,
  pageSize: 20,
});
