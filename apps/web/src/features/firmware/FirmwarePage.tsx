import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, RollbackOutlined, SendOutlined, UploadOutlined } from '@ant-design/icons';
import { firmwarePackageEndpoints, firmwareComplianceEndpoints, firmwareKeyEndpoints, firmwareSettingEndpoints, type FirmwarePackageRecord } from '@ess/contract/firmware';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Tabs } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call, callFile, RequestError } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { packageResource } from './package.resource.tsx';
import { LinkButton } from './parts.tsx';

const UploadDrawer = lazy(() => import('./UploadDrawer.tsx').then((m) => ({ default: m.UploadDrawer })));
const CompliancePanel = lazy(() => import('./CompliancePanel.tsx').then((m) => ({ default: m.CompliancePanel })));
const KeysPanel = lazy(() => import('./KeysPanel.tsx').then((m) => ({ default: m.KeysPanel })));
const SettingsPanel = lazy(() => import('./SettingsPanel.tsx').then((m) => ({ default: m.SettingsPanel })));

/**
 * Deletes a package; a refusal (a running rollout uses it: 406) is shown in a dialog naming the
 * rollout, not only as a passing toast.
 */
export function useDeletePackage() {
  const t = useT();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  return (row: Pick<FirmwarePackageRecord, 'id' | 'name' | 'version'>, after?: () => void) =>
    modal.confirm({
      title: t('删除升级包'),
      content: t('确定删除升级包「$1 $2」？文件将一并删除。', row.name, row.version),
      okText: t('删除'),
      okButtonProps: { danger: true },
      cancelText: t('取消'),
      onOk: async () => {
        try {
          await call(firmwarePackageEndpoints.delete, { id: row.id }, { noMessage: true });
          void message.success(t('删除成功'));
          after?.();
        } catch (e) {
          modal.error({
            title: t('不能删除升级包'),
            content: <span data-testid="delete-refused">{e instanceof RequestError ? e.message : t('请求失败')}</span>,
            okText: t('确定'),
          });
        } finally {
          void client.invalidateQueries({ queryKey: firmwareKeys.packages });
        }
      },
    });
}

/** The packages: filters, upload, edit, release / withdraw, download, delete. */
function PackageList() {
  const t = useT();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);
  const canUpload = useCan(firmwarePackageEndpoints.uploadStart);
  const canEdit = useCan(firmwarePackageEndpoints.edit);
  const canDelete = useCan(firmwarePackageEndpoints.delete);
  const canWithdraw = useCan(firmwarePackageEndpoints.withdraw);
  const canDownload = useCan(firmwarePackageEndpoints.download);
  const remove = useDeletePackage();
  const setState = async (row: FirmwarePackageRecord) => {
    const ep = row.state === 'released' ? firmwarePackageEndpoints.withdraw : firmwarePackageEndpoints.release;
    try {
      await call(ep, { id: row.id });
      void message.success(t(row.state === 'released' ? '已撤回' : '已发布'));
    } catch {
      // shown by the request layer
    }
    void client.invalidateQueries({ queryKey: firmwareKeys.packages });
  };
  return (
    <>
      <ResourceTable
        def={packageResource}
        emptyText={t('还没有升级包：点击上传升级包')}
        toolbar={() =>
          canUpload
            ? [
                <Button key="upload" type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="package-upload">
                  {t('上传升级包')}
                </Button>,
              ]
            : []
        }
        rowActions={(row, ctx) => [
          <LinkButton key="detail" icon={<EyeOutlined />} text={t('详情')} testId="package-detail" onClick={() => void navigate(`/firmware/detail?id=${row.id}`)} />,
          ...(canEdit ? [<LinkButton key="edit" icon={<EditOutlined />} text={t('编辑')} testId="package-edit" onClick={() => ctx.openEdit(row)} />] : []),
          ...(canWithdraw
            ? [
                <LinkButton
                  key="state"
                  icon={row.state === 'released' ? <RollbackOutlined /> : <SendOutlined />}
                  text={t(row.state === 'released' ? '撤回' : '发布')}
                  testId="package-state"
                  onClick={() => void setState(row)}
                />,
              ]
            : []),
          ...(canDownload
            ? [<LinkButton key="download" icon={<DownloadOutlined />} text={t('下载')} testId="package-download" onClick={() => void callFile(firmwarePackageEndpoints.download, { id: row.id }, { fileName: row.fileName }).catch(() => undefined)} />]
            : []),
          ...(canDelete ? [<LinkButton key="delete" danger icon={<DeleteOutlined />} text={t('删除')} testId="package-delete" onClick={() => void remove(row)} />] : []),
        ]}
      />
      {uploading && (
        <Suspense fallback={null}>
          <UploadDrawer open onClose={() => setUploading(false)} />
        </Suspense>
      )}
    </>
  );
}

const TABS = ['package', 'compliance', 'key', 'setting'] as const;
type Tab = (typeof TABS)[number];

/** /firmware/firmware: upgrade packages, with the compliance view, the public keys and the firmware settings as tabs (?tab=). */
export function FirmwarePage() {
  const t = useT();
  const [search, setSearch] = useSearchParams();
  const canCompliance = useCan(firmwareComplianceEndpoints.query);
  const canKeys = useCan(firmwareKeyEndpoints.page);
  const canSettings = useCan(firmwareSettingEndpoints.one);
  const asked = search.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) ? asked : 'package';
  const items = [
    { key: 'package', label: t('升级包'), children: <PackageList /> },
    ...(canCompliance ? [{ key: 'compliance', label: t('版本合规'), children: <Suspense fallback={null}><CompliancePanel /></Suspense> }] : []),
    ...(canKeys ? [{ key: 'key', label: t('签名公钥'), children: <Suspense fallback={null}><KeysPanel /></Suspense> }] : []),
    ...(canSettings ? [{ key: 'setting', label: t('固件设置'), children: <Suspense fallback={null}><SettingsPanel /></Suspense> }] : []),
  ];
  return (
    <Tabs
      activeKey={tab}
      items={items}
      destroyOnHidden
      data-testid="firmware-tabs"
      onChange={(k) => setSearch(k === 'package' ? {} : { tab: k }, { replace: true })}
    />
  );
}
