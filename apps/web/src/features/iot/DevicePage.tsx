import { EyeOutlined, SyncOutlined } from '@ant-design/icons';
import { iotSyncEndpoints } from '@ess/contract/iot';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { LinkButton } from './parts.tsx';
import { deviceResource } from './product.resource.tsx';
import { useItemSync } from './ProductManagementPage.tsx';

/** /iot/device: the platforms' devices, their connectivity and the console device each feeds. */
export function DevicePage() {
  const t = useT();
  const navigate = useNavigate();
  const canSync = useCan(iotSyncEndpoints.device);
  const { busy, sync, view } = useItemSync('device');
  return (
    <>
      <ResourceTable
        def={deviceResource}
        emptyText={t('还没有物联网设备：先在“应用配置”中添加物联网应用并同步')}
        rowActions={(row) => [
          <LinkButton key="detail" icon={<EyeOutlined />} text={t('详情')} testId="device-detail" onClick={() => void navigate(`/iot/deviceDetail?id=${row.id}`)} />,
          ...(canSync ? [<LinkButton key="sync" icon={<SyncOutlined />} text={t('同步')} testId="device-sync" loading={busy === `sync-${row.id}`} onClick={() => void sync(row.id)} />] : []),
        ]}
      />
      {view}
    </>
  );
}
