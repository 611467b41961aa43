import { ToolOutlined } from '@ant-design/icons';
import { maintenanceEndpoints, type DefectRecord } from '@ess/contract/maintenance';
import { App, Button, Popconfirm } from 'antd';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { useMaintRefresh } from './maintenance.api.ts';
import { defectResource } from './defect.resource.tsx';

/** A defect can raise a repair order while it is open and has none. */
export const canRaiseRepair = (d: Pick<DefectRecord, 'status' | 'repairOrderId'>) => d.status === 'open' && d.repairOrderId === null;

/**
 * /patrol/flaw: defects with their device, level, description and photos; an open defect raises a
 * repair order in one action (device and photos carried over), which then opens.
 */
export function DefectPage() {
  const t = useT();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const refresh = useMaintRefresh();
  const canRepair = useCan(maintenanceEndpoints.repairAdd);
  const raise = async (d: DefectRecord) => {
    try {
      const { id } = await call(maintenanceEndpoints.repairAdd, { defectId: d.id });
      void message.success(t('已创建维修工单'));
      await refresh();
      void navigate(`/repair/order-detail?id=${id}`);
    } catch {
      // The request layer has shown the reason.
    }
  };
  return (
    <ResourceTable
      def={defectResource}
      rowActions={(row) =>
        canRepair && canRaiseRepair(row)
          ? [
              <Popconfirm
                key="repair"
                title={t('为该缺陷创建维修工单？设备和照片将一并带入')}
                okText={t('创建维修工单')}
                cancelText={t('取消')}
                onConfirm={() => void raise(row)}
              >
                <Button type="link" size="small" icon={<ToolOutlined />} data-testid="defect-repair">
                  {t('转维修')}
                </Button>
              </Popconfirm>,
            ]
          : []
      }
    />
  );
}
