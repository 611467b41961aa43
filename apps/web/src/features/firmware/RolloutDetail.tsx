import { ArrowLeftOutlined, RedoOutlined } from '@ant-design/icons';
import {
  FIRMWARE_TASK_FAILED_STATES, firmwareRolloutEndpoints, firmwareTaskEndpoints, type FirmwareGroupRecord, type FirmwareRolloutDetail,
  type FirmwareTaskRecord, type FirmwareTaskState,
} from '@ess/contract/firmware';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Descriptions, Empty, Input, Progress, Result, Row, Select, Space, Spin, Table, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { FALLBACK_MS, useFirmwareLive } from './firmware.live.ts';
import { TASK_STATE_OPTIONS, WEEKDAY_OPTIONS } from './firmware.options.ts';
import { GroupStateTag, LinkButton, RolloutStateTag, TaskStateTag, WaitReason } from './parts.tsx';
import { useRolloutActions } from './rollout.actions.tsx';
import { rolloutPercent } from './rollout.resource.tsx';

const ACTIVE: FirmwareRolloutDetail['state'][] = ['running', 'paused', 'ready', 'pendingApproval'];

/** A group's progress: success share, failures, and its thresholds. */
function GroupCard({ g }: { g: FirmwareGroupRecord }) {
  const t = useT();
  const c = g.counts;
  const failed = c.issuedFailed + c.downloadFailed + c.verifyFailed + c.flashFailed + c.upgradeFailed;
  const pct = (n: number) => (c.total ? Math.round((n / c.total) * 100) : 0);
  return (
    <Card size="small" data-testid={`group-${g.no}`} title={g.canary ? t('金丝雀组') : t('第 $1 组', g.no)} extra={<GroupStateTag state={g.state} />}>
      <Progress percent={pct(c.success + failed + c.cancelled)} success={{ percent: pct(c.success) }} size="small" aria-label={t('进度')} />
      <Space wrap size={4}>
        <Typography.Text>{t('成功 $1', c.success)}</Typography.Text>
        <Typography.Text type={failed ? 'danger' : 'secondary'}>{t('失败 $1', failed)}</Typography.Text>
        <Typography.Text type="secondary">{t('共 $1 台', c.total)}</Typography.Text>
      </Space>
      <br />
      <Typography.Text type="secondary">{t('成功阈值 $1% · 失败阈值 $2%', g.successThreshold, g.errorThreshold)}</Typography.Text>
    </Card>
  );
}

/** A task's steps: each state reached with its time, progress, wait reason and reason. */
function TaskSteps({ id }: { id: number }) {
  const t = useT();
  const one = useQuery({ queryKey: firmwareKeys.task(id), queryFn: () => call(firmwareTaskEndpoints.one, { id }, { loading: false }) });
  if (one.isPending) return <Spin size="small" />;
  const steps = one.data?.steps ?? [];
  if (!steps.length) return <Typography.Text type="secondary">{t('暂无步骤')}</Typography.Text>;
  return (
    <Timeline
      data-testid={`task-steps-${id}`}
      items={steps.map((s, i) => ({
        key: i,
        color: FIRMWARE_TASK_FAILED_STATES.includes(s.state) ? 'red' : s.state === 'success' ? 'green' : 'blue',
        children: (
          <Space wrap>
            <Typography.Text type="secondary">{formatDateTime(s.at)}</Typography.Text>
            <TaskStateTag state={s.state} progress={s.progress} />
            <WaitReason reason={s.waitReason} />
            {s.reason && <Typography.Text>{s.reason}</Typography.Text>}
          </Space>
        ),
      }))}
    />
  );
}

/** The per-device tasks of a rollout, by group and state, each with its steps. */
function TaskTable({ rollout, live }: { rollout: FirmwareRolloutDetail; live: boolean }) {
  const t = useT();
  const client = useQueryClient();
  const { message } = App.useApp();
  const canRetry = useCan(firmwareRolloutEndpoints.retry) && rollout.actions.includes('retry');
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const [state, setState] = useState<FirmwareTaskState | undefined>();
  const [groupId, setGroupId] = useState<number | undefined>();
  const [deviceCode, setDeviceCode] = useState('');
  const q = { rolloutId: rollout.id, ...page, ...(state ? { state } : {}), ...(groupId ? { groupId } : {}), ...(deviceCode ? { deviceCode } : {}) };
  const tasks = useQuery({
    queryKey: firmwareKeys.taskPage(q),
    queryFn: () => call(firmwareTaskEndpoints.page, q, { loading: false }),
    refetchInterval: live ? FALLBACK_MS : false,
    placeholderData: (prev) => prev,
  });
  const retryOne = async (task: FirmwareTaskRecord) => {
    try {
      await call(firmwareRolloutEndpoints.retry, { id: rollout.id, taskIds: [task.id] });
      void message.success(t('失败设备已重新排队'));
    } catch {
      // shown by the request layer
    }
    void client.invalidateQueries({ queryKey: firmwareKeys.all });
  };
  return (
    <Card size="small" title={<h3 className="ess-resource-title">{t('设备升级明细')}</h3>}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('状态')}
          aria-label={t('状态')}
          style={{ width: 160 }}
          value={state}
          onChange={(v) => { setState(v); setPage((p) => ({ ...p, current: 1 })); }}
          options={TASK_STATE_OPTIONS.map((o) => ({ value: o.value as FirmwareTaskState, label: t(o.label) }))}
          data-testid="task-filter-state"
        />
        <Select
          allowClear
          placeholder={t('分组')}
          aria-label={t('分组')}
          style={{ width: 140 }}
          value={groupId}
          onChange={(v) => { setGroupId(v); setPage((p) => ({ ...p, current: 1 })); }}
          options={rollout.groups.map((g) => ({ value: g.id, label: g.canary ? t('金丝雀组') : t('第 $1 组', g.no) }))}
        />
        <Input.Search allowClear placeholder={t('设备编码')} aria-label={t('设备编码')} style={{ width: 200 }} onSearch={(v) => { setDeviceCode(v.trim()); setPage((p) => ({ ...p, current: 1 })); }} />
      </Space>
      <Table<FirmwareTaskRecord>
        size="small"
        rowKey="id"
        loading={tasks.isPending}
        dataSource={tasks.data?.records ?? []}
        data-testid="task-table"
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowRender: (r) => <TaskSteps id={r.id} /> }}
        pagination={{ current: page.current, pageSize: page.pageSize, total: tasks.data?.total ?? 0, showSizeChanger: true, onChange: (current, pageSize) => setPage({ current, pageSize }) }}
        columns={[
          { key: 'code', title: t('设备编码'), render: (_v, r) => <span data-testid="task-device">{r.deviceCode}</span> },
          { key: 'name', title: t('设备名称'), dataIndex: 'deviceName', ellipsis: true },
          { key: 'site', title: t('所属站点'), dataIndex: 'siteName', ellipsis: true },
          { key: 'group', title: t('分组'), render: (_v, r) => (r.groupNo === 1 && rollout.groups[0]?.canary ? t('金丝雀组') : t('第 $1 组', r.groupNo)) },
          { key: 'from', title: t('原版本'), render: (_v, r) => (r.fromVersion ? <code>{r.fromVersion}</code> : '-') },
          { key: 'reported', title: t('上报版本'), render: (_v, r) => (r.reportedVersion ? <code>{r.reportedVersion}</code> : '-') },
          {
            key: 'state', title: t('状态'),
            render: (_v, r) => (
              <Space direction="vertical" size={0}>
                <TaskStateTag state={r.state} progress={r.progress} />
                <WaitReason reason={r.waitReason} />
              </Space>
            ),
          },
          { key: 'reason', title: t('原因'), ellipsis: true, render: (_v, r) => r.reason ?? '-' },
          { key: 'attempts', title: t('尝试次数'), dataIndex: 'attempts' },
          { key: 'issuedAt', title: t('下发时间'), render: (_v, r) => formatDateTime(r.issuedAt) },
          { key: 'updatedAt', title: t('更新时间'), render: (_v, r) => formatDateTime(r.updatedAt) },
          {
            key: 'actions', title: t('操作'),
            render: (_v, r) =>
              canRetry && FIRMWARE_TASK_FAILED_STATES.includes(r.state) ? (
                <LinkButton icon={<RedoOutlined />} text={t('重试')} testId="task-retry" onClick={() => void retryOne(r)} />
              ) : null,
          },
        ]}
      />
    </Card>
  );
}

/** Maintenance windows as "周一、周二 22:00–06:00". */
function Windows({ windows }: { windows: FirmwareRolloutDetail['windows'] }) {
  const t = useT();
  if (!windows.length) return <>{t('不限')}</>;
  return (
    <Space direction="vertical" size={0}>
      {windows.map((w, i) => (
        <span key={i}>
          {`${w.days.length ? w.days.map((d) => t(WEEKDAY_OPTIONS[d - 1]!.label)).join('、') : t('每天')} ${w.start}–${w.end}`}
        </span>
      ))}
    </Space>
  );
}

/** /firmware/upgrade?id=: one rollout — its settings, approval, actions, groups with progress and the per-device tasks, updated live from the event stream (FirmwareProgress) while it is active. */
export function RolloutDetail({ id, onEdit }: { id: number; onEdit: (id: number) => void }) {
  const t = useT();
  const navigate = useNavigate();
  const back = () => void navigate('/firmware/upgrade');
  const actions = useRolloutActions((r) => onEdit(r.id), back);
  useFirmwareLive();
  const one = useQuery({
    queryKey: firmwareKeys.rollout(id),
    queryFn: () => call(firmwareRolloutEndpoints.one, { id }, { loading: false }),
    refetchInterval: (q) => (q.state.data && ACTIVE.includes(q.state.data.state) ? FALLBACK_MS : false),
  });
  if (one.isPending) return <Spin />;
  const r = one.data;
  if (!r) return <Result status="error" title={t('升级任务不存在或无权查看')} extra={<Button onClick={back}>{t('返回')}</Button>} />;
  const live = ACTIVE.includes(r.state);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="rollout-detail" data-state={r.state}>
      <Card
        size="small"
        title={
          <Space>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={back} aria-label={t('返回')} />
            <h2 className="ess-resource-title">{r.name}</h2>
            <RolloutStateTag state={r.state} />
          </Space>
        }
        extra={<Space wrap>{actions.buttons(r)}</Space>}
      >
        <Row gutter={16}>
          <Col xs={24} lg={16}>
            <Descriptions
              size="small"
              bordered
              column={{ xs: 1, md: 2 }}
              items={[
                { key: 'package', label: t('升级包'), children: <a onClick={() => void navigate(`/firmware/detail?id=${r.packageId}`)}>{`${r.packageName} ${r.packageVersion}`}</a> },
                { key: 'sites', label: t('站点'), children: r.siteNames.join('、') || t('全部') },
                {
                  key: 'grouping', label: t('分组'),
                  children: `${t('金丝雀组：$1 台', r.grouping.canarySize)} · ${r.grouping.groupPercent !== null ? t('其余每组 $1%', r.grouping.groupPercent) : t('其余每组 $1 台', r.grouping.groupSize ?? '-')}`,
                },
                { key: 'thresholds', label: t('阈值'), children: t('成功阈值 $1% · 失败阈值 $2%', r.successThreshold, r.errorThreshold) },
                {
                  key: 'approval', label: t('审批'),
                  children: r.requireApproval
                    ? r.approvedByName
                      ? `${r.approvedByName} · ${formatDateTime(r.approvedAt)}${r.approvalNote ? ` · ${r.approvalNote}` : ''}`
                      : t('待审批')
                    : t('无需审批'),
                },
                { key: 'safe', label: t('安全门'), children: t(r.safeGate ? '启用' : '停用') },
                { key: 'startAt', label: t('计划开始'), children: r.startAt ? formatDateTime(r.startAt) : t('点击开始后立即执行') },
                { key: 'windows', label: t('维护时段（站点时区）'), children: <Windows windows={r.windows} /> },
                { key: 'started', label: t('开始时间'), children: formatDateTime(r.startedAt) },
                { key: 'finished', label: t('结束时间'), children: formatDateTime(r.finishedAt) },
                ...(r.pauseReason ? [{ key: 'pause', label: t('暂停原因'), span: 2, children: <Typography.Text type="warning" data-testid="pause-reason">{r.pauseReason}</Typography.Text> }] : []),
                { key: 'creator', label: t('创建人'), children: `${r.createdByName ?? '-'} · ${formatDateTime(r.createdAt)}` },
                { key: 'remark', label: t('备注'), children: r.remark ?? '-' },
              ]}
            />
          </Col>
          <Col xs={24} lg={8}>
            <Progress type="dashboard" percent={rolloutPercent(r)} success={{ percent: r.counts.total ? Math.round((r.counts.success / r.counts.total) * 100) : 0 }} aria-label={t('进度')} />
          </Col>
        </Row>
      </Card>
      {r.groups.length ? (
        <Row gutter={[12, 12]}>
          {r.groups.map((g) => (
            <Col key={g.id} xs={24} md={12} xl={6}>
              <GroupCard g={g} />
            </Col>
          ))}
        </Row>
      ) : (
        <Empty description={t('开始后按分组生成设备任务')} />
      )}
      <TaskTable rollout={r} live={live} />
    </Space>
  );
}
