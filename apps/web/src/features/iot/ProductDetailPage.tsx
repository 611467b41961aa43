import { EyeOutlined, SyncOutlined } from '@ant-design/icons';
import { iotQueryEndpoints, iotSyncEndpoints } from '@ess/contract/iot';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Space, Spin, Tabs } from 'antd';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { formatDateTime, ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { iotKeys } from './iot.keys.ts';
import { commandItems, eventItems, propertyItems } from './items.resource.tsx';
import { idOf, LinkButton } from './parts.tsx';
import { useItemSync } from './ProductManagementPage.tsx';
import { RelationTable } from './RelationTable.tsx';

export const useIotProduct = (id: number | null) =>
  useQuery({ queryKey: iotKeys.product(id ?? 0), queryFn: () => call(iotQueryEndpoints.productOne, { id: id! }, { loading: false }), enabled: id !== null, retry: false });

/**
 * /iot/productDetail?id=: one platform product — what the last sync read (properties, events,
 * commands) and its relations to the console's thing model (properties here; events and commands
 * on their own screens).
 */
export function ProductDetailPage() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = idOf(search, 'id');
  const product = useIotProduct(id);
  const canSync = useCan(iotSyncEndpoints.product);
  const { busy, sync, view } = useItemSync('product');
  const defs = useMemo(() => (id ? { property: propertyItems(id), event: eventItems(id), command: commandItems(id) } : null), [id]);
  if (id === null || !defs) return <Result status="warning" title={t('未指定物联网产品')} />;
  if (product.isPending) return <Spin />;
  const p = product.data;
  if (!p) return <Result status="error" title={t('物联网产品不存在')} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="iot-product-detail">
      <Card
        size="small"
        title={<h2 className="ess-resource-title">{p.name}</h2>}
      >
      <div style={{ marginBottom: 12 }}>
          <Space wrap>
            <Button onClick={() => void navigate(`/iot/productEventForm?iotProductId=${p.id}`)} data-testid="goto-event-relations">{t('事件关联')}</Button>
            <Button onClick={() => void navigate(`/iot/productCommandForm?iotProductId=${p.id}`)} data-testid="goto-command-relations">{t('命令关联')}</Button>
            {canSync && (
              <Button type="primary" icon={<SyncOutlined />} loading={busy === `sync-${p.id}`} onClick={() => void sync(p.id)} data-testid="detail-sync">
                {t('同步')}
              </Button>
            )}
          </Space>
      </div>
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'ext', label: t('平台产品编号'), children: <code>{p.externalId}</code> },
            { key: 'app', label: t('物联网应用'), children: p.configName },
            { key: 'model', label: t('属性/事件/命令'), children: `${p.propertyCount} / ${p.eventCount} / ${p.commandCount}` },
            { key: 'devices', label: t('设备数'), children: p.deviceCount },
            { key: 'product', label: t('关联产品'), children: p.productName ?? t('未关联') },
            { key: 'synced', label: t('同步时间'), children: formatDateTime(p.syncedAt) },
            { key: 'desc', label: t('描述'), children: p.description ?? '-', span: 2 },
          ]}
        />
      </Card>
      <Card size="small">
        <Tabs
          items={[
            { key: 'properties', label: t('平台属性'), children: <ResourceTable def={defs.property} /> },
            { key: 'relations', label: t('属性关联'), children: <RelationTable kind="property" iotProductId={p.id} /> },
            {
              key: 'events', label: t('平台事件'),
              children: (
                <ResourceTable
                  def={defs.event}
                  rowActions={(row) => [<LinkButton key="d" icon={<EyeOutlined />} text={t('详情')} testId="event-detail" onClick={() => void navigate(`/iot/productEventDetail?id=${row.id}`)} />]}
                />
              ),
            },
            {
              key: 'commands', label: t('平台命令'),
              children: (
                <ResourceTable
                  def={defs.command}
                  rowActions={(row) => [<LinkButton key="d" icon={<EyeOutlined />} text={t('详情')} testId="command-detail" onClick={() => void navigate(`/iot/productCommandDetail?id=${row.id}`)} />]}
                />
              ),
            },
          ]}
        />
      </Card>
      {view}
    </Space>
  );
}
