import { PlayCircleOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Form, Modal, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { callbackEndpoints, type CallbackCode, type CallbackDef, type CallbackExecRecord } from '@ess/contract/site';
import { formatDateTime, ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { callbackExecResource, CALLBACK_NAMES } from './product-config.resource.tsx';
import { siteKeys } from './site.keys.ts';

const listQuery = { queryKey: siteKeys.callback.lists(), queryFn: () => call(callbackEndpoints.list, {}) };

/** /product/callback: the registered callbacks, run one for a station, and the execution records. */
export function CallbackPage() {
  const t = useT();
  const client = useQueryClient();
  const { message } = App.useApp();
  const list = useQuery(listQuery);
  const [running, setRunning] = useState<CallbackDef | null>(null);
  const [siteId, setSiteId] = useState<number | null>(null);
  const [last, setLast] = useState<CallbackExecRecord | null>(null);
  const exec = useMutation({
    mutationFn: (body: { code: CallbackCode; siteId: number }) => call(callbackEndpoints.exec, body),
    onSuccess: async (r) => {
      setLast(r);
      if (r.success) void message.success(t('执行成功'));
      else void message.error(t('执行失败：$1', t(r.error ?? '')));
      await client.invalidateQueries({ queryKey: siteKeys.callback.all });
    },
  });
  const onSite = useCallback((id: number) => setSiteId(id), []);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card title={t('回调管理')}>
        <Table<CallbackDef>
          rowKey="code"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data ?? []}
          pagination={false}
          columns={[
            { key: 'name', title: t('回调名称'), render: (_, r) => t(CALLBACK_NAMES[r.code] ?? r.name) },
            { key: 'code', title: t('回调编码'), render: (_, r) => <Typography.Text code style={{ whiteSpace: 'nowrap' }}>{r.code}</Typography.Text> },
            { key: 'description', title: t('说明'), render: (_, r) => t(r.description) },
            { key: 'params', title: t('参数'), render: (_, r) => r.params.map((p) => <Tag key={p}>{p}</Tag>) },
            { key: 'runs', title: t('执行次数'), dataIndex: 'runs', width: 100 },
            {
              key: 'lastRun', title: t('最近执行'), width: 240,
              render: (_, r) =>
                r.lastRun ? (
                  <Space style={{ whiteSpace: 'nowrap' }}>
                    <Badge status={r.lastRun.success ? 'success' : 'error'} text={t(r.lastRun.success ? '成功' : '失败')} />
                    <Typography.Text type="secondary">{formatDateTime(r.lastRun.at)}</Typography.Text>
                  </Space>
                ) : (
                  '-'
                ),
            },
            {
              key: 'actions', title: t('操作'), width: 100,
              render: (_, r) => (
                <Button type="link" size="small" icon={<PlayCircleOutlined />} onClick={() => { setLast(null); setRunning(r); }}>
                  {t('执行')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <ResourceTable def={callbackExecResource} />
      <Modal
        open={running !== null}
        title={running ? t('执行回调：$1', t(CALLBACK_NAMES[running.code] ?? running.name)) : ''}
        okText={t('执行')}
        cancelText={t('关闭')}
        confirmLoading={exec.isPending}
        okButtonProps={{ disabled: siteId === null }}
        onOk={() => running && siteId !== null && exec.mutate({ code: running.code, siteId })}
        onCancel={() => setRunning(null)}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label={t('站点')} htmlFor="callback-site" required>
            <StationPicker autoSelectFirst id="callback-site" value={siteId} onChange={onSite} />
          </Form.Item>
        </Form>
        {last && (
          <>
            <Typography.Text strong>{t(last.success ? '执行成功' : '执行失败')}</Typography.Text>
            <pre style={{ maxHeight: 240, overflow: 'auto', background: 'rgba(0,0,0,0.04)', padding: 8 }}>{last.success ? JSON.stringify(last.result, null, 2) : t(last.error ?? '')}</pre>
          </>
        )}
      </Modal>
    </Space>
  );
}
