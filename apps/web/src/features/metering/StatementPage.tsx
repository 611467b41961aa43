import { DownloadOutlined, EyeOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { siteStatementEndpoints, statementAdd, statementEndpoints, type StatementRecord } from '@ess/contract/statement';
import { App, Button, DatePicker, Dropdown, Form, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import type { SiteRef } from '../../components/options/sites.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { statementApi, useStatementRefresh } from './statement.api.ts';
import { statementLink } from './statement.model.ts';
import { statementResource } from './statement.resource.tsx';
import { StatementActionButtons } from './StatementActions.tsx';
import { StatementSettingsModal } from './StatementSettings.tsx';

/** The xlsx and PDF downloads of a statement. */
export function DownloadButtons({ statement, size = 'small', type = 'link' }: { statement: Pick<StatementRecord, 'id'>; size?: 'small' | 'middle'; type?: 'link' | 'default' }) {
  const t = useT();
  const can = useCan(statementEndpoints.download);
  if (!can) return null;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'xlsx', label: t('下载 Excel'), onClick: () => void statementApi.download(statement.id, 'xlsx').catch(() => undefined) },
          { key: 'pdf', label: t('下载 PDF'), onClick: () => void statementApi.download(statement.id, 'pdf').catch(() => undefined) },
        ],
      }}
    >
      <Button size={size} type={type} icon={<DownloadOutlined />} data-testid="statement-download">
        {t('下载')}
      </Button>
    </Dropdown>
  );
}

/** Make one station's statement of a month now, as a draft (the job does it after each billing day). */
function AddModal({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const refresh = useStatementRefresh();
  const [site, setSite] = useState<SiteRef | null>(null);
  const [month, setMonth] = useState<Dayjs | null>(() => dayjs().subtract(1, 'month'));
  const [busy, setBusy] = useState(false);
  const body = { siteId: site?.id, month: month?.format('YYYY-MM') };
  const valid = statementAdd.safeParse(body).success;
  const ok = async () => {
    if (!valid) return;
    setBusy(true);
    try {
      const { id } = await call(statementEndpoints.add, body as { siteId: number; month: string });
      void message.success(t('已生成结算单草稿'));
      await refresh();
      onClose();
      void navigate(statementLink(id));
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('生成结算单')} okText={t('生成')} cancelText={t('取消')} okButtonProps={{ disabled: !valid }} confirmLoading={busy} onOk={() => void ok()} onCancel={onClose} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={t('站点')} required>
          <StationPicker value={site?.id} width={280} onChange={(_, s) => setSite(s)} />
        </Form.Item>
        <Form.Item label={t('结算月份')} required help={t('结算周期结束后才能生成')}>
          <DatePicker picker="month" value={month} onChange={(v) => setMonth(v)} disabledDate={(d) => d.isAfter(dayjs().endOf('month'))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * /operation/statement: the stations' monthly statements (state, revenue, both shares, quality),
 * the lifecycle actions the caller may take on each, downloads; the toolbar makes a month's
 * statement and opens a station's settlement settings.
 */
export function StatementPage() {
  const t = useT();
  const navigate = useNavigate();
  const canAdd = useCan(statementEndpoints.add);
  const canSettings = useCan(siteStatementEndpoints.unique);
  const [adding, setAdding] = useState(false);
  const [settings, setSettings] = useState<{ siteId: number | null } | null>(null);
  return (
    <>
      <ResourceTable
        def={statementResource}
        toolbar={() => [
          ...(canSettings
            ? [<Button key="settings" icon={<SettingOutlined />} onClick={() => setSettings({ siteId: null })} data-testid="statement-settings">{t('结算设置')}</Button>]
            : []),
          ...(canAdd ? [<Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="statement-add">{t('生成结算单')}</Button>] : []),
        ]}
        rowActions={(row) => [
          <Button key="open" type="link" size="small" icon={<EyeOutlined />} onClick={() => void navigate(statementLink(row.id))}>
            {t('详情')}
          </Button>,
          <DownloadButtons key="download" statement={row} />,
          <StatementActionButtons key="actions" statement={row} />,
          ...(canSettings
            ? [<Button key="settings" type="link" size="small" icon={<SettingOutlined />} onClick={() => setSettings({ siteId: row.siteId })} data-testid="row-settings">{t('结算设置')}</Button>]
            : []),
        ]}
      />
      {adding && <AddModal onClose={() => setAdding(false)} />}
      {settings && <StatementSettingsModal initialSiteId={settings.siteId} onClose={() => setSettings(null)} />}
    </>
  );
}
