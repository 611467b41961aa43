import { REPORT_EMBED_TOOLS, reportEndpoints as api, type ReportEmbedEdit, type ReportEmbedRecord } from '@ess/contract/report';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../components/number-format.ts';
import { toast } from '../../platform/feedback/toast.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { reportKeys } from './report.keys.ts';

const TOOL_NAMES = { metabase: 'Metabase', grafana: 'Grafana', jimureport: 'JimuReport' } as const;

/** The installation's tool, edited by an administrator (the secret is written, never read back). */
function EmbedSettings({ record }: { record: ReportEmbedRecord }) {
  const t = useT();
  const client = useQueryClient();
  const [d, setD] = useState<ReportEmbedEdit>({
    enabled: record.enabled, tool: record.tool ?? 'metabase', siteUrl: record.siteUrl ?? '', secret: null, siteParam: record.siteParam, dashboards: record.dashboards,
  });
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<ReportEmbedEdit>) => setD((x) => ({ ...x, ...patch }));
  const save = () => {
    setSaving(true);
    call(api.embedEdit, { ...d, secret: d.secret || null })
      .then(() => {
        toast('success', t('已保存'));
        set({ secret: null });
        return client.invalidateQueries({ queryKey: reportKeys.embed });
      })
      .catch(() => undefined)
      .finally(() => setSaving(false));
  };
  return (
    <Card size="small" title={t('外部报表工具设置')} data-testid="report-embed-settings">
      <Form layout="vertical" requiredMark={false}>
        <Space wrap align="start">
          <Form.Item label={t('启用')}><Switch aria-label={t('启用')} checked={d.enabled} onChange={(enabled) => set({ enabled })} /></Form.Item>
          <Form.Item label={t('工具')} htmlFor="embed-tool">
            <Select id="embed-tool" style={{ width: 160 }} value={d.tool} options={REPORT_EMBED_TOOLS.map((x) => ({ value: x, label: TOOL_NAMES[x] }))} onChange={(tool) => set({ tool })} />
          </Form.Item>
          <Form.Item label={t('地址')} htmlFor="embed-url">
            <Input id="embed-url" style={{ width: 320 }} value={d.siteUrl} placeholder="https://bi.example.com" onChange={(e) => set({ siteUrl: e.target.value })} />
          </Form.Item>
          <Form.Item label={t('嵌入密钥')} htmlFor="embed-secret" extra={record.hasSecret ? t('已设置，留空则不修改') : undefined}>
            <Input.Password id="embed-secret" style={{ width: 280 }} value={d.secret ?? ''} autoComplete="new-password" onChange={(e) => set({ secret: e.target.value })} />
          </Form.Item>
          <Form.Item label={t('站点参数名')} htmlFor="embed-param">
            <Input id="embed-param" style={{ width: 140 }} value={d.siteParam} onChange={(e) => set({ siteParam: e.target.value })} />
          </Form.Item>
        </Space>
        <Form.Item label={t('报表列表')}>
          <Space direction="vertical">
            {d.dashboards.map((x, i) => (
              <Space key={i}>
                <InputNumber aria-label={t('报表编号')} min={1} value={x.id} onChange={(v) => set({ dashboards: d.dashboards.map((y, j) => (j === i ? { ...y, id: v ?? 1 } : y)) })} />
                <Input aria-label={t('报表名称')} value={x.name} onChange={(e) => set({ dashboards: d.dashboards.map((y, j) => (j === i ? { ...y, name: e.target.value } : y)) })} />
                <Button type="link" danger onClick={() => set({ dashboards: d.dashboards.filter((_y, j) => j !== i) })}>{t('删除')}</Button>
              </Space>
            ))}
            <Button onClick={() => set({ dashboards: [...d.dashboards, { id: d.dashboards.length + 1, name: '' }] })}>{t('添加报表')}</Button>
          </Space>
        </Form.Item>
        <Button type="primary" loading={saving} onClick={save} data-testid="report-embed-save">{t('保存')}</Button>
      </Form>
    </Card>
  );
}

/**
 * The external report tool: a configured dashboard opened in the page through a signed URL of
 * ten minutes whose locked parameters are the viewer's stations (asked again on each opening).
 */
export function ReportEmbed() {
  const t = useT();
  const embed = useQuery({ queryKey: reportKeys.embed, queryFn: () => call(api.embedOne, undefined) });
  const [dashboard, setDashboard] = useState<number | null>(null);
  const [signed, setSigned] = useState<{ url: string; expiresAt: string; siteIds: number[] } | null>(null);
  const r = embed.data;
  const open = () => {
    if (dashboard === null) return;
    call(api.embedUrl, { dashboard }).then(setSigned).catch(() => undefined);
  };
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="report-embed">
      {r?.editable && <EmbedSettings key={r.updatedAt ?? 'new'} record={r} />}
      <Card size="small" title={t('外部报表')}>
        {r && r.enabled && r.tool ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space wrap>
              <Select aria-label={t('报表')} style={{ width: 240 }} value={dashboard ?? undefined} placeholder={t('请选择报表')}
                options={r.dashboards.map((x) => ({ value: x.id, label: x.name }))} onChange={(v: number) => setDashboard(v)} />
              <Button type="primary" disabled={dashboard === null} onClick={open} data-testid="report-embed-open">{t('打开')}</Button>
              <Typography.Text type="secondary">{TOOL_NAMES[r.tool]}</Typography.Text>
            </Space>
            {signed && (
              <>
                <Alert type="info" showIcon message={t('签名地址有效期至 $1，仅含您可访问的 $2 个站点', formatDateTime(signed.expiresAt), signed.siteIds.length)} />
                <iframe title={t('外部报表')} src={signed.url} style={{ width: '100%', height: 640, border: 0 }} sandbox="allow-scripts allow-same-origin allow-popups" />
              </>
            )}
          </Space>
        ) : (
          <Empty description={t('未配置外部报表工具')} />
        )}
      </Card>
    </Space>
  );
}
