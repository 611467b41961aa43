import { StopOutlined, UndoOutlined } from '@ant-design/icons';
import { alarmEndpoints, alarmShieldCreate, type AlarmRecord } from '@ess/contract/alarm';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Modal, Popconfirm, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { z } from 'zod';
import { useState } from 'react';
import { ResourceTable, issueText } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { useAlarmLiveRefresh } from './alarm.api.ts';
import { alarmKeys } from './alarm.keys.ts';
import { alarmResource } from './monitor.resource.tsx';
import { RepairFromAlarm } from '../../components/RepairFromAlarm.tsx';

interface ShieldValues {
  range: [Dayjs, Dayjs];
  remark?: string;
}

/** How long a new shield lasts unless changed. */
const DEFAULT_SHIELD_HOURS = 2;

/** The shield form of one alarm's source: a validity period (from now by default) and a remark. */
function ShieldModal({ alarm, onClose }: { alarm: AlarmRecord; onClose: () => void }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<ShieldValues>();
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: z.input<typeof alarmShieldCreate>) => call(alarmEndpoints.createShield, body),
    onSuccess: () => client.invalidateQueries({ queryKey: alarmKeys.all }),
  });
  const submit = async () => {
    const v = await form.validateFields();
    const body = { alarmId: alarm.id, start: v.range[0].valueOf(), end: v.range[1].valueOf(), remark: v.remark ?? null };
    // The contract's rules (end after start and now), before the call.
    const checked = alarmShieldCreate.safeParse(body);
    if (!checked.success) {
      setError(issueText(checked.error.issues[0]!.message, '屏蔽有效期', t));
      return;
    }
    await create.mutateAsync(body);
    void message.success(t('已屏蔽'));
    onClose();
  };
  return (
    <Modal
      open
      title={t('屏蔽告警')}
      okText={t('屏蔽')}
      cancelText={t('取消')}
      confirmLoading={create.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('屏蔽期间，$1 的「$2」不再产生新告警；已在进行中的告警仍会在恢复时结束。', `${alarm.deviceName} (${alarm.deviceCode})`, t(alarm.description))}
      </Typography.Paragraph>
      <Form<ShieldValues> form={form} layout="vertical" initialValues={{ range: [dayjs(), dayjs().add(DEFAULT_SHIELD_HOURS, 'hour')] }}>
        <Form.Item name="range" label={t('屏蔽有效期')} rules={[{ required: true, message: t('$1不能为空', t('屏蔽有效期')) }]}>
          <DatePicker.RangePicker showTime format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} aria-label={t('屏蔽有效期')} />
        </Form.Item>
        <Form.Item name="remark" label={t('备注')}>
          <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Modal>
  );
}

/**
 * /alarm/monitor: every alarm in scope with filters (station, device, level, type, status, time),
 * detail, xlsx export, and a shield on an alarm's source (validity period) or its cancellation.
 * New and ended alarms appear without a reload (RefreshAlarmKanban).
 */
export function AlarmMonitorPage() {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  useAlarmLiveRefresh();
  const [shielding, setShielding] = useState<AlarmRecord | null>(null);
  const cancel = useMutation({
    mutationFn: (id: number) => call(alarmEndpoints.cancelShield, { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: alarmKeys.all }),
  });
  return (
    <>
      <ResourceTable
        def={alarmResource}
        rowActions={(row) => [
          <RepairFromAlarm key="repair" alarm={row} />,
          ...(row.shield
            ? [
                <Popconfirm
                  key="unshield"
                  title={t('确定取消屏蔽吗？')}
                  okText={t('取消屏蔽')}
                  cancelText={t('关闭')}
                  onConfirm={() =>
                    void cancel.mutateAsync(row.shield!.id).then(
                      () => void message.success(t('已取消屏蔽')),
                      () => undefined,
                    )
                  }
                >
                  <Button type="link" size="small" icon={<UndoOutlined />} data-testid="alarm-unshield">
                    {t('取消屏蔽')}
                  </Button>
                </Popconfirm>,
              ]
            : row.dictId !== null
              ? [
                  <Button key="shield" type="link" size="small" icon={<StopOutlined />} onClick={() => setShielding(row)} data-testid="alarm-shield-open">
                    {t('屏蔽')}
                  </Button>,
                ]
              : []),
        ]}
      />
      {shielding && <ShieldModal alarm={shielding} onClose={() => setShielding(null)} />}
    </>
  );
}
