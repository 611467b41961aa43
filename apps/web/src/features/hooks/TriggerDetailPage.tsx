import { PlusOutlined } from '@ant-design/icons';
import { hookEndpoints, HOOK_FILTER_KINDS, type HookPayloadField } from '@ess/contract/hooks';
import { Button, Card, Descriptions, Result, Space, Spin, Table, Tag } from 'antd';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { formatDateTime, StatusBadge } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { idOf } from './DispatchPage.tsx';
import { useTrigger } from './hooks.api.ts';
import { HookTable } from './HookListPage.tsx';
import { eventLabel, TRIGGER_STATUS_OPTIONS } from './hooks.options.ts';
import { JsonBlock } from './parts.tsx';
import { hookResource } from './relate.resource.tsx';

/** The filter kinds (source text) a trigger supports. */
export const FILTER_KIND_LABELS: Record<(typeof HOOK_FILTER_KINDS)[number], string> = { site: '按站点', level: '按告警等级', status: '按状态' };

/** The payload's top-level fields: what a script reads as `event.data.<name>`. */
function FieldTable({ fields }: { fields: HookPayloadField[] }) {
  const t = useT();
  return (
    <Table<HookPayloadField>
      rowKey="name"
      size="small"
      pagination={false}
      dataSource={fields}
      data-testid="payload-fields"
      columns={[
        { key: 'name', title: t('字段'), render: (_v, f) => <code>{`event.data.${f.name}`}</code> },
        { key: 'type', title: t('类型'), render: (_v, f) => <code>{f.type}</code> },
        { key: 'label', title: t('说明'), render: (_v, f) => (f.label ? t(f.label) : '-') },
        { key: 'required', title: t('必有'), render: (_v, f) => t(f.required ? '是' : '否') },
        { key: 'nullable', title: t('可为空'), render: (_v, f) => t(f.nullable ? '是' : '否') },
        { key: 'values', title: t('取值'), render: (_v, f) => (f.values?.length ? f.values.map((v) => <Tag key={v}>{v}</Tag>) : '-') },
      ]}
    />
  );
}

/** /hook/triggerDetail?id=: one trigger — its payload as a field table, a sample event, the filters it takes, and the hooks attached to it. */
export function TriggerDetailPage() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = idOf(search, 'id');
  const eventType = search.get('eventType') ?? undefined;
  const trigger = useTrigger(id !== null ? { id } : { eventType });
  const canAdd = useCan(hookEndpoints.relateTriggerAdd);
  const tr = trigger.data;
  const hooks = useMemo(() => (tr ? { ...hookResource, key: [...hookResource.key, 'trigger', tr.eventType], fixedFilters: { eventType: tr.eventType }, filters: hookResource.filters?.filter((f) => f.key !== 'eventType') } : null), [tr]);
  if (id === null && !eventType) return <Result status="warning" title={t('未指定触发器')} />;
  if (trigger.isPending) return <Spin />;
  if (!tr) return <Result status="error" title={t('触发器不存在或已失效')} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="trigger-detail-page">
      <Card
        size="small"
        title={<h2 className="ess-resource-title">{t(eventLabel(tr.eventType))}</h2>}
        extra={
          canAdd && tr.status === 'active' ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(`/hook/triggerConfig?eventType=${encodeURIComponent(tr.eventType)}`)} data-testid="detail-new-hook">
              {t('新建钩子')}
            </Button>
          ) : null
        }
      >
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'type', label: t('事件类型'), children: <code>{tr.eventType}</code> },
            { key: 'module', label: t('所属模块'), children: <code>{tr.module}</code> },
            { key: 'status', label: t('状态'), children: <StatusBadge options={TRIGGER_STATUS_OPTIONS} value={tr.status} t={t} /> },
            { key: 'hooks', label: t('钩子（启用/全部）'), children: `${tr.activeHookCount} / ${tr.hookCount}` },
            { key: 'filters', label: t('可用过滤条件'), children: tr.filterKinds.length ? tr.filterKinds.map((k) => <Tag key={k}>{t(FILTER_KIND_LABELS[k])}</Tag>) : t('无') },
            { key: 'seen', label: t('首次发现 / 最近扫描'), children: `${formatDateTime(tr.firstSeenAt)} / ${formatDateTime(tr.lastSeenAt)}` },
          ]}
        />
      </Card>
      <Card size="small" title={<h3 className="ess-resource-title">{t('载荷字段')}</h3>}>
        <FieldTable fields={tr.fields} />
      </Card>
      <Card size="small" title={<h3 className="ess-resource-title">{t('示例事件')}</h3>}>
        <JsonBlock value={{ id: 1, type: tr.eventType, timestamp: tr.lastSeenAt, data: tr.example }} testId="trigger-example" label={t('示例事件')} />
      </Card>
      {hooks && <HookTable def={hooks} eventType={tr.eventType} emptyText={t('还没有钩子关联这个触发器')} />}
    </Space>
  );
}
