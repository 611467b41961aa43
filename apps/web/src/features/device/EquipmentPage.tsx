import { CloudUploadOutlined, DownloadOutlined, HistoryOutlined, UploadOutlined, WifiOutlined } from '@ant-design/icons';
import { deviceEndpoints, type EmsCheckResult, type ImportRowError } from '@ess/contract/device';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Form, Modal, Result, Select, Upload } from 'antd';
import { useState } from 'react';
import { formatDateTime, ResourceTable, useOptionSource } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { ImportReport } from '../../components/ImportReport.tsx';
import { isXlsx, uploadSheet } from '../../components/upload-sheet.ts';
import { equipmentApi, type ImportEndpoint } from './device.api.ts';
import { siteSource } from '../../components/options/sites.ts';
import { productSource } from '../../components/options/products.ts';
import { deviceResource, importHistoryResource } from './device.resource.tsx';
import { deviceKeys } from './device.keys.ts';

type Report = { tip: string; errors: ImportRowError[] } | null;

/** An xlsx upload button whose refusal opens the per-row report. */
function ImportButton({ endpoint, label, testId, onReport }: { endpoint: ImportEndpoint; label: string; testId: string; onReport: (r: Report) => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  return (
    <Upload
      accept=".xlsx"
      showUploadList={false}
      beforeUpload={(file) => {
        if (!isXlsx(file, (text) => void message.error(text), t)) return Upload.LIST_IGNORE;
        setBusy(true);
        void uploadSheet(endpoint, file)
          .then((r) => {
            if (r.ok) {
              void message.success(t('导入成功：新增 $1 条，更新 $2 条', r.result.created, r.result.updated));
              // Every list of this screen (devices, their live states, import history, pickers).
              void client.invalidateQueries({ queryKey: deviceKeys.all });
            } else onReport({ tip: r.tip, errors: r.errors });
          })
          .finally(() => setBusy(false));
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} loading={busy} data-testid={testId}>
        {t(label)}
      </Button>
    </Upload>
  );
}

/** Export of one product's static values per device (optionally of one station). */
function ProductExport({ onClose }: { onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<{ productId?: number; siteId?: number }>();
  const products = useOptionSource(productSource);
  const sites = useOptionSource(siteSource);
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open
      title={t('导出产品数据')}
      okText={t('导出')}
      cancelText={t('取消')}
      confirmLoading={busy}
      onCancel={onClose}
      onOk={() =>
        void form.validateFields().then((v) => {
          setBusy(true);
          void equipmentApi
            .exportProductData(v.productId!, v.siteId)
            .then(onClose, () => undefined)
            .finally(() => setBusy(false));
        })
      }
    >
      <Form form={form} layout="vertical">
        <Form.Item name="productId" label={t('产品')} rules={[{ required: true, message: t('$1不能为空', t('产品')) }]}>
          <Select options={products.data ?? []} showSearch optionFilterProp="label" placeholder={t('请选择')} />
        </Form.Item>
        <Form.Item name="siteId" label={t('所属站点')}>
          <Select options={sites.data ?? []} allowClear showSearch optionFilterProp="label" placeholder={t('全部站点')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Asks a station's EMS whether it answers (registry state and a probe over MQTT). */
function EmsCheck({ onClose }: { onClose: () => void }) {
  const t = useT();
  const sites = useOptionSource(siteSource);
  const [siteId, setSiteId] = useState<number | undefined>();
  const [result, setResult] = useState<EmsCheckResult | null>(null);
  const [busy, setBusy] = useState(false);
  const run = () => {
    if (!siteId) return;
    setBusy(true);
    setResult(null);
    void equipmentApi
      .checkEms(siteId)
      .then(setResult, () => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <Modal open title={t('EMS检测')} onCancel={onClose} footer={null} width={560}>
      <div style={{ display: 'flex', gap: 8, marginBottom: 16 }}>
        <Select
          aria-label={t('所属站点')}
          data-testid="ems-site"
          style={{ flex: 1 }}
          value={siteId}
          onChange={(v: number) => setSiteId(v)}
          options={sites.data ?? []}
          showSearch
          optionFilterProp="label"
          placeholder={t('选择站点')}
        />
        <Button type="primary" onClick={run} loading={busy} disabled={!siteId} data-testid="ems-run">
          {t('开始检测')}
        </Button>
      </div>
      {result && (
        <Result
          data-testid="ems-result"
          status={result.online ? 'success' : 'warning'}
          title={result.online ? t('EMS应答正常') : t('EMS未应答')}
          subTitle={result.online ? undefined : t(result.message)}
          style={{ padding: '8px 0' }}
        >
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('设备编码')}>{result.deviceCode}</Descriptions.Item>
            <Descriptions.Item label={t('状态')}>
              <StatusBadge status={result.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('最后上报时间')}>{result.lastSeenAt ? formatDateTime(result.lastSeenAt) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('应答耗时')}>{result.latencyMs !== null ? `${result.latencyMs} ms` : '-'}</Descriptions.Item>
          </Descriptions>
        </Result>
      )}
    </Modal>
  );
}

/**
 * /product/equipment: the device registry (list with filters and live state, edit, xlsx export
 * and import with the per-row report), product data export and import, import history and the
 * EMS check. Rows link to the device detail page.
 */
export function EquipmentPage() {
  const t = useT();
  const [report, setReport] = useState<Report>(null);
  const [dialog, setDialog] = useState<'productExport' | 'ems' | 'history' | null>(null);
  return (
    <>
      <ResourceTable
        def={deviceResource}
        toolbar={() => [
          <Button key="ems" icon={<WifiOutlined />} onClick={() => setDialog('ems')} data-testid="ems-check">
            {t('EMS检测')}
          </Button>,
          <Button key="history" icon={<HistoryOutlined />} onClick={() => setDialog('history')} data-testid="import-history">
            {t('导入记录')}
          </Button>,
          <Button key="productExport" icon={<DownloadOutlined />} onClick={() => setDialog('productExport')}>
            {t('导出产品数据')}
          </Button>,
          <ImportButton key="productImport" endpoint={deviceEndpoints.productImport} label="导入产品数据" testId="product-import" onReport={setReport} />,
          <ImportButton key="import" endpoint={deviceEndpoints.import} label="导入设备" testId="device-import" onReport={setReport} />,
        ]}
      />
      {report && <ImportReport tip={report.tip} errors={report.errors} onClose={() => setReport(null)} />}
      {dialog === 'productExport' && <ProductExport onClose={() => setDialog(null)} />}
      {dialog === 'ems' && <EmsCheck onClose={() => setDialog(null)} />}
      <Drawer
        open={dialog === 'history'}
        onClose={() => setDialog(null)}
        width={1000}
        title={
          <span>
            <CloudUploadOutlined /> {t('导入记录')}
          </span>
        }
        destroyOnHidden
      >
        {dialog === 'history' && <ResourceTable def={importHistoryResource} />}
      </Drawer>
    </>
  );
}
