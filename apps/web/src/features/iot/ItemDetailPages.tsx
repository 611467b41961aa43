import { ArrowLeftOutlined } from '@ant-design/icons';
import { iotQueryEndpoints, type IotCommandRecord, type IotEventRecord, type IotParamRecord } from '@ess/contract/iot';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Space, Spin, Table, Tag } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { iotKeys } from './iot.keys.ts';
import { idOf } from './parts.tsx';

const quiet = { loading: false } as const;

/** A platform event's fields or a command's inputs and outputs. */
function ParamTable({ owner, id }: { owner: 'event' | 'command'; id: number }) {
  const t = useT();
  const params = useQuery({
    queryKey: iotKeys.params(owner, id),
    queryFn: () => call(iotQueryEndpoints.paramList, owner === 'event' ? { eventId: id } : { commandId: id }, quiet),
  });
  return (
    <Table<IotParamRecord>
      rowKey="id"
      size="small"
      loading={params.isPending}
      dataSource={params.data ?? []}
      pagination={false}
      data-testid={`params-${owner}`}
      locale={{ emptyText: t('没有参数') }}
      columns={[
        { key: 'direction', title: t('方向'), width: 90, render: (_v, p) => <Tag>{t(p.direction === 'input' ? '输入' : '输出')}</Tag> },
        { key: 'identifier', title: t('标识'), render: (_v, p) => <code>{p.identifier}</code> },
        { key: 'name', title: t('名称'), dataIndex: 'name' },
        { key: 'dataType', title: t('数据类型'), render: (_v, p) => <code>{p.dataType}</code> },
        { key: 'unit', title: t('单位'), render: (_v, p) => p.unit ?? '-' },
      ]}
    />
  );
}

/** /iot/productEventDetail?id= and /iot/productCommandDetail?id=: one platform event or command, its parameters and what it is related to. */
function ItemDetail({ kind }: { kind: 'event' | 'command' }) {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = idOf(search, 'id');
  const item = useQuery({
    queryKey: iotKeys.item(kind, id ?? 0),
    queryFn: (): Promise<IotEventRecord | IotCommandRecord> => (kind === 'event' ? call(iotQueryEndpoints.eventOne, { id: id! }, quiet) : call(iotQueryEndpoints.commandOne, { id: id! }, quiet)),
    enabled: id !== null,
    retry: false,
  });
  const none = kind === 'event' ? '物联网事件不存在' : '物联网命令不存在';
  if (id === null) return <Result status="warning" title={t(none)} />;
  if (item.isPending) return <Spin />;
  const it = item.data;
  if (!it) return <Result status="error" title={t(none)} />;
  const relations = kind === 'event' ? `/iot/productEventForm?iotProductId=${it.iotProductId}` : `/iot/productCommandForm?iotProductId=${it.iotProductId}`;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid={`iot-${kind}-detail`}>
      <Card
        size="small"
        title={<h2 className="ess-resource-title">{`${it.name} (${it.identifier})`}</h2>}
      >
      <div style={{ marginBottom: 12 }}>
          <Space wrap>
            <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(`/iot/productDetail?id=${it.iotProductId}`)}>{t('返回产品详情')}</Button>
            <Button type="primary" onClick={() => void navigate(relations)} data-testid="goto-relations">{t(kind === 'event' ? '事件关联' : '命令关联')}</Button>
          </Space>
      </div>
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'identifier', label: t('标识'), children: <code>{it.identifier}</code> },
            { key: 'name', label: t('名称'), children: it.name },
            { key: 'product', label: t('物联网产品'), children: it.iotProductName },
            { key: 'app', label: t('物联网应用'), children: it.configName },
            'level' in it
              ? { key: 'level', label: t('级别'), children: it.level ?? '-' }
              : { key: 'async', label: t('异步'), children: t(it.async ? '是' : '否') },
            { key: 'related', label: t('关联标识'), children: it.relatedIdentifier ? <code>{it.relatedIdentifier}</code> : t('未关联') },
          ]}
        />
      </Card>
      <Card size="small" title={<h3 className="ess-resource-title">{t(kind === 'event' ? '事件字段' : '输入与输出参数')}</h3>}>
        <ParamTable owner={kind} id={it.id} />
      </Card>
    </Space>
  );
}

export const ProductEventDetailPage = () => <ItemDetail kind="event" />;
export const ProductCommandDetailPage = () => <ItemDetail kind="command" />;
