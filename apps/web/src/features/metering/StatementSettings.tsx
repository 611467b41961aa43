import { siteStatementAdd, siteStatementEdit, siteStatementEndpoints, type SiteStatementRecord } from '@ess/contract/statement';
import { useQuery } from '@tanstack/react-query';
import { App, Alert, Col, Form, Input, InputNumber, Modal, Row, Select, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useOptionSource } from '../../components/crud/index.ts';
import { siteListQuery } from '../../components/options/sites.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { useSiteSettings, useStatementRefresh, userSource } from './statement.api.ts';

export interface SettingsValues {
  investorName: string;
  investorUserId: number;
  powerUserName: string;
  powerUserUserId: number;
  investorShareRatio: number;
  billingDay: number;
  reconciliationContact?: string | null;
  reconciliationPhone?: string | null;
  includePv: boolean;
  includePiles: boolean;
}

/** Station fields the settings start from when a station has none yet (decision 0035). */
export interface SiteParties {
  investor?: string | null;
  powerUser?: string | null;
  reconciliationContact?: string | null;
  reconciliationPhone?: string | null;
  investorShareRatio?: number | null;
}

/** The form's first values: the saved settings, or the station's own fields. */
export function settingsInitial(saved: SiteStatementRecord | null | undefined, site: SiteParties | null): Partial<SettingsValues> {
  if (saved) {
    return {
      investorName: saved.investorName, investorUserId: saved.investorUserId, powerUserName: saved.powerUserName, powerUserUserId: saved.powerUserUserId,
      investorShareRatio: saved.investorShareRatio, billingDay: saved.billingDay, reconciliationContact: saved.reconciliationContact,
      reconciliationPhone: saved.reconciliationPhone, includePv: saved.includePv, includePiles: saved.includePiles,
    };
  }
  return {
    investorName: site?.investor ?? '', powerUserName: site?.powerUser ?? '', reconciliationContact: site?.reconciliationContact ?? null,
    reconciliationPhone: site?.reconciliationPhone ?? null, investorShareRatio: site?.investorShareRatio ?? undefined, billingDay: 1,
    includePv: false, includePiles: false,
  };
}

/**
 * The request of the settings form, checked with the contract before it is sent (share ratio
 * 0–100, billing day 1–28, two different confirming users): the add of a station without
 * settings, else the edit.
 */
export function settingsBody(siteId: number, saved: Pick<SiteStatementRecord, 'id'> | null | undefined, v: SettingsValues):
  { ok: true; kind: 'add' | 'edit'; body: Record<string, unknown> } | { ok: false; issue: string; field: string } {
  const fields = {
    investorName: v.investorName, investorUserId: v.investorUserId, powerUserName: v.powerUserName, powerUserUserId: v.powerUserUserId,
    investorShareRatio: v.investorShareRatio, billingDay: v.billingDay, reconciliationContact: v.reconciliationContact || null,
    reconciliationPhone: v.reconciliationPhone || null, includePv: !!v.includePv, includePiles: !!v.includePiles,
  };
  const body = saved ? { id: saved.id, ...fields } : { siteId, ...fields };
  const checked = (saved ? siteStatementEdit : siteStatementAdd).safeParse(body);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return { ok: false, issue: issue.message, field: String(issue.path[0] ?? '') };
  }
  return { ok: true, kind: saved ? 'edit' : 'add', body };
}

function UserSelect(props: { id?: string; value?: number; onChange?: (v: number) => void; testId: string }) {
  const t = useT();
  const users = useOptionSource(userSource);
  const { testId, ...rest } = props;
  return <Select {...rest} showSearch optionFilterProp="label" loading={users.isLoading} options={users.data ?? []} placeholder={t('请选择')} data-testid={testId} />;
}

/**
 * The settlement settings of a station (/configure/site/statement): the two parties as printed
 * and the users who confirm for them, the investor's share, the billing day, the reconciliation
 * contact, and whether PV and piles are settled too. Opened from the statement list.
 */
export function StatementSettingsModal({ initialSiteId, onClose }: { initialSiteId: number | null; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const refresh = useStatementRefresh();
  const [siteId, setSiteId] = useState<number | null>(initialSiteId);
  const sites = useQuery(siteListQuery);
  // The station records carry the parties' fields the settings start from.
  const site = (sites.data?.find((s) => s.id === siteId) ?? null);
  const settings = useSiteSettings(site?.id ?? null);
  const canSave = useCan(settings.data ? siteStatementEndpoints.edit : siteStatementEndpoints.add);
  const [form] = Form.useForm<SettingsValues>();
  const [busy, setBusy] = useState(false);
  const loaded = settings.isSuccess;
  useEffect(() => {
    if (loaded) form.setFieldsValue(settingsInitial(settings.data, site));
  }, [loaded, settings.data, site, form]);

  const save = async () => {
    const v = await form.validateFields();
    if (!site) return;
    const out = settingsBody(site.id, settings.data, v);
    if (!out.ok) {
      form.setFields([{ name: out.field as keyof SettingsValues, errors: [t(out.issue)] }]);
      return;
    }
    setBusy(true);
    try {
      if (out.kind === 'add') await call(siteStatementEndpoints.add, out.body as never);
      else await call(siteStatementEndpoints.edit, out.body as never);
      void message.success(t('保存成功'));
      await refresh();
      onClose();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };
  const required = (label: string) => ({ required: true, message: t('$1不能为空', t(label)) });
  return (
    <Modal
      open
      width={720}
      title={t('结算设置')}
      okText={t('保存')}
      cancelText={t('取消')}
      okButtonProps={{ disabled: !site || !canSave, ...({ 'data-testid': 'settings-ok' } as Record<string, string>) }}
      confirmLoading={busy}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Form form={form} layout="vertical" data-testid="settings-form">
        <Form.Item label={t('站点')} required>
          <StationPicker value={siteId} width={280} onChange={(id) => setSiteId(id)} />
        </Form.Item>
        {site && settings.isLoading && <Spin />}
        {site && loaded && !settings.data && <Alert type="info" showIcon message={t('该站点尚未配置结算信息，已按站点资料预填')} style={{ marginBottom: 16 }} />}
        {site && loaded && (
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="investorName" label={t('投资方')} rules={[required('投资方')]}>
                <Input maxLength={128} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="investorUserId" label={t('投资方确认人')} rules={[required('投资方确认人')]}>
                <UserSelect testId="investor-user" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="powerUserName" label={t('电力用户')} rules={[required('电力用户')]}>
                <Input maxLength={128} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="powerUserUserId" label={t('电力用户确认人')} rules={[required('电力用户确认人')]}>
                <UserSelect testId="power-user" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="investorShareRatio" label={t('投资方分成比例 (%)')} rules={[required('投资方分成比例')]}>
                <InputNumber min={0} max={100} step={0.01} style={{ width: '100%' }} data-testid="share-ratio" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="billingDay" label={t('结算日')} rules={[required('结算日')]} help={t('每月1-28日；1日即按自然月结算')}>
                <InputNumber min={1} max={28} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="reconciliationContact" label={t('对账联系人')}>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="reconciliationPhone" label={t('对账电话')}>
                <Input maxLength={32} />
              </Form.Item>
            </Col>
            <Col xs={12}>
              <Form.Item name="includePv" label={t('结算光伏')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={12}>
              <Form.Item name="includePiles" label={t('结算充电桩')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
        )}
        {!canSave && site && loaded && <Typography.Text type="secondary">{t('没有修改结算设置的权限')}</Typography.Text>}
      </Form>
    </Modal>
  );
}
