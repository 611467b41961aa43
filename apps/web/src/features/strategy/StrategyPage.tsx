import { DeleteOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import {
  ISO_WEEKDAY_LABELS, ISO_WEEKDAYS, MAX_SCHEDULES, MAX_WINDOWS, STRATEGY_MODE_LABELS, STRATEGY_MODES, STRATEGY_MONTHS, STRATEGY_SYNC_LABELS, strategyEndpoints,
  type StrategyLimits, type StrategyMode, type StrategySchedule, type StrategySync, type StrategySyncState, type StrategyView, type StrategyWindow,
} from '@ess/contract/strategy';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert, App, Button, Card, Checkbox, Col, Descriptions, Empty, Form, Input, InputNumber, Row, Select, Space, Switch, Table, Typography, type TableColumnsType,
} from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { formatDateTime, formatNumber } from '../../components/number-format.ts';
import type { SiteRef } from '../../components/options/sites.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { strategyKeys } from './strategy.keys.ts';
import { draftIssues, draftOf, ENDS, issueMessage, saveBody, STARTS, withNewWindow, wholeYear, type Draft } from './strategy.model.ts';
import { SimulatePanel } from './SimulatePanel.tsx';
import { StrategyBar } from './StrategyBar.tsx';
import { ToneTag, type Tone } from '../../components/ToneTag.tsx';

const SYNC_TONES: Record<StrategySyncState, Tone> = { unsynced: 'default', pending: 'processing', applied: 'success', drifted: 'error' };

/** The EMS's state of the station's strategy, and the synchronise button. */
function SyncPanel({ sync, siteId }: { sync: StrategySync; siteId: number }) {
  const t = useT();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const can = useCan(strategyEndpoints.synchronization);
  const [busy, setBusy] = useState(false);
  const synchronise = async () => {
    setBusy(true);
    try {
      const next = await call(strategyEndpoints.synchronization, { id: sync.strategyId });
      qc.setQueryData<StrategyView>(strategyKeys.view(siteId), (v) => (v?.strategy ? { ...v, strategy: { ...v.strategy, sync: next } } : v));
      if (next.state === 'applied') void message.success(t('EMS已确认策略'));
      else void message.warning(t('策略已下发，EMS尚未确认'));
    } catch {
      // The request layer has shown the reason.
    } finally {
      setBusy(false);
    }
  };
  const time = (v: string | null) => (v ? formatDateTime(v) : '-');
  return (
    <Card
      size="small"
      title={t('同步状态')}
      data-testid="strategy-sync"
      extra={can && <Button icon={<SyncOutlined />} loading={busy} onClick={() => void synchronise()} data-testid="strategy-synchronise">{t('同步到EMS')}</Button>}
    >
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
        <Descriptions.Item label={t('状态')}>
          <ToneTag tone={SYNC_TONES[sync.state]} testId="strategy-sync-state">{t(STRATEGY_SYNC_LABELS[sync.state])}</ToneTag>
        </Descriptions.Item>
        <Descriptions.Item label={t('EMS设备')}>
          {sync.deviceCode ? (
            <Space size={4}>{sync.deviceCode}<ToneTag tone={sync.deviceOnline ? 'success' : 'default'}>{sync.deviceOnline ? t('在线') : t('离线')}</ToneTag></Space>
          ) : t('无')}
        </Descriptions.Item>
        <Descriptions.Item label={t('下发时间')}>{time(sync.sentAt)}</Descriptions.Item>
        <Descriptions.Item label={t('确认时间')}>{time(sync.appliedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('策略指纹')}><Typography.Text code>{sync.hash}</Typography.Text></Descriptions.Item>
        <Descriptions.Item label={t('EMS运行指纹')}>
          {sync.reportedHash === null ? '-' : <Typography.Text code>{sync.reportedHash || t('内置策略')}</Typography.Text>}
        </Descriptions.Item>
        <Descriptions.Item label={t('上报时间')}>{time(sync.reportedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('下发次数')}>{sync.attempts}</Descriptions.Item>
      </Descriptions>
      {sync.state === 'drifted' && <Alert type="error" showIcon message={t('EMS运行的策略与最近同步的不一致：请重新同步或检查现场设置')} />}
      {sync.state === 'unsynced' && <Alert type="info" showIcon message={t('策略已保存但尚未同步到EMS')} />}
      {sync.lastError && <Alert type="warning" showIcon style={{ marginTop: 8 }} message={`${t('上次下发失败')}: ${t(sync.lastError)}`} />}
    </Card>
  );
}

/** The windows of a schedule as editable rows. */
function WindowsEditor({ windows, onChange, disabled }: { windows: StrategyWindow[]; onChange: (w: StrategyWindow[]) => void; disabled: boolean }) {
  const t = useT();
  const set = (i: number, patch: Partial<StrategyWindow>) => onChange(windows.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  const rows = windows.map((w, i) => ({ ...w, key: i }));
  const columns: TableColumnsType<(typeof rows)[number]> = [
    { key: 'no', title: '#', width: 40, render: (_, r) => r.key + 1 },
    {
      key: 'start', title: t('开始时间'), width: 110,
      render: (_, r) => <Select aria-label={t('开始时间')} disabled={disabled} value={r.start} onChange={(v) => set(r.key, { start: v })} options={STARTS.map((s) => ({ value: s, label: s }))} style={{ width: 96 }} data-testid="window-start" />,
    },
    {
      key: 'end', title: t('结束时间'), width: 110,
      render: (_, r) => <Select aria-label={t('结束时间')} disabled={disabled} value={r.end} onChange={(v) => set(r.key, { end: v })} options={ENDS.map((s) => ({ value: s, label: s }))} style={{ width: 96 }} data-testid="window-end" />,
    },
    {
      key: 'mode', title: t('类型'), width: 110,
      render: (_, r) => (
        <Select<StrategyMode>
          aria-label={t('类型')}
          disabled={disabled}
          value={r.mode}
          onChange={(v) => set(r.key, v === 'idle' ? { mode: v, powerKw: 0, targetSoc: null } : { mode: v })}
          options={STRATEGY_MODES.map((m) => ({ value: m, label: t(STRATEGY_MODE_LABELS[m]) }))}
          style={{ width: 96 }}
          data-testid="window-mode"
        />
      ),
    },
    {
      key: 'power', title: t('功率 (kW)'), width: 120,
      render: (_, r) => <InputNumber aria-label={t('功率 (kW)')} disabled={disabled} value={r.powerKw} min={0} onChange={(v) => set(r.key, { powerKw: v ?? 0 })} style={{ width: 104 }} data-testid="window-power" />,
    },
    {
      key: 'soc', title: t('目标SOC (%)'), width: 120,
      render: (_, r) => (
        <InputNumber aria-label={t('目标SOC (%)')} disabled={disabled || r.mode === 'idle'} value={r.targetSoc} min={0} max={100} onChange={(v) => set(r.key, { targetSoc: v ?? null })} style={{ width: 104 }} />
      ),
    },
    {
      key: 'delete', title: '', width: 48,
      render: (_, r) => (
        <Button type="text" danger aria-label={t('删除时段')} disabled={disabled || windows.length <= 1} icon={<DeleteOutlined />} onClick={() => onChange(windows.filter((_w, j) => j !== r.key))} />
      ),
    },
  ];
  return (
    <>
      <Table size="small" rowKey="key" pagination={false} dataSource={rows} columns={columns} scroll={{ x: 'max-content' }} data-testid="strategy-windows" />
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        disabled={disabled || windows.length >= MAX_WINDOWS}
        onClick={() => onChange(withNewWindow(windows))}
        style={{ marginTop: 8 }}
        data-testid="window-add"
      >
        {t('添加时段')}
      </Button>
    </>
  );
}

/** One schedule: its name, priority, months and weekdays, its day as a bar and its windows. */
function ScheduleCard({ s, index, onChange, onRemove, disabled }: {
  s: StrategySchedule; index: number; onChange: (s: StrategySchedule) => void; onRemove?: () => void; disabled: boolean;
}) {
  const t = useT();
  return (
    <Card
      size="small"
      type="inner"
      title={t('方案 $1', index + 1)}
      data-testid="strategy-schedule"
      extra={onRemove && <Button type="link" danger size="small" disabled={disabled} icon={<DeleteOutlined />} onClick={onRemove}>{t('删除方案')}</Button>}
    >
      <Row gutter={[16, 8]}>
        <Col xs={24} md={8}>
          <Form.Item label={t('方案名称')} layout="vertical">
            <Input aria-label={t('方案名称')} disabled={disabled} value={s.name} maxLength={32} onChange={(e) => onChange({ ...s, name: e.target.value })} data-testid="schedule-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={4}>
          <Form.Item label={t('优先级')} layout="vertical" tooltip={t('多个方案适用于同一天时，数字小的优先')}>
            <InputNumber aria-label={t('优先级')} disabled={disabled} value={s.priority} min={1} max={99} precision={0} onChange={(v) => onChange({ ...s, priority: v ?? 1 })} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label={t('适用月份')} layout="vertical">
            <Select
              mode="multiple"
              aria-label={t('适用月份')}
              disabled={disabled}
              value={s.months}
              onChange={(v: number[]) => onChange({ ...s, months: [...v].sort((a, b) => a - b) })}
              options={STRATEGY_MONTHS.map((m) => ({ value: m, label: t('$1月', m) }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item label={t('适用星期')} layout="vertical">
            <Checkbox.Group
              disabled={disabled}
              value={s.weekdays}
              onChange={(v) => onChange({ ...s, weekdays: [...(v)].sort((a, b) => a - b) })}
              options={ISO_WEEKDAYS.map((d) => ({ value: d, label: t(ISO_WEEKDAY_LABELS[d]!) }))}
            />
          </Form.Item>
        </Col>
      </Row>
      <StrategyBar windows={s.windows} label={t('$1的24小时时段', s.name)} />
      <div style={{ marginTop: 12 }}>
        <WindowsEditor windows={s.windows} disabled={disabled} onChange={(windows) => onChange({ ...s, windows })} />
      </div>
    </Card>
  );
}

/** The station's limits as the rules see them. */
function LimitsNote({ limits }: { limits: StrategyLimits }) {
  const t = useT();
  const v = (n: number | null, unit: string) => (n === null ? t('未配置') : `${formatNumber(n)} ${unit}`);
  return (
    <Typography.Text type="secondary" data-testid="strategy-limits">
      {t('PCS额定功率：$1（$2台）；放电深度：$3；变压器保护功率：$4', v(limits.pcsRatedKw, 'kW'), limits.pcsCount, v(limits.depthOfDischarge, '%'), v(limits.transformerProtectionPower, 'kW'))}
    </Typography.Text>
  );
}

/** The editor of a station's strategy, from its saved one or the defaults. */
function StrategyEditor({ view }: { view: StrategyView }) {
  const t = useT();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const saved = view.strategy;
  const canSave = useCan(saved ? strategyEndpoints.edit : strategyEndpoints.add);
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved, view.limits, t('全年')));
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const issues = useMemo(() => draftIssues(draft, view.limits), [draft, view.limits]);
  const dirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(draftOf(saved, view.limits, t('全年'))), [draft, saved, view.limits, t]);
  const setSchedule = (i: number, s: StrategySchedule) => setDraft((d) => ({ ...d, schedules: d.schedules.map((x, j) => (j === i ? s : x)) }));
  const disabled = !canSave;

  const save = async () => {
    setTried(true);
    if (issues.length > 0) return;
    const out = saveBody(view.siteId, saved, draft);
    if (!out.ok) {
      void message.error(t(out.issue));
      return;
    }
    setBusy(true);
    try {
      if (out.kind === 'add') await call(strategyEndpoints.add, out.body as never);
      else await call(strategyEndpoints.edit, out.body as never);
      void message.success(t('保存成功'));
      await qc.invalidateQueries({ queryKey: strategyKeys.view(view.siteId) });
    } catch {
      // The request layer has shown the reason (the server checks the same rules).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {saved ? <SyncPanel sync={saved.sync} siteId={view.siteId} /> : <Alert type="info" showIcon message={t('该站点尚未设置运行策略：以下为默认值，保存后即新增')} data-testid="strategy-new" />}
      <Card size="small" title={t('运行限制')} extra={<LimitsNote limits={view.limits} />}>
        <Row gutter={[16, 0]}>
          <Col xs={12} md={6}>
            <Form.Item label={t('SOC下限 (%)')} layout="vertical">
              <InputNumber aria-label={t('SOC下限 (%)')} disabled={disabled} value={draft.socMin} min={0} max={100} onChange={(v) => setDraft({ ...draft, socMin: v ?? 0 })} style={{ width: '100%' }} data-testid="soc-min" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item label={t('SOC上限 (%)')} layout="vertical">
              <InputNumber aria-label={t('SOC上限 (%)')} disabled={disabled} value={draft.socMax} min={0} max={100} onChange={(v) => setDraft({ ...draft, socMax: v ?? 0 })} style={{ width: '100%' }} data-testid="soc-max" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item label={t('变压器保护功率 (kW)')} layout="vertical">
              <InputNumber
                aria-label={t('变压器保护功率 (kW)')}
                disabled={disabled}
                value={draft.transformerProtectionKw}
                min={0}
                placeholder={t('不限制')}
                onChange={(v) => setDraft({ ...draft, transformerProtectionKw: v ?? null })}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item label={t('需量目标 (kW)')} layout="vertical">
              {/* Read only: the station's target in force comes from the demand settings (decision 0040); the server does not store one here. */}
              <InputNumber aria-label={t('需量目标 (kW)')} disabled value={draft.demandTargetKw} placeholder={t('不限制')} style={{ width: '100%' }} data-testid="strategy-demand-target" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Space>
              <Switch id="anti-backflow" disabled={disabled} checked={draft.antiBackflow} onChange={(v) => setDraft({ ...draft, antiBackflow: v })} />
              <label htmlFor="anti-backflow">{t('防逆流（不向电网送电）')}</label>
            </Space>
          </Col>
        </Row>
      </Card>
      <Card
        size="small"
        title={t('运行方案')}
        extra={
          <Button
            icon={<PlusOutlined />}
            disabled={disabled || draft.schedules.length >= MAX_SCHEDULES}
            onClick={() => setDraft({ ...draft, schedules: [...draft.schedules, { ...wholeYear(t('方案 $1', draft.schedules.length + 1)), priority: Math.max(...draft.schedules.map((s) => s.priority)) + 1 }] })}
            data-testid="schedule-add"
          >
            {t('添加方案')}
          </Button>
        }
      >
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          {draft.schedules.map((s, i) => (
            <ScheduleCard
              key={i}
              s={s}
              index={i}
              disabled={disabled}
              onChange={(next) => setSchedule(i, next)}
              onRemove={draft.schedules.length > 1 ? () => setDraft({ ...draft, schedules: draft.schedules.filter((_x, j) => j !== i) }) : undefined}
            />
          ))}
        </Space>
      </Card>
      {(tried || dirty) && issues.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="strategy-issues"
          message={t('策略有 $1 处问题，修正后才能保存', issues.length)}
          description={<ul style={{ margin: 0, paddingInlineStart: 20 }}>{issues.map((i, k) => <li key={k}>{issueMessage(i, t)}</li>)}</ul>}
        />
      )}
      <SimulatePanel siteId={view.siteId} timeZone={view.timeZone} draft={draft} valid={issues.length === 0} />
      {canSave ? (
        <Space wrap>
          <Button type="primary" loading={busy} onClick={() => void save()} data-testid="strategy-save">{saved ? t('保存') : t('新增策略')}</Button>
          <Button disabled={!dirty} onClick={() => { setDraft(draftOf(saved, view.limits, t('全年'))); setTried(false); }}>{t('撤销修改')}</Button>
          {saved && dirty && <Typography.Text type="secondary">{t('保存后需重新同步到EMS')}</Typography.Text>}
        </Space>
      ) : (
        <Typography.Text type="secondary">{t('没有修改运行策略的权限')}</Typography.Text>
      )}
    </Space>
  );
}

/**
 * /operatecfg/strategy: a station's operation strategy — schedules of charge, discharge and idle
 * windows (a full 24 h partition each, drawn as a bar) with their months, weekdays and priorities,
 * the SOC limits, transformer protection, anti-backflow and the demand target — checked with the
 * contract's rules as it is edited, saved, and synchronised to the station's EMS with the state
 * the EMS confirms (applied, pending, drifted).
 */
export function StrategyPage() {
  const t = useT();
  const [site, setSite] = useState<SiteRef | null>(null);
  const onSite = useCallback((_id: number, s: SiteRef) => setSite(s), []);
  const view = useQuery({
    queryKey: strategyKeys.view(site?.id ?? 0),
    queryFn: () => call(strategyEndpoints.unique, { siteId: site!.id }, { loading: false }),
    enabled: !!site,
  });
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="strategy-page">
      <Card size="small">
        <Space wrap size={16}>
          <Space>
            <label htmlFor="strategy-site">{t('站点')}</label>
            <StationPicker autoSelectFirst id="strategy-site" value={site?.id ?? null} onChange={onSite} />
          </Space>
          {site && <Typography.Text type="secondary">{t('时段为站点当地时间（$1）', site.timeZone)}</Typography.Text>}
        </Space>
      </Card>
      {view.isError && <Alert type="error" showIcon message={view.error.message} data-testid="strategy-error" />}
      {view.isLoading && <Card size="small" loading />}
      {!site && !view.isLoading && <Empty description={t('请选择站点')} />}
      {/* A new answer for the station (saved again) starts the editor again; a synchronisation keeps it. */}
      {view.data && <StrategyEditor key={`${view.data.siteId}-${view.data.strategy?.updatedAt ?? 'new'}`} view={view.data} />}
    </Space>
  );
}
