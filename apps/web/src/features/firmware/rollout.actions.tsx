import {
  CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, RedoOutlined, StopOutlined,
} from '@ant-design/icons';
import { FIRMWARE_ROLLOUT_MACHINE, firmwareRolloutEndpoints, type FirmwareRolloutAction, type FirmwareRolloutRecord } from '@ess/contract/firmware';
import { useQueryClient } from '@tanstack/react-query';
import { App, Input } from 'antd';
import { useState, type ReactNode } from 'react';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { firmwareKeys } from './firmware.keys.ts';
import { LinkButton } from './parts.tsx';

const ICONS: Record<FirmwareRolloutAction, ReactNode> = {
  approve: <CheckOutlined />,
  reject: <CloseOutlined />,
  start: <PlayCircleOutlined />,
  pause: <PauseCircleOutlined />,
  resume: <PlayCircleOutlined />,
  stop: <StopOutlined />,
  retry: <RedoOutlined />,
  edit: <EditOutlined />,
  delete: <DeleteOutlined />,
};

/** The order actions are offered in. */
const ORDER: FirmwareRolloutAction[] = ['approve', 'reject', 'start', 'pause', 'resume', 'retry', 'stop', 'edit', 'delete'];

/** The action's label (the state machine's source text). */
export const actionLabel = (a: FirmwareRolloutAction): string => FIRMWARE_ROLLOUT_MACHINE.actionLabels[a];

/**
 * The rollout's actions the server allows the caller now (`actions`: the state machine and the
 * two-person rule), each as a button: approve / reject take a note, pause a reason, stop and
 * delete ask first; every outcome reads the rollout lists again.
 */
export function useRolloutActions(onEdit: (r: FirmwareRolloutRecord) => void, onDeleted?: () => void) {
  const t = useT();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, fn: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await fn();
      void message.success(t(done));
      return true;
    } catch {
      // shown by the request layer
      return false;
    } finally {
      setBusy(null);
      void client.invalidateQueries({ queryKey: firmwareKeys.rollouts });
      void client.invalidateQueries({ queryKey: firmwareKeys.tasks });
    }
  };
  const withText = (title: string, placeholder: string, send: (text: string | null) => Promise<unknown>, key: string, done: string) => {
    let text = '';
    modal.confirm({
      title: t(title),
      content: <Input.TextArea rows={3} maxLength={200} placeholder={t(placeholder)} aria-label={t(placeholder)} onChange={(e) => (text = e.target.value)} data-testid="action-note" />,
      okText: t('确定'),
      cancelText: t('取消'),
      onOk: () => run(key, () => send(text.trim() || null), done),
    });
  };
  const act = (r: FirmwareRolloutRecord, a: FirmwareRolloutAction) => {
    const key = `${a}-${r.id}`;
    switch (a) {
      case 'approve':
        return withText('审批通过升级任务', '审批意见（选填）', (note) => call(firmwareRolloutEndpoints.approve, { id: r.id, note }), key, '已审批通过');
      case 'reject':
        return withText('驳回升级任务', '驳回原因（选填）', (note) => call(firmwareRolloutEndpoints.reject, { id: r.id, note }), key, '已驳回');
      case 'pause':
        return withText('暂停升级任务', '暂停原因（选填）', (reason) => call(firmwareRolloutEndpoints.pause, { id: r.id, reason }), key, '已暂停');
      case 'start':
        return void run(key, () => call(firmwareRolloutEndpoints.start, { id: r.id }), '已开始');
      case 'resume':
        return void run(key, () => call(firmwareRolloutEndpoints.resume, { id: r.id }), '已继续');
      case 'retry':
        return void run(key, () => call(firmwareRolloutEndpoints.retry, { id: r.id, taskIds: [] }), '失败设备已重新排队');
      case 'stop':
        return modal.confirm({
          title: t('停止升级任务'),
          content: t('停止后尚未开始的设备将被取消，正在刷写的设备会完成当前步骤。确定停止？'),
          okText: t('停止'),
          okButtonProps: { danger: true },
          cancelText: t('取消'),
          onOk: () => run(key, () => call(firmwareRolloutEndpoints.stop, { id: r.id }), '已停止'),
        });
      case 'delete':
        return modal.confirm({
          title: t('删除升级任务'),
          content: t('确定删除升级任务「$1」？', r.name),
          okText: t('删除'),
          okButtonProps: { danger: true },
          cancelText: t('取消'),
          onOk: async () => {
            if (await run(key, () => call(firmwareRolloutEndpoints.delete, { id: r.id }), '删除成功')) onDeleted?.();
          },
        });
      case 'edit':
        return onEdit(r);
    }
  };
  const buttons = (r: FirmwareRolloutRecord): ReactNode[] =>
    ORDER.filter((a) => r.actions.includes(a)).map((a) => (
      <LinkButton
        key={a}
        icon={ICONS[a]}
        text={t(actionLabel(a))}
        testId={`rollout-${a}`}
        danger={a === 'stop' || a === 'delete' || a === 'reject'}
        loading={busy === `${a}-${r.id}`}
        onClick={() => void act(r, a)}
      />
    ));
  return { buttons, act, busy };
}
