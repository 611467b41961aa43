import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { canTransition } from '@ess/contract/state-machine';
import { maintenanceEndpoints, planMachine, type PlanRecord } from '@ess/contract/maintenance';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm } from 'antd';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { planResource } from './plan.resource.tsx';
import { maintKeys } from './maintenance.keys.ts';

/** Which of start and stop a plan offers: start only when stopped and not expired, stop only when executing or pending. */
export function planToggle(p: Pick<PlanRecord, 'status' | 'expired'>): 'start' | 'stop' | null {
  if (canTransition(planMachine, p.status, 'start')) return p.expired ? null : 'start';
  if (canTransition(planMachine, p.status, 'stop')) return 'stop';
  return null;
}

/**
 * /patrol/plan: inspection plans with their schedule (and a preview of the next 10 due dates in
 * the form), stations, items and assignee group; a stopped plan can be started (not an expired
 * one), an executing or pending one stopped.
 */
export function PlanPage() {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canToggle = useCan(maintenanceEndpoints.planStartOrStop);
  const toggle = useMutation({
    mutationFn: (id: number) => call(maintenanceEndpoints.planStartOrStop, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: maintKeys.all }),
  });
  return (
    <ResourceTable
      def={planResource}
      rowActions={(row) => {
        const action = canToggle ? planToggle(row) : null;
        if (!action) return [];
        const label = action === 'start' ? t('启动') : t('停止');
        return [
          <Popconfirm
            key="toggle"
            title={action === 'start' ? t('确定启动该计划吗？') : t('确定停止该计划吗？停止后不再生成工单')}
            okText={label}
            cancelText={t('取消')}
            onConfirm={() =>
              void toggle.mutateAsync(row.id).then(
                () => void message.success(action === 'start' ? t('计划已启动') : t('计划已停止')),
                () => undefined,
              )
            }
          >
            <Button type="link" size="small" icon={action === 'start' ? <PlayCircleOutlined /> : <PauseCircleOutlined />} data-testid={`plan-${action}`}>
              {label}
            </Button>
          </Popconfirm>,
        ];
      }}
    />
  );
}
