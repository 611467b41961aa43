import { HOOK_RECORD_STATE_LABELS, hookEndpoints, type HookRecord, type HookRecordState } from '@ess/contract/hooks';
import { Space, Typography } from 'antd';
import { defineResource, formatDateTime } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { hookKeys } from './hooks.keys.ts';
import { ACTIVE_OPTIONS, CIRCUIT_OPTIONS, eventLabel, RECORD_STATE_TONES, triggerSource } from './hooks.options.ts';
import { CircuitTag } from './parts.tsx';

const isState = (s: string | null): s is HookRecordState => !!s && s in HOOK_RECORD_STATE_LABELS;

/** /hook/triggerRelate: the hooks (a trigger, a filter, a script and a target); added and edited on /hook/triggerConfig. */
export const hookResource = defineResource<HookRecord>({
  key: hookKeys.hooks,
  name: '钩子',
  endpoints: { page: hookEndpoints.relateTriggerPage, delete: hookEndpoints.relateTriggerDelete },
  columns: [
    { key: 'name', title: '钩子名称', width: 180, ellipsis: true },
    {
      key: 'eventType', title: '触发器', width: 200,
      render: (r, t) => (
        <span>
          {t(eventLabel(r.eventType))} <Typography.Text type="secondary" code>{r.eventType}</Typography.Text>
          {r.triggerGone ? <Typography.Text type="danger"> {t('已失效')}</Typography.Text> : null}
        </span>
      ),
    },
    { key: 'active', title: '状态', type: 'boolean', options: ACTIVE_OPTIONS, width: 100 },
    { key: 'circuit', title: '熔断状态', width: 170, render: (r) => <CircuitTag circuit={r.circuit} failures={r.consecutiveFailures} /> },
    {
      key: 'lastDeliveryAt', title: '最近投递', width: 230,
      render: (r, t) =>
        r.lastDeliveryAt ? (
          <Space size={4} wrap>
            {isState(r.lastDeliveryState) ? <ToneTag tone={RECORD_STATE_TONES[r.lastDeliveryState]}>{t(HOOK_RECORD_STATE_LABELS[r.lastDeliveryState])}</ToneTag> : null}
            {r.lastResponseStatus !== null ? <code>{r.lastResponseStatus}</code> : null}
            <span>{formatDateTime(r.lastDeliveryAt)}</span>
          </Space>
        ) : (
          t('暂无')
        ),
    },
    { key: 'url', title: '目标地址', width: 240, ellipsis: true, render: (r) => <code>{`${r.method} ${r.url}`}</code> },
    { key: 'companyName', title: '所属公司', width: 140, ellipsis: true },
    { key: 'ownerName', title: '负责人', width: 110, render: (r) => r.ownerName ?? '-' },
    { key: 'updatedAt', title: '更新时间', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'name', title: '钩子名称' },
    { key: 'eventType', title: '触发器', type: 'select', source: triggerSource },
    { key: 'active', title: '状态', type: 'enum', options: ACTIVE_OPTIONS },
    { key: 'circuit', title: '熔断状态', type: 'enum', options: CIRCUIT_OPTIONS },
    { key: 'companyId', title: '所属公司', type: 'treeSelect', source: companyTreeSource },
  ],
  detail: false,
  actionsWidth: 360,
  pageSize: 20,
});
