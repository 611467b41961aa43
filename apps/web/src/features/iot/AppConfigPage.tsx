import { ApiOutlined, HistoryOutlined, SyncOutlined } from '@ant-design/icons';
import { iotConfigEndpoints, iotSyncEndpoints, type IotSyncDetail } from '@ess/contract/iot';
import { Button } from 'antd';
import { useState } from 'react';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { configResource } from './config.resource.tsx';
import { LinkButton, useConnectOutcome, useRowCall } from './parts.tsx';
import { SyncModal, SyncRunsDrawer } from './SyncView.tsx';

/**
 * /iot/appConfig: the IoT applications (a platform, its address and credentials), with the
 * connection test, the full sync (a dry-run diff an administrator approves) and the sync runs.
 */
export function AppConfigPage() {
  const t = useT();
  const { busy, run } = useRowCall();
  const outcome = useConnectOutcome();
  const canConnect = useCan(iotConfigEndpoints.connect);
  const canSync = useCan(iotSyncEndpoints.full);
  const canRuns = useCan(iotSyncEndpoints.page);
  const [plan, setPlan] = useState<IotSyncDetail | null>(null);
  const [runs, setRuns] = useState<{ configId?: number; name?: string } | null>(null);
  const connect = async (id: number) => {
    const r = await run(`connect-${id}`, () => call(iotConfigEndpoints.connect, { id }));
    if (r) outcome(r);
  };
  const sync = async (configId: number) => {
    const r = await run(`sync-${configId}`, () => call(iotSyncEndpoints.full, { configId }));
    if (r) setPlan(r);
  };
  return (
    <>
      <ResourceTable
        def={configResource}
        emptyText={t('还没有物联网应用。点击“新增”，选择平台类型（ThingsBoard 或 JetLinks），填写平台地址、用户名和密码；保存前会先登录平台验证，之后点“同步”读取平台的产品和设备。')}
        toolbar={() =>
          canRuns
            ? [
                <Button key="runs" icon={<HistoryOutlined />} onClick={() => setRuns({})} data-testid="config-all-runs">
                  {t('同步记录')}
                </Button>,
              ]
            : []
        }
        rowActions={(row) => [
          ...(canConnect
            ? [<LinkButton key="connect" icon={<ApiOutlined />} text={t('连接测试')} testId="config-connect" loading={busy === `connect-${row.id}`} onClick={() => void connect(row.id)} />]
            : []),
          ...(canSync && row.enabled
            ? [<LinkButton key="sync" icon={<SyncOutlined />} text={t('同步')} testId="config-sync" loading={busy === `sync-${row.id}`} onClick={() => void sync(row.id)} />]
            : []),
          ...(canRuns
            ? [<LinkButton key="runs" icon={<HistoryOutlined />} text={t('同步记录')} testId="config-runs" onClick={() => setRuns({ configId: row.id, name: row.name })} />]
            : []),
        ]}
      />
      {plan && <SyncModal run={plan} onClose={() => setPlan(null)} />}
      {runs && <SyncRunsDrawer configId={runs.configId} title={runs.name ? t('$1 的同步记录', runs.name) : t('同步记录')} onClose={() => setRuns(null)} />}
    </>
  );
}
