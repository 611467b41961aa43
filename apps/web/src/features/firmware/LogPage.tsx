import { DownloadOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { firmwareLogAdd, firmwareLogEndpoints, type FirmwareLogDevice } from '@ess/contract/firmware';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Descriptions, Drawer, Form, Input, InputNumber, Select, Space, Spin, Table, TreeSelect, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { ResourceTable, formatDateTime, useOptionSource, validateWith } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { siteSource } from '../../components/options/sites.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call, callFile } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { FALLBACK_MS, useFirmwareLive } from './firmware.live.ts';
import { deviceQuery, formatBytes } from './firmware.options.ts';
import { logResource } from './log.resource.tsx';
import { CaptureStateTag, LinkButton, LogStateTag } from './parts.tsx';

export interface LogForm {
  companyId?: number;
  name?: string;
  siteIds?: number[];
  deviceIds?: number[];
  range?: [string, string] | null;
  timeoutMinutes?: number | null;
  remark?: string | null;
}

export const LOG_LABELS: Record<string, string> = {
  companyId: '所属公司',
  name: '抓取任务名称',
  deviceIds: '设备',
  from: '日志时间范围',
  to: '日志时间范围',
  timeoutMinutes: '上传超时（分钟）',
  remark: '备注',
};

/** The capture's body checked by the contract (devices 1–500, from before to, timeout 1–1440); errors keyed by form field. */
export function checkLog(v: LogForm, t: (s: string, ...a: unknown[]) => string) {
  const body = {
    companyId: v.companyId,
    name: v.name,
    deviceIds: v.deviceIds ?? [],
    from: v.range?.[0],
    to: v.range?.[1],
    ...(v.timeoutMinutes ? { timeoutMinutes: v.timeoutMinutes } : {}),
    remark: v.remark || null,
  };
  const checked = validateWith(firmwareLogAdd, body, LOG_LABELS, t);
  if (checked.ok) return { ok: true as const, body: checked.data };
  const { from, to, ...rest } = checked.errors.fields;
  const range = [...new Set([...(from ?? []), ...(to ?? [])])];
  return { ok: false as const, errors: { fields: range.length ? { ...rest, range } : rest, form: checked.errors.form } };
}

/** Ask devices to upload their logs for a time range. */
function CaptureDrawer({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<LogForm>();
  const [saving, setSaving] = useState(false);
  const companies = useOptionSource(companyTreeSource);
  const sites = useOptionSource(siteSource);
  const siteIds = Form.useWatch('siteIds', form) ?? [];
  const devices = useQuery(deviceQuery(siteIds));
  const deviceOptions = useMemo(() => (devices.data ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.code})` })), [devices.data]);
  const save = async () => {
    const checked = checkLog(form.getFieldsValue(true) as LogForm, t);
    if (!checked.ok) {
      form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as keyof LogForm, errors })));
      return;
    }
    setSaving(true);
    try {
      await call(firmwareLogEndpoints.add, checked.body);
      void message.success(t('已下发日志抓取'));
      void client.invalidateQueries({ queryKey: firmwareKeys.logs });
      onClose();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };
  return (
    <Drawer
      open
      title={t('新建日志抓取')}
      width={640}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('取消')}</Button>
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="log-save">
            {t('下发')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" data-testid="log-form" initialValues={{ range: [dayjs().subtract(1, 'hour').toISOString(), dayjs().toISOString()] }}>
        <Form.Item name="companyId" label={t(LOG_LABELS.companyId!)} required>
          <TreeSelect aria-label={t(LOG_LABELS.companyId!)} treeData={companies.data ?? []} treeDefaultExpandAll showSearch treeNodeFilterProp="label" />
        </Form.Item>
        <Form.Item name="name" label={t(LOG_LABELS.name!)} required>
          <Input maxLength={64} data-testid="log-name" />
        </Form.Item>
        <Form.Item name="siteIds" label={t('站点')} help={t('先选站点以缩小设备范围')}>
          <Select aria-label={t('站点')} mode="multiple" allowClear optionFilterProp="label" options={sites.data ?? []} onChange={() => form.setFieldValue('deviceIds', [])} />
        </Form.Item>
        <Form.Item name="deviceIds" label={t(LOG_LABELS.deviceIds!)} required help={t('一次最多500台设备')}>
          <Select aria-label={t(LOG_LABELS.deviceIds!)} mode="multiple" allowClear optionFilterProp="label" options={deviceOptions} loading={devices.isPending} maxTagCount="responsive" data-testid="log-devices" />
        </Form.Item>
        <Form.Item
          name="range"
          label={t(LOG_LABELS.from!)}
          required
          getValueProps={(v: unknown) => ({ value: Array.isArray(v) ? v.map((x) => (x ? dayjs(x as string) : null)) : null })}
          getValueFromEvent={(v: [dayjs.Dayjs | null, dayjs.Dayjs | null] | null) => (v ? v.map((d) => (d ? d.toISOString() : null)) : null)}
        >
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="timeoutMinutes" label={t(LOG_LABELS.timeoutMinutes!)} help={t('不填则使用固件设置中的日志上传超时')}>
          <InputNumber min={1} max={1440} style={{ width: '100%' }} data-testid="log-timeout" />
        </Form.Item>
        <Form.Item name="remark" label={t(LOG_LABELS.remark!)}>
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** One capture: per device its upload state (uploading, upload complete, upload timeout, upload failed), and the file to download; read again while it runs. */
function CaptureDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useT();
  const canDownload = useCan(firmwareLogEndpoints.download);
  const one = useQuery({
    queryKey: firmwareKeys.log(id),
    queryFn: () => call(firmwareLogEndpoints.one, { id }, { loading: false }),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? FALLBACK_MS : false),
  });
  const c = one.data;
  return (
    <Drawer open title={c?.name ?? t('日志抓取任务')} width={960} onClose={onClose} destroyOnHidden>
      {!c ? (
        <Spin />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="log-detail">
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              { key: 'state', label: t('状态'), children: <CaptureStateTag state={c.state} /> },
              { key: 'range', label: t('日志时间范围'), children: `${formatDateTime(c.from)} – ${formatDateTime(c.to)}` },
              { key: 'timeout', label: t('上传超时（分钟）'), children: c.timeoutMinutes },
              { key: 'counts', label: t('上传完成 / 设备数'), children: `${c.counts.uploaded} / ${c.counts.total}` },
              { key: 'creator', label: t('创建人'), children: `${c.createdByName ?? '-'} · ${formatDateTime(c.createdAt)}` },
              { key: 'remark', label: t('备注'), children: c.remark ?? '-' },
            ]}
          />
          <Table<FirmwareLogDevice>
            size="small"
            rowKey="id"
            dataSource={c.devices}
            pagination={{ pageSize: 20, size: 'small' }}
            data-testid="log-devices-table"
            scroll={{ x: 'max-content' }}
            columns={[
              { key: 'code', title: t('设备编码'), dataIndex: 'deviceCode' },
              { key: 'name', title: t('设备名称'), dataIndex: 'deviceName', ellipsis: true },
              { key: 'site', title: t('所属站点'), dataIndex: 'siteName', ellipsis: true },
              { key: 'state', title: t('状态'), render: (_v, d) => <LogStateTag state={d.state} /> },
              { key: 'bytes', title: t('文件大小'), render: (_v, d) => formatBytes(d.bytes) },
              { key: 'reason', title: t('原因'), ellipsis: true, render: (_v, d) => d.reason ?? '-' },
              { key: 'issued', title: t('下发时间'), render: (_v, d) => formatDateTime(d.issuedAt) },
              { key: 'finished', title: t('结束时间'), render: (_v, d) => formatDateTime(d.finishedAt) },
              {
                key: 'download', title: t('操作'),
                render: (_v, d) =>
                  canDownload && d.hasFile ? (
                    <LinkButton
                      icon={<DownloadOutlined />}
                      text={t('下载日志')}
                      testId="log-download"
                      onClick={() => void callFile(firmwareLogEndpoints.download, { id: d.id }, { fileName: `${d.deviceCode}.log` }).catch(() => undefined)}
                    />
                  ) : (
                    <Typography.Text type="secondary">-</Typography.Text>
                  ),
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

/** /firmware/log: log capture — create, list, per-device states, download a device's log. */
export function LogPage() {
  const t = useT();
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const canAdd = useCan(firmwareLogEndpoints.add);
  useFirmwareLive();
  return (
    <>
      <ResourceTable
        def={logResource}
        emptyText={t('还没有日志抓取任务：点击新建日志抓取')}
        toolbar={() =>
          canAdd
            ? [
                <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="log-add">
                  {t('新建日志抓取')}
                </Button>,
              ]
            : []
        }
        rowActions={(row) => [<LinkButton key="detail" icon={<EyeOutlined />} text={t('详情')} testId="log-detail-open" onClick={() => setOpen(row.id)} />]}
      />
      {adding && <CaptureDrawer onClose={() => setAdding(false)} />}
      {open !== null && <CaptureDetail id={open} onClose={() => setOpen(null)} />}
    </>
  );
}
