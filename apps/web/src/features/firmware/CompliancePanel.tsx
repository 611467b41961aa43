import { firmwareComplianceEndpoints, type FirmwareComplianceRow } from '@ess/contract/firmware';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Form, Progress, Row, Select, Space, Statistic, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime, useOptionSource } from '../../components/crud/index.ts';
import { typeLabel } from '../../components/device-types.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { productSource } from '../../components/options/products.ts';
import { siteSource } from '../../components/options/sites.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { DEVICE_TYPE_OPTIONS } from './firmware.options.ts';

interface Filters {
  deviceType?: FirmwareComplianceRow['deviceType'];
  productId?: number;
  siteIds?: number[];
}

/** The devices behind the latest version and those whose version changed with a replacement. */
function RowDevices({ row }: { row: FirmwareComplianceRow }) {
  const t = useT();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text strong>{t('落后于最新版本的设备（$1）', row.behind)}</Typography.Text>
      <Table
        size="small"
        rowKey="deviceId"
        pagination={false}
        dataSource={row.lagging}
        data-testid="compliance-lagging"
        columns={[
          { key: 'code', title: t('设备编码'), dataIndex: 'code' },
          { key: 'name', title: t('设备名称'), dataIndex: 'name' },
          { key: 'site', title: t('所属站点'), dataIndex: 'siteName' },
          { key: 'version', title: t('当前版本'), render: (_v, d) => (d.firmwareVersion ? <code>{d.firmwareVersion}</code> : t('未上报')) },
        ]}
      />
      {row.drift.length > 0 && (
        <>
          <Typography.Text strong type="warning">{t('更换设备后的版本漂移（$1）', row.drift.length)}</Typography.Text>
          <Table
            size="small"
            rowKey="deviceId"
            pagination={false}
            dataSource={row.drift}
            data-testid="compliance-drift"
            columns={[
              { key: 'code', title: t('设备编码'), dataIndex: 'code' },
              { key: 'old', title: t('原设备编码'), dataIndex: 'oldCode' },
              { key: 'site', title: t('所属站点'), dataIndex: 'siteName' },
              { key: 'prev', title: t('原版本'), render: (_v, d) => (d.previousVersion ? <code>{d.previousVersion}</code> : '-') },
              { key: 'now', title: t('当前版本'), render: (_v, d) => (d.firmwareVersion ? <code>{d.firmwareVersion}</code> : t('未上报')) },
              { key: 'at', title: t('更换时间'), render: (_v, d) => formatDateTime(d.replacedAt) },
            ]}
          />
        </>
      )}
    </Space>
  );
}

/** The compliance tab: per device type and product, how many devices run which version, who lags behind the latest released package, and drift after replacements. */
export function CompliancePanel() {
  const t = useT();
  const [filters, setFilters] = useState<Filters>({});
  const products = useOptionSource(productSource);
  const sites = useOptionSource(siteSource);
  const q = useMemo(() => ({ ...filters, siteIds: filters.siteIds ?? [] }), [filters]);
  const result = useQuery({ queryKey: firmwareKeys.compliance(q), queryFn: () => call(firmwareComplianceEndpoints.query, q, { loading: false }) });
  const totals = result.data?.totals;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="compliance">
      <Form layout="inline" onValuesChange={(_c, all: Filters) => setFilters(all)}>
        <Form.Item name="deviceType" label={t('设备类型')}>
          <Select allowClear style={{ width: 180 }} options={DEVICE_TYPE_OPTIONS.map((o) => ({ value: o.value as string, label: t(o.label) }))} />
        </Form.Item>
        <Form.Item name="productId" label={t('产品')}>
          <Select allowClear showSearch optionFilterProp="label" style={{ width: 200 }} options={products.data ?? []} />
        </Form.Item>
        <Form.Item name="siteIds" label={t('站点')}>
          <Select mode="multiple" allowClear optionFilterProp="label" style={{ minWidth: 240 }} options={sites.data ?? []} />
        </Form.Item>
      </Form>
      {totals && (
        <Row gutter={16}>
          <Col span={5}><Card size="small"><Statistic title={t('设备数')} value={totals.devices} /></Card></Col>
          <Col span={5}><Card size="small"><Statistic title={t('已是最新版本')} value={totals.current} valueStyle={{ color: '#237804' }} /></Card></Col>
          <Col span={5}><Card size="small"><Statistic title={t('落后于最新版本')} value={totals.behind} valueStyle={{ color: '#ad4e00' }} /></Card></Col>
          <Col span={5}><Card size="small"><Statistic title={t('版本未知')} value={totals.unknown} /></Card></Col>
          <Col span={4}><Card size="small"><Statistic title={t('版本漂移')} value={totals.drift} /></Card></Col>
        </Row>
      )}
      <Table<FirmwareComplianceRow>
        size="small"
        loading={result.isPending}
        rowKey={(r) => `${r.deviceType}-${r.productId}-${r.firmwareName ?? ''}`}
        dataSource={result.data?.rows ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('暂无设备')} /> }}
        expandable={{ expandedRowRender: (r) => <RowDevices row={r} />, rowExpandable: (r) => r.lagging.length > 0 || r.drift.length > 0 }}
        data-testid="compliance-table"
        columns={[
          { key: 'type', title: t('设备类型'), render: (_v, r) => t(typeLabel(r.deviceType)) },
          { key: 'product', title: t('产品'), dataIndex: 'productName' },
          { key: 'firmware', title: t('固件名称'), render: (_v, r) => r.firmwareName ?? '-' },
          { key: 'total', title: t('设备数'), dataIndex: 'total' },
          {
            key: 'versions', title: t('版本分布'),
            render: (_v, r) =>
              r.versions.map((v) => (
                <ToneTag key={v.version ?? '-'} tone={v.latest ? 'success' : v.version && r.latestVersion ? 'warning' : 'default'}>
                  {`${v.version ?? t('未上报')} × ${v.count}`}
                </ToneTag>
              )),
          },
          {
            key: 'latest', title: t('最新发布版本'),
            render: (_v, r) => (r.latestVersion && r.latestPackageId ? <Link to={`/firmware/detail?id=${r.latestPackageId}`}><code>{r.latestVersion}</code></Link> : t('无升级包')),
          },
          {
            key: 'current', title: t('合规率'),
            render: (_v, r) => <Progress percent={r.total ? Math.round((r.current / r.total) * 100) : 0} size="small" style={{ minWidth: 120 }} aria-label={t('合规率')} />,
          },
          { key: 'behind', title: t('落后'), render: (_v, r) => (r.behind ? <Typography.Text type="warning">{r.behind}</Typography.Text> : 0) },
          { key: 'drift', title: t('漂移'), render: (_v, r) => r.drift.length },
        ]}
      />
    </Space>
  );
}
