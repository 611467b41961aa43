import { PauseOutlined, PlayCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { firmwarePackageEndpoints, firmwareSettingEndpoints, firmwareUploadStart, FIRMWARE_ERRORS, type FirmwareUploadStart } from '@ess/contract/firmware';
import { productEndpoints } from '@ess/contract/product';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Form, Input, Progress, Result, Select, Space, TreeSelect, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useOptionSource, validateWith, type FieldErrors } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { sharedKeys } from '../../components/options/keys.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { DEVICE_TYPE_OPTIONS, formatBytes } from './firmware.options.ts';
import { Sha256, SignedTag } from './parts.tsx';
import { ChunkedUpload, type UploadSnapshot } from './uploader.ts';

export interface UploadForm {
  companyId?: number;
  deviceType?: FirmwareUploadStart['deviceType'];
  productId?: number | null;
  name?: string;
  version?: string;
  upgradeFrom?: string;
  releaseNotes?: string;
  signature?: string;
  /** The chosen file's name (the file itself is held beside the form). */
  fileName?: string;
}

/** FIRMWARE_ERRORS.tooLarge with its placeholder (the pack translates it once). */
export const TOO_LARGE = '升级包超过大小上限 $1 MB';

/** Labels of the upload form's fields (source text; they also name the field in error messages). */
export const UPLOAD_LABELS: Record<string, string> = {
  companyId: '所属公司',
  deviceType: '设备类型',
  productId: '产品',
  name: '固件名称',
  version: '版本',
  upgradeFrom: '可升级的起始版本',
  releaseNotes: '发布说明',
  fileName: '升级包文件',
  size: '升级包文件',
  signature: '签名',
};

/**
 * The upload's checks before any byte is sent: the contract's rules for the description (semver,
 * range, lengths, base64 signature), a file chosen, its size within the settings' limit, and a
 * signature when unsigned packages are not allowed.
 */
export function checkUpload(
  v: UploadForm,
  file: { name: string; size: number } | null,
  settings: { maxPackageMb: number; allowUnsigned: boolean } | undefined,
  t: (s: string, ...a: unknown[]) => string,
): { ok: true; body: FirmwareUploadStart } | { ok: false; errors: FieldErrors } {
  const body = {
    companyId: v.companyId,
    deviceType: v.deviceType,
    productId: v.productId ?? null,
    name: v.name,
    version: v.version,
    upgradeFrom: v.upgradeFrom || null,
    releaseNotes: v.releaseNotes || null,
    fileName: file?.name ?? '',
    size: file?.size ?? 0,
    signature: v.signature || null,
  };
  const checked = validateWith(firmwareUploadStart, body, UPLOAD_LABELS, t);
  const errors: FieldErrors = checked.ok ? { fields: {}, form: [] } : checked.errors;
  const add = (name: string, text: string) => {
    const list = (errors.fields[name] ??= []);
    if (!list.includes(text)) list.push(text);
  };
  if (!file) {
    delete errors.fields.size;
    errors.fields.fileName = [t('请选择升级包文件')];
  } else if (settings && file.size > settings.maxPackageMb * 1024 * 1024) {
    delete errors.fields.size;
    add('fileName', t(TOO_LARGE, settings.maxPackageMb));
  }
  if (settings && !settings.allowUnsigned && !v.signature) add('signature', t(FIRMWARE_ERRORS.unsignedRefused));
  if (Object.keys(errors.fields).length || errors.form.length) return { ok: false, errors };
  return { ok: true, body: body as FirmwareUploadStart };
}

/** The bytes of a signature file as base64 (a .sig holding base64 text already is kept as it is). */
export async function signatureText(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder().decode(bytes).trim();
  if (/^[A-Za-z0-9+/=\s]+$/.test(text) && text.length >= 16) return text.replace(/\s+/g, '');
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

const PHASE_LABELS: Record<UploadSnapshot['phase'], string> = {
  idle: '等待上传',
  starting: '正在创建上传会话',
  uploading: '上传中',
  paused: '已暂停',
  retrying: '连接中断，正在重试',
  interrupted: '连接中断，可继续上传',
  finishing: '服务器正在校验文件',
  done: '上传完成',
  failed: '上传失败',
  aborted: '已取消',
};

/** The upload's progress: bar, bytes, state, and pause / resume. */
export function UploadProgress({ snap, onPause, onResume }: { snap: UploadSnapshot; onPause: () => void; onResume: () => void }) {
  const t = useT();
  const status = snap.phase === 'failed' ? 'exception' : snap.phase === 'done' ? 'success' : snap.phase === 'uploading' || snap.phase === 'finishing' ? 'active' : 'normal';
  return (
    <div data-testid="upload-progress" data-phase={snap.phase}>
      <Progress percent={snap.percent} status={status} aria-label={t('上传进度')} />
      <Space wrap>
        <Typography.Text data-testid="upload-phase">{t(PHASE_LABELS[snap.phase])}</Typography.Text>
        <Typography.Text type="secondary">{`${formatBytes(snap.received)} / ${formatBytes(snap.size)}`}</Typography.Text>
        {snap.phase === 'retrying' && <Typography.Text type="warning">{t('第 $1 次重试', snap.attempts)}</Typography.Text>}
        {(snap.phase === 'uploading' || snap.phase === 'retrying') && (
          <Button size="small" icon={<PauseOutlined />} onClick={onPause} data-testid="upload-pause">
            {t('暂停')}
          </Button>
        )}
        {(snap.phase === 'paused' || snap.phase === 'interrupted') && (
          <Button size="small" type="primary" icon={<PlayCircleOutlined />} onClick={onResume} data-testid="upload-resume">
            {t('继续上传')}
          </Button>
        )}
      </Space>
      {snap.error && snap.phase !== 'uploading' && <Alert type={snap.phase === 'failed' ? 'error' : 'warning'} showIcon message={snap.error} style={{ marginTop: 8 }} data-testid="upload-error" />}
    </div>
  );
}

/** A file input inside a Form.Item (the item's value is the file's name; the input itself holds the file). */
function FilePick({ onPick, onChange, label, testId, id, accept }: { onPick: (f: File | null) => void; onChange?: (v: unknown) => void; label: string; testId: string; id?: string; accept?: string }) {
  return (
    <input
      id={id}
      type="file"
      accept={accept}
      aria-label={label}
      data-testid={testId}
      onChange={(e) => {
        const f = e.target.files?.[0] ?? null;
        onChange?.(f?.name ?? '');
        onPick(f);
      }}
    />
  );
}

/** The package made by an upload: its SHA-256 as the server computed it and its signature state. */
function Uploaded({ id }: { id: number }) {
  const t = useT();
  const one = useQuery({ queryKey: firmwareKeys.package(id), queryFn: () => call(firmwarePackageEndpoints.one, { id }, { loading: false }) });
  const p = one.data;
  return (
    <Result
      status="success"
      title={t('升级包已保存')}
      subTitle={p ? `${p.name} ${p.version}` : undefined}
      extra={
        p && (
          <Descriptions size="small" bordered column={1} data-testid="uploaded-package">
            <Descriptions.Item label={t('服务器计算的 SHA-256')}>
              <Sha256 value={p.sha256} />
            </Descriptions.Item>
            <Descriptions.Item label={t('签名')}>
              <SignedTag signed={p.signed} keyName={p.keyName} /> {p.keyName ?? ''}
            </Descriptions.Item>
            <Descriptions.Item label={t('文件大小')}>{formatBytes(p.size)}</Descriptions.Item>
          </Descriptions>
        )
      }
    />
  );
}

/** Upload a package: its description, the file (sent in chunks, resumable), the detached signature pasted or read from a file. */
export function UploadDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const client = useQueryClient();
  const [form] = Form.useForm<UploadForm>();
  const [file, setFile] = useState<File | null>(null);
  const [snap, setSnap] = useState<UploadSnapshot | null>(null);
  const upload = useRef<ChunkedUpload | null>(null);
  const settings = useQuery({ queryKey: firmwareKeys.setting, queryFn: () => call(firmwareSettingEndpoints.one, {}, { loading: false }) });
  const companies = useOptionSource(companyTreeSource);
  const deviceType = Form.useWatch('deviceType', form);
  const products = useQuery({
    queryKey: sharedKeys.product.list({ as: 'firmware', type: deviceType ?? null }),
    queryFn: () => call(productEndpoints.list, deviceType ? { type: deviceType } : {}, { loading: false }),
    enabled: open,
  });
  const productOptions = useMemo(() => (products.data ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.code})` })), [products.data]);
  const busy = !!snap && ['starting', 'uploading', 'retrying', 'finishing'].includes(snap.phase);

  useEffect(() => () => upload.current?.pause(), []);

  const close = () => {
    if (busy) upload.current?.pause();
    if (snap?.phase === 'done') void client.invalidateQueries({ queryKey: firmwareKeys.all });
    upload.current = null;
    setSnap(null);
    setFile(null);
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const checked = checkUpload(form.getFieldsValue(true) as UploadForm, file, settings.data, t);
    if (!checked.ok) {
      form.setFields(Object.entries(checked.errors.fields).map(([name, errors]) => ({ name: name as keyof UploadForm, errors })));
      return;
    }
    const { fileName: _f, size: _s, ...description } = checked.body;
    const up = new ChunkedUpload(file!, description);
    upload.current = up;
    up.subscribe(setSnap);
    const end = await up.start();
    if (end.phase === 'done') void client.invalidateQueries({ queryKey: firmwareKeys.packages });
  };

  const readSignature = async (f: File | undefined) => {
    if (!f) return;
    form.setFieldValue('signature', await signatureText(f));
    form.setFields([{ name: 'signature', errors: [] }]);
  };

  const s = settings.data;
  return (
    <Drawer
      open={open}
      title={t('上传升级包')}
      width={720}
      onClose={close}
      destroyOnHidden
      maskClosable={!busy}
      footer={
        snap?.phase === 'done' ? (
          <Button type="primary" onClick={close} data-testid="upload-close">
            {t('完成')}
          </Button>
        ) : (
          <Space>
            <Button onClick={close}>{t('取消')}</Button>
            {snap && snap.phase !== 'failed' && snap.phase !== 'aborted' ? (
              <Button danger onClick={() => void upload.current?.abort()} disabled={snap.phase === 'finishing'} data-testid="upload-abort">
                {t('放弃上传')}
              </Button>
            ) : (
              <Button type="primary" icon={<UploadOutlined />} onClick={() => void submit()} data-testid="upload-submit">
                {t('开始上传')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {snap?.phase === 'done' && snap.packageId ? (
        <Uploaded id={snap.packageId} />
      ) : (
        <Form form={form} layout="vertical" disabled={busy} data-testid="upload-form" initialValues={{ productId: null }}>
          {s && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              message={t('文件大小上限 $1 MB；$2', s.maxPackageMb, t(s.allowUnsigned ? '允许未签名的升级包' : '升级包必须签名'))}
            />
          )}
          <Form.Item name="companyId" label={t(UPLOAD_LABELS.companyId!)} required>
            <TreeSelect aria-label={t(UPLOAD_LABELS.companyId!)} treeData={companies.data ?? []} treeDefaultExpandAll showSearch treeNodeFilterProp="label" fieldNames={{ label: 'label', value: 'value' }} data-testid="upload-company" />
          </Form.Item>
          <Space.Compact block>
            <Form.Item name="deviceType" label={t(UPLOAD_LABELS.deviceType!)} required style={{ width: '50%' }}>
              <Select
                aria-label={t(UPLOAD_LABELS.deviceType!)}
                showSearch
                optionFilterProp="label"
                options={DEVICE_TYPE_OPTIONS.map((o) => ({ value: o.value as string, label: t(o.label) }))}
                onChange={() => form.setFieldValue('productId', null)}
                data-testid="upload-type"
              />
            </Form.Item>
            <Form.Item name="productId" label={t(UPLOAD_LABELS.productId!)} style={{ width: '50%' }} help={t('不选则适用于该类型的全部产品')}>
              <Select aria-label={t(UPLOAD_LABELS.productId!)} allowClear options={productOptions} disabled={!deviceType} data-testid="upload-product" />
            </Form.Item>
          </Space.Compact>
          <Space.Compact block>
            <Form.Item name="name" label={t(UPLOAD_LABELS.name!)} required style={{ width: '50%' }} help={t('与设备上报的固件名称一致')}>
              <Input maxLength={64} data-testid="upload-name" />
            </Form.Item>
            <Form.Item name="version" label={t(UPLOAD_LABELS.version!)} required style={{ width: '50%' }}>
              <Input maxLength={32} placeholder="1.2.3" data-testid="upload-version" />
            </Form.Item>
          </Space.Compact>
          <Form.Item name="upgradeFrom" label={t(UPLOAD_LABELS.upgradeFrom!)} help={t('语义化版本范围；留空表示任意版本均可升级')}>
            <Input placeholder=">=1.2.0 <2.0.0" data-testid="upload-from" />
          </Form.Item>
          <Form.Item name="releaseNotes" label={t(UPLOAD_LABELS.releaseNotes!)}>
            <Input.TextArea rows={4} maxLength={10_000} showCount data-testid="upload-notes" />
          </Form.Item>
          <Form.Item name="fileName" label={t(UPLOAD_LABELS.fileName!)} required>
<FilePick
              label={t(UPLOAD_LABELS.fileName!)}
              testId="upload-file"
              onPick={(f) => {
                setFile(f);
                form.setFields([{ name: 'fileName', errors: [] }]);
              }}
            />
          </Form.Item>
          {file && <Typography.Paragraph type="secondary">{`${file.name} · ${formatBytes(file.size)}`}</Typography.Paragraph>}
          <Form.Item name="signature" label={t(UPLOAD_LABELS.signature!)} help={t('分离签名（Base64），由已启用的公钥在服务器上验证；可粘贴或从 .sig 文件读取')}>
            <Input.TextArea rows={3} data-testid="upload-signature" />
          </Form.Item>
          <Form.Item label={t('从文件读取签名')}>
            <FilePick label={t('从文件读取签名')} accept=".sig,.asc,.b64,.txt" testId="upload-signature-file" onPick={(f) => void readSignature(f ?? undefined)} />
          </Form.Item>
        </Form>
      )}
      {snap && snap.phase !== 'done' && <UploadProgress snap={snap} onPause={() => upload.current?.pause()} onResume={() => void upload.current?.resume()} />}
    </Drawer>
  );
}
