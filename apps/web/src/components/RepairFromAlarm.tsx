import { ToolOutlined } from '@ant-design/icons';
import type { AlarmRecord } from '@ess/contract/alarm';
import { maintenanceEndpoints } from '@ess/contract/maintenance';
import { App, Button, Popconfirm } from 'antd';
import { useNavigate } from 'react-router';
import { useT } from '../platform/i18n/useT.ts';
import { useCan } from '../platform/permissions.ts';
import { call, RequestError } from '../platform/request.ts';

/**
 * "Create repair order" on an alarm (monitor and kanban rows): one action that carries the device,
 * level, description and the device's last hour of telemetry into a new repair order (the server
 * does the carrying; one order per alarm), then opens it. Shown only to who may create repair
 * orders. When the alarm already has its order, that order opens.
 */
export function RepairFromAlarm({ alarm }: { alarm: Pick<AlarmRecord, 'id' | 'no'> }) {
  const t = useT();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const canAdd = useCan(maintenanceEndpoints.repairAdd);
  const canList = useCan(maintenanceEndpoints.repairList);
  if (!canAdd) return null;
  const create = async () => {
    try {
      const { id } = await call(maintenanceEndpoints.repairAdd, { alarmId: alarm.id }, { noMessage: canList });
      void message.success(t('已创建维修工单'));
      void navigate(`/repair/order-detail?id=${id}`);
    } catch (err) {
      if (!canList || !(err instanceof RequestError)) return;
      // The alarm has its order already (one per alarm): open it; otherwise show the refusal.
      const [existing] = await call(maintenanceEndpoints.repairList, { alarmId: alarm.id }, { loading: false }).catch(() => []);
      if (existing) void navigate(`/repair/order-detail?id=${existing.id}`);
      else void message.error(err.message);
    }
  };
  return (
    <Popconfirm
      title={t('为告警 $1 创建维修工单？设备、等级、描述和最近一小时遥测将一并带入', alarm.no)}
      okText={t('创建维修工单')}
      cancelText={t('取消')}
      onConfirm={() => void create()}
    >
      <Button type="link" size="small" icon={<ToolOutlined />} data-testid="alarm-repair">
        {t('创建维修工单')}
      </Button>
    </Popconfirm>
  );
}
