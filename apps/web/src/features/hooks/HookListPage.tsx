import { EditOutlined, HistoryOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { hookEndpoints, type HookTestResult } from '@ess/contract/hooks';
import { App, Button } from 'antd';
import { useNavigate } from 'react-router';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { hookKeys } from './hooks.keys.ts';
import { LinkButton, useRowCall } from '../../components/RowActions.tsx';
import { JsonBlock, OFF_ICON, ON_ICON, RecordStateTag } from './parts.tsx';
import { hookResource } from './relate.resource.tsx';

/** A test send's outcome: the record's state, the receiver's status, the time, the script's body or the reason. */
export function TestOutcome({ r }: { r: HookTestResult }) {
  const t = useT();
  return (
    <div data-testid="test-outcome">
      <p>
        <RecordStateTag state={r.state} /> {r.responseStatus !== null ? <code>HTTP {r.responseStatus}</code> : null}{' '}
        {r.durationMs !== null ? t('耗时 $1 ms', Math.round(r.durationMs)) : null}
      </p>
      {r.error ? <p data-testid="test-error">{t('原因：$1', r.error)}</p> : null}
      <JsonBlock value={r.output} label={t('脚本输出')} />
    </div>
  );
}

/** Sends a hook's trigger example now and shows the outcome. */
export function useTestSend(root: readonly string[]) {
  const t = useT();
  const { modal } = App.useApp();
  const { busy, run } = useRowCall(root);
  const send = async (id: number) => {
    const r = await run(`test-${id}`, () => call(hookEndpoints.relateTriggerTest, { id }));
    if (!r) return;
    const show = r.state === 'delivered' || r.state === 'skipped' ? modal.success : modal.error;
    show({ title: t('测试发送完成'), content: <TestOutcome r={r} />, okText: t('确定'), width: 620 });
  };
  return { busy, send };
}

/** The hooks (of a trigger, with `eventType`), each activated or deactivated in one action (settings kept), tested, and its records one click away. */
export function HookTable({ def = hookResource, eventType, emptyText }: { def?: typeof hookResource; eventType?: string; emptyText?: string }) {
  const t = useT();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { busy, run } = useRowCall(hookKeys.hooks);
  const test = useTestSend(hookKeys.all);
  const canAdd = useCan(hookEndpoints.relateTriggerAdd);
  const canEdit = useCan(hookEndpoints.relateTriggerEdit);
  const canActive = useCan(hookEndpoints.relateTriggerActive);
  const canTest = useCan(hookEndpoints.relateTriggerTest);
  const canRecords = useCan(hookEndpoints.execRecordPage);
  const setActive = async (id: number, active: boolean) => {
    const r = await run(`active-${id}`, () => call(hookEndpoints.relateTriggerActive, { id, active: active ? 'true' : 'false' }));
    if (r) void message.success(t(r.active ? '已启用' : '已停用'));
  };
  return (
    <ResourceTable
      def={def}
      emptyText={emptyText ?? t('还没有钩子：在触发器列表中选择一个事件，或点击新增')}
      toolbar={() =>
        canAdd
          ? [
              <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => void navigate(eventType ? `/hook/triggerConfig?eventType=${encodeURIComponent(eventType)}` : '/hook/triggerConfig')} data-testid="hook-add">
                {t('新增')}
              </Button>,
            ]
          : []
      }
      rowActions={(row) => [
        ...(canEdit
          ? [<LinkButton key="edit" icon={<EditOutlined />} text={t('编辑')} testId="hook-edit" onClick={() => void navigate(`/hook/triggerConfig?id=${row.id}`)} />]
          : []),
        ...(canActive
          ? [
              <LinkButton
                key="active"
                icon={row.active ? OFF_ICON : ON_ICON}
                text={t(row.active ? '停用' : '启用')}
                testId="hook-toggle"
                loading={busy === `active-${row.id}`}
                onClick={() => void setActive(row.id, !row.active)}
              />,
              // An open circuit (paused after failures) closes when the hook is activated again.
              ...(row.active && row.circuit === 'open'
                ? [<LinkButton key="resume" icon={ON_ICON} text={t('恢复投递')} testId="hook-resume" loading={busy === `active-${row.id}`} onClick={() => void setActive(row.id, true)} />]
                : []),
            ]
          : []),
        ...(canTest
          ? [<LinkButton key="test" icon={<SendOutlined />} text={t('测试')} testId="hook-test" loading={test.busy === `test-${row.id}`} onClick={() => void test.send(row.id)} />]
          : []),
        ...(canRecords
          ? [<LinkButton key="records" icon={<HistoryOutlined />} text={t('执行记录')} testId="hook-records" onClick={() => void navigate(`/hook/dispatch?hookId=${row.id}`)} />]
          : []),
      ]}
    />
  );
}

/** /hook/triggerRelate: every hook the caller's companies have. */
export function HookListPage() {
  return <HookTable />;
}
