import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { FIRMWARE_KEY_ALGORITHM_LABELS, firmwarePackageEndpoints, firmwareRolloutEndpoints, type FirmwareRolloutRecord } from '@ess/contract/firmware';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Space, Spin, Table, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDateTime } from '../../components/crud/index.ts';
import { typeLabel } from '../../components/device-types.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call, callFile } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { formatBytes } from './firmware.options.ts';
import { useDeletePackage } from './FirmwarePage.tsx';
import { idParam, PackageStateTag, RolloutStateTag, Sha256, SignedTag } from './parts.tsx';

/** A rollout's task counts as "success / total (failed)". */
export const rolloutProgress = (r: Pick<FirmwareRolloutRecord, 'counts'>): string => {
  const c = r.counts;
  const failed = c.issuedFailed + c.downloadFailed + c.verifyFailed + c.flashFailed + c.upgradeFailed;
  return `${c.success} / ${c.total}${failed ? ` (${failed}✕)` : ''}`;
};

/** /firmware/detail?id=: one package — its fields, SHA-256, signature state, and the rollouts that used it. */
export function DetailPage() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = idParam(search);
  const canRollouts = useCan(firmwareRolloutEndpoints.page);
  const canDelete = useCan(firmwarePackageEndpoints.delete);
  const remove = useDeletePackage();
  const one = useQuery({ queryKey: firmwareKeys.package(id ?? 0), queryFn: () => call(firmwarePackageEndpoints.one, { id: id! }, { loading: false }), enabled: id !== null });
  const rollouts = useQuery({
    queryKey: firmwareKeys.rolloutsOf(id ?? 0),
    queryFn: () => call(firmwareRolloutEndpoints.page, { current: 1, pageSize: 100, packageId: id! }, { loading: false }),
    enabled: id !== null && canRollouts,
  });
  if (id === null) return <Result status="warning" title={t('未指定升级包')} />;
  if (one.isPending) return <Spin />;
  const p = one.data;
  if (!p) return <Result status="error" title={t('升级包不存在或无权查看')} />;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="package-detail-page">
      <Card
        size="small"
        title={<h2 className="ess-resource-title">{`${p.name} ${p.version}`}</h2>}
        extra={
          <Space>
            <Button icon={<DownloadOutlined />} onClick={() => void callFile(firmwarePackageEndpoints.download, { id: p.id }, { fileName: p.fileName }).catch(() => undefined)}>
              {t('下载')}
            </Button>
            {canDelete && (
              <Button danger icon={<DeleteOutlined />} onClick={() => void remove(p, () => void navigate('/firmware/firmware'))} data-testid="detail-delete">
                {t('删除')}
              </Button>
            )}
          </Space>
        }
      >
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'name', label: t('固件名称'), children: p.name },
            { key: 'version', label: t('版本'), children: <code>{p.version}</code> },
            { key: 'type', label: t('设备类型'), children: t(typeLabel(p.deviceType)) },
            { key: 'product', label: t('产品'), children: p.productName ?? t('该类型全部产品') },
            { key: 'from', label: t('可升级的起始版本'), children: p.upgradeFrom ? <code>{p.upgradeFrom}</code> : t('任意版本') },
            { key: 'state', label: t('状态'), children: <PackageStateTag state={p.state} /> },
            { key: 'file', label: t('文件'), children: `${p.fileName} · ${formatBytes(p.size)}` },
            { key: 'devices', label: t('运行该版本的设备'), children: p.deviceCount },
            { key: 'sha', label: t('服务器计算的 SHA-256'), span: 2, children: <Sha256 value={p.sha256} /> },
            {
              key: 'signature', label: t('签名'), span: 2,
              children: (
                <Space wrap>
                  <SignedTag signed={p.signed} keyName={p.keyName} />
                  {p.signed && p.signatureAlgorithm && <span>{FIRMWARE_KEY_ALGORITHM_LABELS[p.signatureAlgorithm]}</span>}
                  {p.signed && p.keyName && <span>{t('由公钥「$1」验证', p.keyName)}</span>}
                </Space>
              ),
            },
            { key: 'company', label: t('所属公司'), children: p.companyName },
            { key: 'created', label: t('上传时间'), children: `${formatDateTime(p.createdAt)} ${p.createdByName ?? ''}` },
            {
              key: 'notes', label: t('发布说明'), span: 2,
              children: p.releaseNotes ? <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{p.releaseNotes}</Typography.Paragraph> : '-',
            },
          ]}
        />
      </Card>
      {canRollouts && (
        <Card size="small" title={<h3 className="ess-resource-title">{t('使用该升级包的升级任务')}</h3>}>
          <Table<FirmwareRolloutRecord>
            size="small"
            rowKey="id"
            loading={rollouts.isPending}
            dataSource={rollouts.data?.records ?? []}
            pagination={false}
            data-testid="package-rollouts"
            scroll={{ x: 'max-content' }}
            columns={[
              { key: 'name', title: t('升级任务名称'), render: (_v, r) => <Link to={`/firmware/upgrade?id=${r.id}`}>{r.name}</Link> },
              { key: 'state', title: t('状态'), render: (_v, r) => <RolloutStateTag state={r.state} /> },
              { key: 'sites', title: t('站点'), render: (_v, r) => r.siteNames.join('、') || t('全部') },
              { key: 'progress', title: t('成功 / 全部'), render: (_v, r) => rolloutProgress(r) },
              { key: 'started', title: t('开始时间'), render: (_v, r) => formatDateTime(r.startedAt) },
              { key: 'finished', title: t('结束时间'), render: (_v, r) => formatDateTime(r.finishedAt) },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
