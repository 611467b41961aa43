import {
  REPORT_FORMATS, REPORT_FREQUENCIES, REPORT_FREQUENCY_LABELS, REPORT_RUN_STATE_LABELS, REPORT_TEMPLATES, REPORT_TEMPLATE_LABELS,
  reportEndpoints as api, type ReportRunRecord, type ReportScheduleAdd, type ReportScheduleRecord,
} from '@ess/contract/report';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, TreeSelect, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { formatDateTime } from '../../components/number-format.ts';
import { ToneTag } from '../../components/ToneTag.tsx';
import { companyTreeSource } from '../../components/options/companies.ts';
import { roleSource, userSource } from '../../components/options/people.ts';
import { siteLabel, siteListQuery } from '../../components/options/sites.ts';
import { TIME_ZONES } from '../../components/time-zones.ts';
import { toast } from '../../platform/feedback/toast.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { reportKeys } from './report.keys.ts';

const PAGE_SIZE = 10;
type Draft = Omit<ReportScheduleAdd, 'companyId'> & { companyId: number | null; id?: number };

const emptyDraft = (): Draft => ({
  companyId: null, name: '', template: 'operations', siteIds: [], granularity: 'day', currency: null, format: 'xlsx', frequency: 'daily', hour: 8,
  weekday: 1, monthDay: 1, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai', userIds: [], roleIds: [], enabled: true, remark: null,
});

const WEEKDAYS = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'];

/** When a schedule sends, in words of the caller's language. */
function whenText(r: ReportScheduleRecord, t: (s: string, ...a: unknown[]) => string): string {
  const at = `${String(r.hour).padStart(2, '0')}:00`;
  const day = r.frequency === 'weekly' ? ` ${t(WEEKDAYS[r.weekday - 1]!)}` : r.frequency === 'monthly' ? ` ${t('$1日', r.monthDay)}` : '';
  return `${t(REPORT_FREQUENCY_LABELS[r.frequency])}${day} ${at} (${r.timeZone})`;
}

function ScheduleForm({ draft, onClose }: { draft: Draft; onClose: () => void }) {
  const t = useT();
  const client = useQueryClient();
  const [d, setD] = useState<Draft>(draft);
  const [saving, setSaving] = useState(false);
  const companies = useQuery({ queryKey: companyTreeSource.queryKey, queryFn: companyTreeSource.load });
  const sites = useQuery(siteListQuery);
  const users = useQuery({ queryKey: userSource.queryKey, queryFn: userSource.load });
  const roles = useQuery({ queryKey: roleSource.queryKey, queryFn: roleSource.load });
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const save = () => {
    if (d.companyId === null) return;
    setSaving(true);
    const body = { ...d, companyId: d.companyId };
    const done = d.id ? call(api.scheduleEdit, { ...body, id: d.id }) : call(api.scheduleAdd, body);
    done
      .then(() => {
        toast('success', t('已保存'));
        onClose();
        return client.invalidateQueries({ queryKey: reportKeys.schedules });
      })
      .catch(() => undefined)
      .finally(() => setSaving(false));
  };
  return (
    <Modal open title={t(d.id ? '修改报表计划' : '新增报表计划')} onCancel={onClose} onOk={save} confirmLoading={saving} okButtonProps={{ disabled: d.companyId === null }} width={640}>
      <Form layout="vertical" requiredMark={false} data-testid="report-schedule-form">
        <Form.Item label={t('公司')} htmlFor="schedule-company">
          <TreeSelect id="schedule-company" value={d.companyId ?? undefined} treeData={companies.data ?? []} treeDefaultExpandAll onChange={(companyId: number) => set({ companyId })} />
        </Form.Item>
        <Form.Item label={t('计划名称')} htmlFor="schedule-name">
          <Input id="schedule-name" value={d.name} maxLength={64} onChange={(e) => set({ name: e.target.value })} />
        </Form.Item>
        <Space wrap>
          <Form.Item label={t('报表模板')} htmlFor="schedule-template">
            <Select id="schedule-template" style={{ width: 180 }} value={d.template} options={REPORT_TEMPLATES.map((x) => ({ value: x, label: t(REPORT_TEMPLATE_LABELS[x]) }))} onChange={(template) => set({ template })} />
          </Form.Item>
          <Form.Item label={t('格式')} htmlFor="schedule-format">
            <Select id="schedule-format" style={{ width: 100 }} value={d.format} options={REPORT_FORMATS.map((x) => ({ value: x, label: x.toUpperCase() }))} onChange={(format) => set({ format })} />
          </Form.Item>
          <Form.Item label={t('统计粒度')} htmlFor="schedule-granularity">
            <Select id="schedule-granularity" style={{ width: 100 }} value={d.granularity} options={[{ value: 'day', label: t('按日') }, { value: 'month', label: t('按月') }]} onChange={(granularity) => set({ granularity })} />
          </Form.Item>
        </Space>
        <Form.Item label={t('站点')} htmlFor="schedule-sites">
          <Select id="schedule-sites" mode="multiple" value={d.siteIds} optionFilterProp="label" options={(sites.data ?? []).map((s) => ({ value: s.id, label: siteLabel(s) }))} onChange={(siteIds: number[]) => set({ siteIds })} />
        </Form.Item>
        <Space wrap>
          <Form.Item label={t('频率')} htmlFor="schedule-frequency">
            <Select id="schedule-frequency" style={{ width: 100 }} value={d.frequency} options={REPORT_FREQUENCIES.map((x) => ({ value: x, label: t(REPORT_FREQUENCY_LABELS[x]) }))} onChange={(frequency) => set({ frequency })} />
          </Form.Item>
          {d.frequency === 'weekly' && (
            <Form.Item label={t('星期')} htmlFor="schedule-weekday">
              <Select id="schedule-weekday" style={{ width: 100 }} value={d.weekday} options={WEEKDAYS.map((w, i) => ({ value: i + 1, label: t(w) }))} onChange={(weekday: number) => set({ weekday })} />
            </Form.Item>
          )}
          {d.frequency === 'monthly' && (
            <Form.Item label={t('日期')} htmlFor="schedule-month-day">
              <InputNumber id="schedule-month-day" min={1} max={28} value={d.monthDay} onChange={(v) => set({ monthDay: v ?? 1 })} />
            </Form.Item>
          )}
          <Form.Item label={t('发送时刻')} htmlFor="schedule-hour">
            <InputNumber id="schedule-hour" min={0} max={23} value={d.hour} onChange={(v) => set({ hour: v ?? 0 })} />
          </Form.Item>
          <Form.Item label={t('时区')} htmlFor="schedule-zone">
            <Select id="schedule-zone" style={{ width: 200 }} showSearch value={d.timeZone} options={TIME_ZONES.map((z) => ({ value: z, label: z }))} onChange={(timeZone: string) => set({ timeZone })} />
          </Form.Item>
        </Space>
        <Form.Item label={t('接收用户')} htmlFor="schedule-users">
          <Select id="schedule-users" mode="multiple" value={d.userIds} optionFilterProp="label" options={users.data ?? []} onChange={(userIds: number[]) => set({ userIds })} />
        </Form.Item>
        <Form.Item label={t('接收角色')} htmlFor="schedule-roles">
          <Select id="schedule-roles" mode="multiple" value={d.roleIds} optionFilterProp="label" options={roles.data ?? []} onChange={(roleIds: number[]) => set({ roleIds })} />
        </Form.Item>
        <Form.Item label={t('启用')}>
          <Switch aria-label={t('启用')} checked={d.enabled} onChange={(enabled) => set({ enabled })} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function RunHistory({ scheduleId }: { scheduleId?: number }) {
  const t = useT();
  const [current, setCurrent] = useState(1);
  const page = useQuery({ queryKey: reportKeys.runPage(current, scheduleId), queryFn: () => call(api.runPage, { current, pageSize: PAGE_SIZE, scheduleId }) });
  const columns: ColumnsType<ReportRunRecord> = [
    { title: t('计划名称'), dataIndex: 'scheduleName' },
    { title: t('计划时间'), dataIndex: 'dueAt', render: (v: string) => formatDateTime(v) },
    { title: t('统计周期'), key: 'period', render: (_v, r) => `${r.start} ~ ${r.end}` },
    {
      title: t('状态'), dataIndex: 'state',
      render: (_v, r) => <ToneTag tone={r.state === 'sent' ? 'success' : r.state === 'failed' ? 'error' : 'processing'}>{`${t(REPORT_RUN_STATE_LABELS[r.state])}${r.error ? `: ${t(r.error)}` : ''}`}</ToneTag>,
    },
    {
      title: t('接收人'), key: 'recipients',
      render: (_v, r) => (
        <Space size={[4, 4]} wrap>
          {r.recipients.map((x) => (
            <span key={x.userId} title={x.skipped ? t(x.skipped) : (x.email ?? '')}>
              <ToneTag tone={x.skipped ? 'default' : x.mailState === 'sent' ? 'success' : x.mailState === 'failed' ? 'error' : 'processing'}>{`${x.name} · ${x.language}`}</ToneTag>
            </span>
          ))}
        </Space>
      ),
    },
  ];
  return (
    <Card size="small" title={t('执行记录')} data-testid="report-runs">
      <Table<ReportRunRecord> size="small" rowKey="id" columns={columns} dataSource={page.data?.records ?? []} loading={page.isLoading} scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('暂无执行记录') }}
        pagination={{ current, pageSize: PAGE_SIZE, total: page.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false, hideOnSinglePage: true }} />
    </Card>
  );
}

/** The schedules of the caller's companies (mailed reports) and their run history. */
export function ReportSchedules() {
  const t = useT();
  const client = useQueryClient();
  const [current, setCurrent] = useState(1);
  const [editing, setEditing] = useState<Draft | null>(null);
  const page = useQuery({ queryKey: reportKeys.schedulePage(current), queryFn: () => call(api.schedulePage, { current, pageSize: PAGE_SIZE }) });
  const remove = (id: number) => {
    call(api.scheduleDelete, { id })
      .then(() => client.invalidateQueries({ queryKey: reportKeys.schedules }))
      .catch(() => undefined);
  };
  const columns: ColumnsType<ReportScheduleRecord> = [
    { title: t('计划名称'), dataIndex: 'name' },
    { title: t('公司'), dataIndex: 'companyName' },
    { title: t('报表模板'), dataIndex: 'template', render: (_v, r) => `${t(REPORT_TEMPLATE_LABELS[r.template])} · ${r.format.toUpperCase()}` },
    { title: t('发送时间'), key: 'when', render: (_v, r) => whenText(r, t) },
    { title: t('下次执行'), dataIndex: 'nextRunAt', render: (v: string | null) => (v ? formatDateTime(v) : '-') },
    { title: t('启用'), dataIndex: 'enabled', render: (v: boolean) => <ToneTag tone={v ? 'success' : 'default'}>{t(v ? '是' : '否')}</ToneTag> },
    {
      title: t('操作'), key: 'actions', fixed: 'right',
      render: (_v, r) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => setEditing({ ...r })}>{t('编辑')}</Button>
          <Popconfirm title={t('确定删除吗？')} onConfirm={() => remove(r.id)}>
            <Button size="small" type="link" danger>{t('删除')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="report-schedules">
      <Card size="small" title={t('计划发送')} extra={<Button type="primary" onClick={() => setEditing(emptyDraft())} data-testid="report-schedule-add">{t('新增报表计划')}</Button>}>
        <Typography.Paragraph type="secondary">{t('到期时按接收人的语言生成报表并通过邮件发送附件；报表按计划保存人的站点权限生成，接收人须能访问全部站点。')}</Typography.Paragraph>
        <Table<ReportScheduleRecord> size="small" rowKey="id" columns={columns} dataSource={page.data?.records ?? []} loading={page.isLoading} scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('暂无报表计划') }}
          pagination={{ current, pageSize: PAGE_SIZE, total: page.data?.total ?? 0, onChange: setCurrent, showSizeChanger: false, hideOnSinglePage: true }} />
      </Card>
      <RunHistory />
      {editing && <ScheduleForm draft={editing} onClose={() => setEditing(null)} />}
    </Space>
  );
}
