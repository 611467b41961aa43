import { IOT_SYNC_STATE_LABELS, iotSyncEndpoints, type IotDiffItem, type IotSyncDetail, type IotSyncRecord } from '@ess/contract/iot';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Modal, Space, Spin, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { defineResource, formatDateTime, ResourceTable } from '../../components/crud/index.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { iotKeys } from './iot.keys.ts';
import { CHANGE_LABELS, KIND_LABELS, SYNC_STATE_OPTIONS, SYNC_STATE_TONES } from './iot.options.ts';

const CHANGE_TONES = { added: 'success', changed: 'warning', removed: 'error' } as const;

/** A field's value in a diff line (objects as JSON, nothing as `-`). */
const shown = (v: unknown): string =>
  v === null || v === undefined || v === '' ? '-' : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? `${v}` : JSON.stringify(v);

/** A sync's state as its coloured tag. */
export function SyncStateTag({ run }: { run: Pick<IotSyncRecord, 'state'> }) {
  const t = useT();
  return <ToneTag tone={SYNC_STATE_TONES[run.state]} testId={`sync-state-${run.state}`}>{t(IOT_SYNC_STATE_LABELS[run.state])}</ToneTag>;
}

/** The diff of a sync run: added / changed (field before → after) / removed, item by item. */
export function SyncDiff({ items }: { items: IotDiffItem[] }) {
  const t = useT();
  return (
    <Table<IotDiffItem>
      rowKey={(r) => `${r.kind}:${r.change}:${r.key}`}
      size="small"
      dataSource={items}
      pagination={items.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      data-testid="sync-diff"
      scroll={{ x: 640 }}
      columns={[
        { key: 'change', title: t('变化'), width: 80, render: (_v, r) => <ToneTag tone={CHANGE_TONES[r.change]} testId={`diff-${r.change}`}>{t(CHANGE_LABELS[r.change])}</ToneTag> },
        { key: 'kind', title: t('类别'), width: 80, render: (_v, r) => t(KIND_LABELS[r.kind]) },
        { key: 'name', title: t('名称'), width: 160, render: (_v, r) => <span>{r.name} <Typography.Text type="secondary" code>{r.key}</Typography.Text></span> },
        {
          key: 'fields', title: t('字段变化'),
          render: (_v, r) =>
            r.fields.length === 0
              ? '-'
              : r.fields.map((f) => (
                  <div key={f.field}>
                    <code>{f.field}</code>: {shown(f.before)} → {shown(f.after)}
                  </div>
                )),
        },
      ]}
    />
  );
}

/**
 * One sync run: its counts and diff, and — while it is planned — approve (apply the diff) or
 * discard. The server refuses a stale plan (the platform or the stored rows changed meanwhile).
 */
export function SyncModal({ run: initial, onClose }: { run: IotSyncDetail | number; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const id = typeof initial === 'number' ? initial : initial.id;
  const loaded = useQuery({ queryKey: iotKeys.sync(id), queryFn: () => call(iotSyncEndpoints.one, { id }, { loading: false }), enabled: typeof initial === 'number' });
  const [answer, setAnswer] = useState<IotSyncDetail | null>(null);
  const [busy, setBusy] = useState<'approve' | 'discard' | null>(null);
  const canApprove = useCan(iotSyncEndpoints.approve);
  const run = answer ?? (typeof initial === 'number' ? loaded.data : initial);
  const act = async (what: 'approve' | 'discard') => {
    setBusy(what);
    try {
      if (what === 'approve') {
        setAnswer(await call(iotSyncEndpoints.approve, { id }));
        void message.success(t('已应用同步'));
      } else {
        await call(iotSyncEndpoints.discard, { id });
        void message.success(t('已放弃同步'));
        onClose();
      }
    } catch {
      // refused: shown by the request layer; the plan stays as it was
    } finally {
      setBusy(null);
      void client.invalidateQueries({ queryKey: iotKeys.all });
    }
  };
  const planned = run?.state === 'planned';
  return (
    <Modal
      open
      width={900}
      title={t('同步预览')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose} data-testid="sync-close">{t('关闭')}</Button>
          {planned && canApprove && (
            <>
              <Button danger loading={busy === 'discard'} onClick={() => void act('discard')} data-testid="sync-discard">{t('放弃')}</Button>
              <Button type="primary" loading={busy === 'approve'} onClick={() => void act('approve')} data-testid="sync-approve">{t('批准并应用')}</Button>
            </>
          )}
        </Space>
      }
    >
      {!run ? (
        <Spin />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="sync-view">
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, md: 3 }}
            items={[
              { key: 'state', label: t('状态'), children: <SyncStateTag run={run} /> },
              { key: 'app', label: t('物联网应用'), children: run.configName },
              { key: 'counts', label: t('新增/变更/删除'), children: <span data-testid="sync-counts">{`${run.added} / ${run.changed} / ${run.removed}`}</span> },
              { key: 'by', label: t('发起人'), children: run.createdByName ?? '-' },
              { key: 'at', label: t('发起时间'), children: formatDateTime(run.createdAt) },
              { key: 'applied', label: t('应用时间'), children: run.appliedAt ? `${formatDateTime(run.appliedAt)} ${run.approvedByName ?? ''}` : '-' },
            ]}
          />
          {planned && <Alert type="warning" showIcon message={t('这是预览：批准后才会写入产品、设备和物模型')} data-testid="sync-planned" />}
          {run.state === 'unchanged' && <Alert type="success" showIcon message={t('平台数据没有变化，无需写入')} />}
          {run.error && <Alert type="error" showIcon message={run.error} data-testid="sync-error" />}
          {run.items.length > 0 && <SyncDiff items={run.items} />}
        </Space>
      )}
    </Modal>
  );
}

/** The sync runs of the caller's applications (or of one). */
const syncResource = defineResource<IotSyncRecord>({
  key: iotKeys.syncs,
  name: '同步记录',
  endpoints: { page: iotSyncEndpoints.page },
  columns: [
    { key: 'createdAt', title: '发起时间', type: 'datetime', width: 170 },
    { key: 'configName', title: '物联网应用', width: 140, ellipsis: true },
    { key: 'scope', title: '范围', width: 150, render: (r, t) => `${t({ full: '全量', product: '产品', device: '设备' }[r.scope])}${r.target ? ` · ${r.target}` : ''}` },
    { key: 'state', title: '状态', type: 'enum', options: SYNC_STATE_OPTIONS, width: 100 },
    { key: 'counts', title: '新增/变更/删除', width: 130, render: (r) => `${r.added} / ${r.changed} / ${r.removed}` },
    { key: 'createdByName', title: '发起人', width: 110, render: (r) => r.createdByName ?? '-' },
    { key: 'approvedByName', title: '批准人', width: 110, render: (r) => r.approvedByName ?? '-' },
    { key: 'error', title: '错误', width: 200, ellipsis: true, render: (r) => r.error ?? '-' },
  ],
  filters: [{ key: 'state', title: '状态', type: 'enum', options: SYNC_STATE_OPTIONS }],
  detail: false,
  actionsWidth: 100,
  pageSize: 10,
});

/** The history of sync runs (one application's when `configId` is given); a run opens its diff. */
export function SyncRunsDrawer({ configId, title, onClose }: { configId?: number; title: string; onClose: () => void }) {
  const t = useT();
  const [open, setOpen] = useState<number | null>(null);
  const def = useMemo(() => (configId ? { ...syncResource, key: [...syncResource.key, 'config', String(configId)], fixedFilters: { configId } } : syncResource), [configId]);
  return (
    <Drawer open width={1000} title={title} onClose={onClose} destroyOnHidden>
      <ResourceTable
        def={def}
        rowActions={(row) => [
          <Button key="view" type="link" size="small" onClick={() => setOpen(row.id)} data-testid="sync-run-view">
            {t(row.state === 'planned' ? '审批' : '查看')}
          </Button>,
        ]}
      />
      {open !== null && <SyncModal run={open} onClose={() => setOpen(null)} />}
    </Drawer>
  );
}
