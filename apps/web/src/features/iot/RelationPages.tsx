import { ArrowLeftOutlined } from '@ant-design/icons';
import { iotRelateEndpoints } from '@ess/contract/iot';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Space, Spin } from 'antd';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { iotKeys } from './iot.keys.ts';
import { paramResource } from './param.resource.tsx';
import { idOf } from './parts.tsx';
import { useIotProduct } from './ProductDetailPage.tsx';
import { RelationTable } from './RelationTable.tsx';
import { ENABLED_OPTIONS } from './iot.options.ts';
import { StatusBadge } from '../../components/crud/index.ts';

/** The header of a product's relation screen: the platform product and the way back to it. */
function ProductHeader({ iotProductId, title }: { iotProductId: number; title: string }) {
  const t = useT();
  const navigate = useNavigate();
  const product = useIotProduct(iotProductId);
  if (product.isPending) return <Spin />;
  if (!product.data) return <Result status="error" title={t('物联网产品不存在')} />;
  return (
    <Card
      size="small"
      title={<h2 className="ess-resource-title">{`${product.data.name} · ${t(title)}`}</h2>}
      extra={<Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(`/iot/productDetail?id=${iotProductId}`)}>{t('返回产品详情')}</Button>}
    >
      <Descriptions
        size="small"
        column={{ xs: 1, md: 3 }}
        items={[
          { key: 'app', label: t('物联网应用'), children: product.data.configName },
          { key: 'product', label: t('关联产品'), children: product.data.productName ?? t('未关联') },
          { key: 'model', label: t('属性/事件/命令'), children: `${product.data.propertyCount} / ${product.data.eventCount} / ${product.data.commandCount}` },
        ]}
      />
    </Card>
  );
}

/** /iot/productEventForm?iotProductId=: a platform product's event relations (platform event → event code, value map). */
export function ProductEventFormPage() {
  const t = useT();
  const [search] = useSearchParams();
  const iotProductId = idOf(search, 'iotProductId');
  if (iotProductId === null) return <Result status="warning" title={t('未指定物联网产品')} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ProductHeader iotProductId={iotProductId} title="事件关联" />
      <RelationTable kind="event" iotProductId={iotProductId} />
    </Space>
  );
}

/** One command relation with its parameter relations (platform input → request parameter). */
function CommandRelation({ id }: { id: number }) {
  const t = useT();
  const navigate = useNavigate();
  const rc = useQuery({ queryKey: iotKeys.relation('command', id), queryFn: () => call(iotRelateEndpoints.commandOne, { id }, { loading: false }), retry: false });
  const def = useMemo(() => (rc.data ? paramResource(rc.data) : null), [rc.data]);
  if (rc.isPending) return <Spin />;
  if (!rc.data || !def) return <Result status="error" title={t('关联不存在')} />;
  const r = rc.data;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="command-relation">
      <Card
        size="small"
        title={<h2 className="ess-resource-title">{`${r.iotProductName} · ${r.iotCommandIdentifier} → ${r.identifier}`}</h2>}
        extra={<Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(`/iot/productCommandForm?iotProductId=${r.iotProductId}`)}>{t('返回命令关联')}</Button>}
      >
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'item', label: t('平台命令'), children: <code>{r.iotCommandIdentifier}</code> },
            { key: 'target', label: t('命令标识'), children: <code>{r.identifier}</code> },
            { key: 'product', label: t('产品'), children: r.productName },
            { key: 'level', label: t('层级'), children: r.iotDeviceName ? `${t('设备')} · ${r.iotDeviceName}` : t('产品级') },
            { key: 'active', label: t('状态'), children: <StatusBadge options={ENABLED_OPTIONS} value={r.active} t={t} /> },
          ]}
        />
      </Card>
      <Card size="small" title={<h3 className="ess-resource-title">{t('参数关联')}</h3>}>
        <ResourceTable def={def} emptyText={t('还没有参数关联：点击“新增”把平台命令的输入参数映射到产品命令的请求参数')} />
      </Card>
    </Space>
  );
}

/**
 * /iot/productCommandForm: ?iotProductId= a platform product's command relations (platform
 * command → console command); ?id= one command relation and its parameter relations.
 */
export function ProductCommandFormPage() {
  const t = useT();
  const [search] = useSearchParams();
  const id = idOf(search, 'id');
  const iotProductId = idOf(search, 'iotProductId');
  if (id !== null) return <CommandRelation id={id} />;
  if (iotProductId === null) return <Result status="warning" title={t('未指定物联网产品')} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ProductHeader iotProductId={iotProductId} title="命令关联" />
      <RelationTable kind="command" iotProductId={iotProductId} />
    </Space>
  );
}
