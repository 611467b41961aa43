import { hookEndpoints, type HookTriggerRecord } from '@ess/contract/hooks';
import { defineResource } from '../../components/crud/index.ts';
import { hookKeys } from './hooks.keys.ts';
import { eventLabel, TRIGGER_STATUS_OPTIONS } from './hooks.options.ts';

/** /hook/trigger: the catalogue of events a hook can attach to (the modules' manifests, refreshed by a scan). */
export const triggerResource = defineResource<HookTriggerRecord>({
  key: hookKeys.triggers,
  name: '触发器',
  endpoints: { page: hookEndpoints.triggerPage },
  columns: [
    { key: 'name', title: '触发器名称', width: 180, render: (r, t) => t(eventLabel(r.eventType)) },
    { key: 'eventType', title: '事件类型', type: 'code', width: 220 },
    { key: 'module', title: '所属模块', type: 'code', width: 120 },
    { key: 'status', title: '状态', type: 'enum', options: TRIGGER_STATUS_OPTIONS, width: 100 },
    { key: 'fields', title: '载荷字段', width: 100, render: (r) => r.fields.length },
    { key: 'hookCount', title: '钩子（启用/全部）', width: 150, render: (r) => `${r.activeHookCount} / ${r.hookCount}` },
    { key: 'firstSeenAt', title: '首次发现', type: 'datetime', width: 170 },
    { key: 'lastSeenAt', title: '最近扫描', type: 'datetime', width: 170 },
  ],
  filters: [
    { key: 'keyword', title: '关键字' },
    { key: 'module', title: '所属模块' },
    { key: 'status', title: '状态', type: 'enum', options: TRIGGER_STATUS_OPTIONS },
  ],
  detail: false,
  actionsWidth: 220,
  pageSize: 20,
});
