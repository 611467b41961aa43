import { ApiOutlined, EyeOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { hookEndpoints, type HookTriggerScanResult } from '@ess/contract/hooks';
import { App, Button, Space, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { hookKeys } from './hooks.keys.ts';
import { eventLabel } from './hooks.options.ts';
import { LinkButton, useRowCall } from '../../components/RowActions.tsx';
import { triggerResource } from './trigger.resource.tsx';

/** What a scan changed, group by group (event types with their names). */
export function ScanReport({ result }: { result: HookTriggerScanResult }) {
  const t = useT();
  const groups = [
    { key: 'added', title: '新增', list: result.added, color: 'green' },
    { key: 'revived', title: '恢复', list: result.revived, color: 'blue' },
    { key: 'changed', title: '已变更', list: result.changed, color: 'orange' },
    { key: 'gone', title: '已失效', list: result.gone, color: 'red' },
  ] as const;
  const any = groups.some((g) => g.list.length > 0);
  return (
    <div data-testid="scan-report">
      {!any && <Typography.Paragraph>{t('触发器目录没有变化')}</Typography.Paragraph>}
      {groups
        .filter((g) => g.list.length > 0)
        .map((g) => (
          <div key={g.key} data-testid={`scan-${g.key}`} style={{ marginBottom: 8 }}>
            <Typography.Text strong>{t(g.title)}（{g.list.length}）</Typography.Text>
            <div>
              <Space size={[4, 4]} wrap>
                {g.list.map((e) => (
                  <Tag key={e} color={g.color}>
                    {t(eventLabel(e))} <code>{e}</code>
                  </Tag>
                ))}
              </Space>
            </div>
          </div>
        ))}
      <Typography.Text type="secondary">{t('未变化 $1 个', result.unchanged)}</Typography.Text>
    </div>
  );
}

/** /hook/trigger: the trigger catalogue; "scan" refreshes it from the modules and says what changed. */
export function TriggerPage() {
  const t = useT();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const { busy, run } = useRowCall(hookKeys.all);
  const canScan = useCan(hookEndpoints.triggerScan);
  const canConfig = useCan(hookEndpoints.relateTriggerAdd);
  const canHooks = useCan(hookEndpoints.relateTriggerPage);
  const scan = async () => {
    const r = await run('scan', () => call(hookEndpoints.triggerScan, {}));
    if (r) modal.info({ title: t('扫描完成'), content: <ScanReport result={r} />, okText: t('确定'), width: 560 });
  };
  return (
    <ResourceTable
      def={triggerResource}
      toolbar={() => [
        ...(canHooks
          ? [
              <Button key="hooks" icon={<ApiOutlined />} onClick={() => void navigate('/hook/triggerRelate')} data-testid="trigger-hooks">
                {t('全部钩子')}
              </Button>,
            ]
          : []),
        ...(canScan
          ? [
              <Button key="scan" type="primary" icon={<SyncOutlined />} loading={busy === 'scan'} onClick={() => void scan()} data-testid="trigger-scan">
                {t('扫描')}
              </Button>,
            ]
          : []),
      ]}
      rowActions={(row) => [
        <LinkButton key="detail" icon={<EyeOutlined />} text={t('详情')} testId="trigger-detail" onClick={() => void navigate(`/hook/triggerDetail?id=${row.id}`)} />,
        ...(canConfig && row.status === 'active'
          ? [
              <LinkButton
                key="hook"
                icon={<PlusOutlined />}
                text={t('新建钩子')}
                testId="trigger-new-hook"
                onClick={() => void navigate(`/hook/triggerConfig?eventType=${encodeURIComponent(row.eventType)}`)}
              />,
            ]
          : []),
      ]}
    />
  );
}
