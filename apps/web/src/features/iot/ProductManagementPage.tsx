import { EyeOutlined, SyncOutlined } from '@ant-design/icons';
import { iotSyncEndpoints, type IotSyncDetail } from '@ess/contract/iot';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { LinkButton, useRowCall } from './parts.tsx';
import { productResource } from './product.resource.tsx';
import { SyncModal } from './SyncView.tsx';

/** The sync of one platform product or device: its plan (or what was applied) in the sync view. */
export function useItemSync(scope: 'product' | 'device') {
  const { busy, run } = useRowCall();
  const [plan, setPlan] = useState<IotSyncDetail | null>(null);
  const sync = async (id: number) => {
    const r = await run(`sync-${id}`, () => (scope === 'product' ? call(iotSyncEndpoints.product, { productId: id }) : call(iotSyncEndpoints.device, { deviceId: id })));
    if (r) setPlan(r);
  };
  const view = plan ? <SyncModal run={plan} onClose={() => setPlan(null)} /> : null;
  return { busy, sync, view };
}

/** /iot/productManagement: the platforms' products; each opens its thing model and relations, or is synced alone. */
export function ProductManagementPage() {
  const t = useT();
  const navigate = useNavigate();
  const canSync = useCan(iotSyncEndpoints.product);
  const { busy, sync, view } = useItemSync('product');
  return (
    <>
      <ResourceTable
        def={productResource}
        emptyText={t('还没有物联网产品：先在“应用配置”中添加物联网应用并同步')}
        rowActions={(row) => [
          <LinkButton key="detail" icon={<EyeOutlined />} text={t('详情')} testId="product-detail" onClick={() => void navigate(`/iot/productDetail?id=${row.id}`)} />,
          ...(canSync ? [<LinkButton key="sync" icon={<SyncOutlined />} text={t('同步')} testId="product-sync" loading={busy === `sync-${row.id}`} onClick={() => void sync(row.id)} />] : []),
        ]}
      />
      {view}
    </>
  );
}
