import { CheckCircleOutlined, PoweroffOutlined, SettingOutlined } from '@ant-design/icons';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { LinkButton, useRowCall } from './parts.tsx';
import { ACTIVE_ENDPOINTS, relationResource, type RelationKind } from './relation.resource.tsx';

const EMPTY = {
  property: '还没有属性关联：点击“新增”把平台属性映射到产品的属性',
  event: '还没有事件关联：点击“新增”把平台事件映射到产品的事件编码',
  command: '还没有命令关联：点击“新增”把平台命令映射到产品的命令',
} as const;

/** The relations of one kind of a platform product (or of one device), with the active switch (and a command's parameters). */
export function RelationTable({ kind, iotProductId, iotDeviceId}: { kind: RelationKind; iotProductId: number; iotDeviceId?: number }) {
  const t = useT();
  const navigate = useNavigate();
  const def = useMemo(() => relationResource(kind, iotProductId, iotDeviceId), [kind, iotProductId, iotDeviceId]);
  const { busy, run } = useRowCall();
  const canActive = useCan(ACTIVE_ENDPOINTS[kind]);
  return (
    <div data-testid={`relations-${kind}`}>
      <ResourceTable
        def={def}
        emptyText={t(EMPTY[kind])}
        rowActions={(row) => [
          ...(canActive
            ? [
                <LinkButton
                  key="active"
                  icon={(row as { active: boolean }).active ? <PoweroffOutlined /> : <CheckCircleOutlined />}
                  text={t((row as { active: boolean }).active ? '停用' : '启用')}
                  testId="relation-active"
                  loading={busy === `active-${row.id}`}
                  onClick={() => void run(`active-${row.id}`, () => call(ACTIVE_ENDPOINTS[kind], { id: row.id }))}
                />,
              ]
            : []),
          ...(kind === 'command'
            ? [<LinkButton key="params" icon={<SettingOutlined />} text={t('参数关联')} testId="relation-params" onClick={() => void navigate(`/iot/productCommandForm?id=${row.id}`)} />]
            : []),
        ]}
      />
    </div>
  );
}
