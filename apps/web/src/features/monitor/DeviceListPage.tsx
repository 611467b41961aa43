import { deviceEndpoints, type DeviceLatestRecord, type DeviceSortField, type DeviceStatus } from '@ess/contract/device';
import { sortFieldsOf } from '@ess/contract/common';
import { DEVICE_STATUS_LABELS, DEVICE_STATUSES } from '@ess/contract/device';
import { DEVICE_TYPES, type DeviceType } from '@ess/contract/telemetry';
import { Badge, Card, Input, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { LIST_IDENTIFIERS, typeLabel, viewOf } from '../../components/device-types.ts';
import { formatTime, formatValue, thingProperty } from '../../components/format.ts';
import { LIVE_REFRESH_MS, useLatestPage, type LatestPageBody } from './monitor.api.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { DataTable, type SortState } from '../../components/crud/DataTable.tsx';
import { translateBuiltIn } from '../../platform/i18n/translate.ts';

const SORT_FIELDS = sortFieldsOf(deviceEndpoints.latestPage.body);

/** The device page in the monitor section (the registry's is /product/equipmentDetail): opening a device keeps the user here. */
export const DETAIL_PATH = '/monitor/deviceDetail';
export const detailHref = (id: number) => `${DETAIL_PATH}?id=${id}`;

/** /monitor/device: every device in scope with its live state and two live values, read every few seconds. */
export function DeviceListPage() {
  const t = useT();
  const [siteId, setSiteId] = useState<number | undefined>();
  const [type, setType] = useState<DeviceType | undefined>();
  const [status, setStatus] = useState<DeviceStatus | undefined>();
  const [keyword, setKeyword] = useState('');
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const [sort, setSort] = useState<SortState | null>(null);
  const body: LatestPageBody = {
    ...paging,
    ...(sort ? { sortField: sort.field as DeviceSortField, sortOrder: sort.order } : {}),
    identifiers: LIST_IDENTIFIERS,
    ...(siteId ? { siteId } : {}),
    ...(type ? { type } : {}),
    ...(status ? { status } : {}),
    ...(keyword.trim() ? { keyword: keyword.trim() } : {}),
  };
  const page = useLatestPage(body);
  const filtered = (set: () => void) => {
    set();
    setPaging((p) => ({ ...p, current: 1 }));
  };

  // Name, state and live values first: on a 1024 px screen they are what shows without scrolling.
  const columns = useMemo<ColumnsType<DeviceLatestRecord>>(
    () => [
      {
        title: t('设备名称'), dataIndex: 'name', width: 180, ellipsis: true,
        render: (_: unknown, r) => <Link to={detailHref(r.id)}>{translateBuiltIn(r.name)}</Link>,
      },
      { title: t('状态'), dataIndex: 'status', width: 100, render: (v: DeviceStatus) => <StatusBadge status={v} /> },
      {
        title: t('实时数据'), key: 'values', width: 260,
        render: (_: unknown, r) => {
          const ids = viewOf(r.type)?.list ?? [];
          return (
            <Space size={4} wrap>
              {ids.map((id) => {
                const prop = thingProperty(r.type, id);
                const v = formatValue(prop, r.values[id], t);
                return (
                  <Tag key={id} data-testid={`value-${id}`}>
                    {prop ? `${t(prop.label)}: ` : ''}
                    {v.colour ? <Badge color={v.colour} text={v.text} /> : v.text}
                  </Tag>
                );
              })}
            </Space>
          );
        },
      },
      { title: t('设备编码'), dataIndex: 'code', width: 170, ellipsis: true },
      { title: t('设备类型'), dataIndex: 'type', width: 130, render: (v: string) => t(typeLabel(v)) },
      { title: t('所属站点'), dataIndex: 'siteName', width: 160, ellipsis: true },
      { title: t('上级设备'), dataIndex: 'parentName', width: 160, ellipsis: true, render: (v: string | null) => (v ? translateBuiltIn(v) : '-') },
      { title: t('最后上报时间'), dataIndex: 'lastSeenAt', width: 170, render: (v: string | null) => formatTime(v) },
    ],
    [t],
  );

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <StationPicker value={siteId} onChange={(v) => filtered(() => setSiteId(v))} onClear={() => filtered(() => setSiteId(undefined))} />
        <Select
          aria-label={t('设备类型')}
          value={type}
          onChange={(v: DeviceType | undefined) => filtered(() => setType(v))}
          options={DEVICE_TYPES.map((d) => ({ value: d, label: t(typeLabel(d)) }))}
          allowClear
          placeholder={t('设备类型')}
          style={{ width: 170 }}
        />
        <Select
          aria-label={t('状态')}
          value={status}
          onChange={(v: DeviceStatus | undefined) => filtered(() => setStatus(v))}
          options={DEVICE_STATUSES.map((s) => ({ value: s, label: t(DEVICE_STATUS_LABELS[s].label) }))}
          allowClear
          placeholder={t('状态')}
          style={{ width: 130 }}
        />
        <Input.Search
          aria-label={t('编码、名称或条码')}
          placeholder={t('编码、名称或条码')}
          allowClear
          onSearch={(v) => filtered(() => setKeyword(v))}
          style={{ width: 240 }}
        />
        <Typography.Text type="secondary">{t('每 $1 秒自动刷新', LIVE_REFRESH_MS / 1000)}</Typography.Text>
      </Space>
      <DataTable<DeviceLatestRecord>
        rowKey="id"
        size="middle"
        data-testid="device-table"
        columns={columns}
        dataSource={page.data?.records ?? []}
        loading={page.isLoading}
        sortFields={SORT_FIELDS}
        sort={sort}
        onSort={(s) => filtered(() => setSort(s))}
        pagination={{
          current: paging.current,
          pageSize: paging.pageSize,
          total: page.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => t('共 $1 条', n),
          onChange: (current, pageSize) => setPaging({ current, pageSize }),
        }}
      />
    </Card>
  );
}
