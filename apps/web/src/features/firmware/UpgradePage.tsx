import { PlusOutlined, EyeOutlined } from '@ant-design/icons';
import { firmwareRolloutEndpoints } from '@ess/contract/firmware';
import { Button } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { useFirmwareLive } from './firmware.live.ts';
import { LinkButton, idParam } from './parts.tsx';
import { useRolloutActions } from './rollout.actions.tsx';
import { rolloutResource } from './rollout.resource.tsx';
import { RolloutDetail } from './RolloutDetail.tsx';
import { RolloutDrawer } from './RolloutDrawer.tsx';

type Editing = { id: number | null } | null;

/** /firmware/upgrade: remote upgrade — the rollouts, creating one with its preview, and one rollout's detail (?id=). */
export function UpgradePage() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = idParam(search);
  const packageId = idParam(search, 'packageId') ?? undefined;
  const [editing, setEditing] = useState<Editing>(null);
  const canAdd = useCan(firmwareRolloutEndpoints.add);
  const actions = useRolloutActions((r) => setEditing({ id: r.id }));
  useFirmwareLive();
  const drawer = editing && (
    <RolloutDrawer
      editId={editing.id}
      packageId={packageId}
      onClose={(saved) => {
        setEditing(null);
        if (saved && !editing.id) void navigate(`/firmware/upgrade?id=${saved}`);
      }}
    />
  );
  if (id !== null) {
    return (
      <>
        <RolloutDetail id={id} onEdit={(rid) => setEditing({ id: rid })} />
        {drawer}
      </>
    );
  }
  return (
    <>
      <ResourceTable
        def={rolloutResource}
        emptyText={t('还没有升级任务：点击新建升级任务')}
        toolbar={() =>
          canAdd
            ? [
                <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="rollout-add">
                  {t('新建升级任务')}
                </Button>,
              ]
            : []
        }
        rowActions={(row) => [
          <LinkButton key="detail" icon={<EyeOutlined />} text={t('详情')} testId="rollout-detail-open" onClick={() => void navigate(`/firmware/upgrade?id=${row.id}`)} />,
          ...actions.buttons(row),
        ]}
      />
      {drawer}
    </>
  );
}
