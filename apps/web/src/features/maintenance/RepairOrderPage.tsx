import { EyeOutlined, UserAddOutlined } from '@ant-design/icons';
import { maintenanceEndpoints, repairMachine, type RepairRecord } from '@ess/contract/maintenance';
import { canTransition } from '@ess/contract/state-machine';
import { Button } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useLiveEvent } from '../../platform/useLiveEvent.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { AssignModal } from './actions.tsx';
import { AutoRuleButton } from './AutoRuleModal.tsx';
import { useMaintRefresh } from './maintenance.api.ts';
import { repairLink, repairResource } from './repair.resource.tsx';
import { maintKeys } from './maintenance.keys.ts';

/**
 * /repair/order: repair orders (by hand, from defects, from alarms) with their source alarm's
 * state kept live; dispatch where the state and the caller's permissions allow; the detail page
 * takes check-in, handling and acceptance.
 */
export function RepairOrderPage() {
  const t = useT();
  const navigate = useNavigate();
  const refresh = useMaintRefresh();
  const client = useQueryClient();
  useLiveEvent('RefreshAlarmKanban', () => void client.invalidateQueries({ queryKey: maintKeys.repairs() }));
  const canAllocate = useCan(maintenanceEndpoints.repairAllocation);
  const [dispatching, setDispatching] = useState<RepairRecord | null>(null);
  return (
    <>
      <ResourceTable
        def={repairResource}
        toolbar={() => [<AutoRuleButton key="auto-rule" />]}
        rowActions={(row) => [
          <Button key="open" type="link" size="small" icon={<EyeOutlined />} onClick={() => void navigate(repairLink(row.id))}>
            {t('详情')}
          </Button>,
          ...(canAllocate && canTransition(repairMachine, row.status, 'allocate')
            ? [
                <Button key="allocate" type="link" size="small" icon={<UserAddOutlined />} data-testid="repair-allocate" onClick={() => setDispatching(row)}>
                  {t('派单')}
                </Button>,
              ]
            : []),
        ]}
      />
      {dispatching && (
        <AssignModal
          title={t('派单 $1', dispatching.no)}
          onClose={() => setDispatching(null)}
          submit={async (v) => {
            await call(maintenanceEndpoints.repairAllocation, { id: dispatching.id, assigneeId: v.assigneeId, note: v.note ?? null });
            await refresh();
          }}
        />
      )}
    </>
  );
}
