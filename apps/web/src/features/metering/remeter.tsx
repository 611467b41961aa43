import { SyncOutlined } from '@ant-design/icons';
import {
  REMETER_HINT, REMETER_STATE_LABELS, SUBSYSTEM_ENDPOINTS, type ReadingSubsystem, type ReMeterBody, type ReMeterTask,
} from '@ess/contract/meter-reading';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Progress, Space, Tag, Tooltip } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../platform/feedback/toast.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { meteringKeys } from './metering.keys.ts';
import { QUALITY_COLOURS, solidTag } from './quality.tsx';

/** Whether a re-meter task is still at work (queued or running). */
export const taskActive = (task: Pick<ReMeterTask, 'state'> | null | undefined) => task?.state === 'queued' || task?.state === 'running';

/** One meter and period: what a re-meter is for, and what blocks a second one. */
export const reMeterKey = (b: Pick<ReMeterBody, 'deviceId' | 'periodStart' | 'periodEnd'>) => `${b.deviceId}:${b.periodStart}:${b.periodEnd}`;

/** How often a list with a running task is read again. */
export const TASK_POLL_MS = 5_000;
/** How long after a request the list is read again (the spec's 5–10 minutes, and some). */
export const POLL_AFTER_REQUEST_MS = 15 * 60_000;

/**
 * Re-metering on a subsystem screen. A request is sent once: from the click until the list shows
 * its task finished, the same meter and period cannot be asked again (the button is disabled and
 * says why); the answer (product-spec §8, "Task is being processed, please check later") is shown
 * at once. A refusal (another request runs: "Task is occupied, please retry later") is shown by the
 * request layer and unlocks the button once the list is read again.
 */
export function useReMeter(subsystem: ReadingSubsystem) {
  const t = useT();
  const client = useQueryClient();
  // key → the task id the server gave (0 while the answer is awaited).
  const [sent, setSent] = useState<ReadonlyMap<string, number>>(new Map());
  const inFlight = useRef(new Set<string>());
  // After a request the list is read again every few seconds for a while: a period without a
  // reading yet has no row (and no task shown) until its task has written one.
  const [lastSent, setLastSent] = useState<number | null>(null);
  useEffect(() => {
    if (lastSent === null) return undefined;
    const timer = setInterval(() => {
      if (Date.now() - lastSent > POLL_AFTER_REQUEST_MS) clearInterval(timer);
      else void client.invalidateQueries({ queryKey: meteringKeys.subsystem(subsystem) }, { cancelRefetch: false });
    }, TASK_POLL_MS);
    return () => clearInterval(timer);
  }, [lastSent, client, subsystem]);

  const blocked = useCallback(
    (row: Pick<ReMeterBody, 'deviceId' | 'periodStart' | 'periodEnd'> & { task: ReMeterTask | null }) => {
      if (taskActive(row.task)) return true;
      const id = sent.get(reMeterKey(row));
      if (id === undefined) return false;
      // Ours is done once the list shows that task (or a later one) finished.
      return !(row.task && id > 0 && row.task.id >= id);
    },
    [sent],
  );

  const request = useCallback(
    async (body: ReMeterBody) => {
      const key = reMeterKey(body);
      if (inFlight.current.has(key)) return;
      inFlight.current.add(key);
      setSent((m) => new Map(m).set(key, 0));
      try {
        const task = await call(SUBSYSTEM_ENDPOINTS[subsystem].reMeter, body);
        setSent((m) => new Map(m).set(key, task.id));
        setLastSent(Date.now());
        toast('info', t(task.message));
      } catch {
        setSent((m) => {
          const next = new Map(m);
          next.delete(key);
          return next;
        });
      } finally {
        inFlight.current.delete(key);
        await client.invalidateQueries({ queryKey: meteringKeys.subsystem(subsystem) });
      }
    },
    [client, subsystem, t],
  );
  return { blocked, request };
}

/** The re-meter button of a row or a detail: asks first, saying how long it takes; disabled while the task runs. */
export function ReMeterButton({ body, blocked, onConfirm, size = 'small', type = 'link' }: {
  body: ReMeterBody;
  blocked: boolean;
  onConfirm: (body: ReMeterBody) => Promise<void>;
  size?: 'small' | 'middle';
  type?: 'link' | 'default';
}) {
  const t = useT();
  const button = (
    <Button type={type} size={size} icon={<SyncOutlined />} disabled={blocked} data-testid="remeter">
      {t('重新抄表')}
    </Button>
  );
  if (blocked) {
    return (
      <Tooltip title={t(REMETER_HINT)}>
        <span>{button}</span>
      </Tooltip>
    );
  }
  return (
    <Popconfirm
      title={t('重新抄表')}
      description={<div style={{ maxWidth: 260 }}>{t(REMETER_HINT)}</div>}
      okText={t('确定')}
      cancelText={t('取消')}
      okButtonProps={{ 'data-testid': 'remeter-ok' }}
      onConfirm={() => void onConfirm(body)}
    >
      {button}
    </Popconfirm>
  );
}

/** A re-meter task's state and progress; while it runs, the list is read again every few seconds. */
export function TaskCell({ task, subsystem }: { task: ReMeterTask | null; subsystem: ReadingSubsystem }) {
  const t = useT();
  const client = useQueryClient();
  const active = taskActive(task);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => void client.invalidateQueries({ queryKey: meteringKeys.subsystem(subsystem) }, { cancelRefetch: false }), TASK_POLL_MS);
    return () => clearInterval(timer);
  }, [active, client, subsystem]);
  if (!task) return <span>-</span>;
  if (active) {
    return (
      <Space direction="vertical" size={0} style={{ width: '100%' }} data-testid="remeter-progress">
        <Progress size="small" percent={Math.round(task.progress)} status="active" aria-label={t('抄表进度')} />
        <span>{t(REMETER_STATE_LABELS[task.state])}</span>
      </Space>
    );
  }
  if (task.state === 'failed') {
    return (
      <Tooltip title={task.error ? t(task.error) : undefined}>
        <Tag {...solidTag(QUALITY_COLOURS.missing)}>{t(REMETER_STATE_LABELS.failed)}</Tag>
      </Tooltip>
    );
  }
  return (
    <Tag {...solidTag(task.changed ? QUALITY_COLOURS.spike_clamped : QUALITY_COLOURS.measured)} data-testid="remeter-done">
      {task.changed ? t('已重抄，结果有变化') : t('已重抄，结果无变化')}
    </Tag>
  );
}
