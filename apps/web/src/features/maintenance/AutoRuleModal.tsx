import { maintenanceEndpoints, REPAIR_AUTO_MAX_LEVEL, REPAIR_AUTO_MAX_MINUTES, repairAutoRule, type RepairAutoRule } from '@ess/contract/maintenance';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, InputNumber, Modal, Spin, Switch, TreeSelect, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../components/crud/index.ts';
import { companyTreeSource } from '../../components/options/companies.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { maintKeys } from './maintenance.keys.ts';

/**
 * The automatic-repair rule of a company (decision 0034): alarms of its stations of level ≤ N
 * that stay open more than M minutes get one repair order each. The toolbar button shows only to
 * a user who may set it; the values are checked with the contract before they are sent.
 */
export function AutoRuleButton() {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!useCan(maintenanceEndpoints.repairAutoRuleEdit)) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="auto-rule-open">
        {t('自动工单')}
      </Button>
      {open && <AutoRuleModal onClose={() => setOpen(false)} />}
    </>
  );
}

/** The rule's form values as sent, or the first issue the contract finds. */
export function autoRuleBody(companyId: number, v: Partial<RepairAutoRule>): { ok: true; body: RepairAutoRule & { companyId: number } } | { ok: false; issue: string } {
  const checked = repairAutoRule.safeParse({ enabled: v.enabled ?? false, maxLevel: v.maxLevel, openMinutes: v.openMinutes });
  return checked.success ? { ok: true, body: { companyId, ...checked.data } } : { ok: false, issue: checked.error.issues[0]!.message };
}

export function AutoRuleModal({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const own = useUserStore((s) => s.info?.companyId ?? null);
  const [companyId, setCompanyId] = useState<number | null>(own);
  const [form] = Form.useForm<RepairAutoRule>();
  const [issue, setIssue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const companies = useQuery({ queryKey: companyTreeSource.queryKey, queryFn: companyTreeSource.load, staleTime: 60_000 });
  const rule = useQuery({
    queryKey: maintKeys.autoRule(companyId ?? 0),
    queryFn: () => call(maintenanceEndpoints.repairAutoRuleOne, { companyId: companyId! }, { loading: false }),
    enabled: companyId !== null,
  });

  const save = async () => {
    if (companyId === null) return;
    const checked = autoRuleBody(companyId, form.getFieldsValue());
    if (!checked.ok) {
      setIssue(t(checked.issue));
      return;
    }
    setIssue(null);
    setBusy(true);
    try {
      await call(maintenanceEndpoints.repairAutoRuleEdit, checked.body);
      await client.invalidateQueries({ queryKey: maintKeys.autoRule(companyId) });
      void message.success(t('操作成功'));
      onClose();
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };

  const r = rule.data;
  return (
    <Modal
      open
      title={t('自动维修工单规则')}
      okText={t('保存')}
      cancelText={t('取消')}
      okButtonProps={{ disabled: !r, ...({ 'data-testid': 'auto-rule-ok' } as Record<string, string>) }}
      confirmLoading={busy}
      onOk={() => void save()}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Typography.Paragraph type="secondary">
        {t('进行中的告警，等级不高于所设等级（1 级最严重）且持续超过所设分钟数时，自动生成一张维修工单；每条告警最多一张。')}
      </Typography.Paragraph>
      <Form layout="vertical" component={false}>
        <Form.Item label={t('公司')}>
          <TreeSelect
            value={companyId ?? undefined}
            onChange={(v: number) => setCompanyId(v)}
            treeData={companies.data}
            loading={companies.isLoading}
            treeDefaultExpandAll
            showSearch
            treeNodeFilterProp="label"
            data-testid="auto-rule-company"
          />
        </Form.Item>
      </Form>
      {rule.isLoading && <Spin />}
      {r && (
        <Form<RepairAutoRule>
          key={`${r.companyId}-${r.updatedAt ?? ''}`}
          form={form}
          layout="vertical"
          initialValues={{ enabled: r.enabled, maxLevel: r.maxLevel, openMinutes: r.openMinutes }}
          data-testid="auto-rule-form"
        >
          <Form.Item name="enabled" label={t('启用')} valuePropName="checked">
            <Switch data-testid="auto-rule-enabled" />
          </Form.Item>
          <Form.Item name="maxLevel" label={t('告警等级上限')} extra={t('等级上限应为1-4')}>
            <InputNumber min={1} max={REPAIR_AUTO_MAX_LEVEL} precision={0} data-testid="auto-rule-level" />
          </Form.Item>
          <Form.Item name="openMinutes" label={t('告警持续超过（分钟）')} extra={t('持续分钟数应为1-1440')}>
            <InputNumber min={1} max={REPAIR_AUTO_MAX_MINUTES} precision={0} data-testid="auto-rule-minutes" />
          </Form.Item>
          <Typography.Text type="secondary" data-testid="auto-rule-origin">
            {r.custom ? t('由 $1 修改于 $2', r.updatedByName ?? '-', formatDateTime(r.updatedAt!)) : t('未设置，使用默认规则')}
          </Typography.Text>
        </Form>
      )}
      {issue && <Alert type="error" showIcon message={issue} style={{ marginTop: 12 }} data-testid="auto-rule-issue" />}
    </Modal>
  );
}
