import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ASSIGNEE_MESSAGE_EVENTS, type Escalation, type MessageEvent, type MessageRecipients, type QuietHours } from '@ess/contract/messaging';
import { Button, Checkbox, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useOptionSource } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { roleSource, userSource } from '../../components/options/people.ts';
import { LEVEL_OPTIONS } from './messaging.options.ts';

/** Time zones offered for quiet hours (the browser's list; the contract checks any IANA name). */
const TIME_ZONES: string[] = (() => {
  const f = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  return f ? f('timeZone') : ['Asia/Shanghai', 'UTC'];
})();

/** Users and roles picked for a recipient group (antd selects, labelled). */
function PeoplePicker({ id, userIds, roleIds, onChange }: { id: string; userIds: number[]; roleIds: number[]; onChange: (v: { userIds: number[]; roleIds: number[] }) => void }) {
  const t = useT();
  const users = useOptionSource(userSource);
  const roles = useOptionSource(roleSource);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Select
        id={`${id}-users`}
        aria-label={t('用户')}
        mode="multiple"
        placeholder={t('用户')}
        value={userIds}
        options={users.data ?? []}
        loading={users.isFetching}
        optionFilterProp="label"
        onChange={(v: number[]) => onChange({ userIds: v, roleIds })}
        style={{ width: '100%' }}
      />
      <Select
        id={`${id}-roles`}
        aria-label={t('角色')}
        mode="multiple"
        placeholder={t('角色')}
        value={roleIds}
        options={roles.data ?? []}
        loading={roles.isFetching}
        optionFilterProp="label"
        onChange={(v: number[]) => onChange({ userIds, roleIds: v })}
        style={{ width: '100%' }}
      />
    </Space>
  );
}

export const EMPTY_RECIPIENTS: MessageRecipients = { userIds: [], roleIds: [], siteContacts: false, assignee: false };

/** Who gets the messages: users, roles, the station's contact, and (the contract's ASSIGNEE_MESSAGE_EVENTS) the order's assignee or the statement's parties. */
export function RecipientsField({ id, value, onChange, event }: { id: string; value: unknown; onChange: (v: unknown) => void; event: MessageEvent | undefined }) {
  const t = useT();
  const v = { ...EMPTY_RECIPIENTS, ...(value as Partial<MessageRecipients> | undefined) };
  return (
    <div id={id} data-testid="rule-recipients">
      <PeoplePicker id={id} userIds={v.userIds} roleIds={v.roleIds} onChange={(p) => onChange({ ...v, ...p })} />
      <Space wrap style={{ marginTop: 8 }}>
        <Checkbox checked={v.siteContacts} onChange={(e) => onChange({ ...v, siteContacts: e.target.checked })}>
          {t('站点联系人')}
        </Checkbox>
        {event && ASSIGNEE_MESSAGE_EVENTS.includes(event) && (
          <Checkbox checked={v.assignee} onChange={(e) => onChange({ ...v, assignee: e.target.checked })} data-testid="rule-assignee">
            {event === 'statementToConfirm' ? t('结算单双方') : t('工单处理人')}
          </Checkbox>
        )}
      </Space>
    </div>
  );
}

const DEFAULT_QUIET: QuietHours = { start: '22:00', end: '07:00', overrideLevel: 1, timeZone: null };

/** Quiet hours: off (null), or start–end in a time zone with the alarm level that still goes through. */
export function QuietHoursField({ id, value, onChange, alarm }: { id: string; value: unknown; onChange: (v: unknown) => void; alarm: boolean }) {
  const t = useT();
  const q = value as QuietHours | null | undefined;
  return (
    <div id={id} data-testid="rule-quiet">
      <Space>
        <Switch checked={!!q} onChange={(on) => onChange(on ? DEFAULT_QUIET : null)} aria-label={t('免打扰时段')} data-testid="rule-quiet-switch" />
        <Typography.Text type="secondary">{t('免打扰时段内邮件和短信延后到结束时发送，站内通知不受影响')}</Typography.Text>
      </Space>
      {q && (
        <Space wrap style={{ marginTop: 8 }} data-testid="rule-quiet-fields">
          <Input aria-label={t('开始时间')} value={q.start} onChange={(e) => onChange({ ...q, start: e.target.value })} placeholder="22:00" style={{ width: 90 }} maxLength={5} />
          <span>–</span>
          <Input aria-label={t('结束时间')} value={q.end} onChange={(e) => onChange({ ...q, end: e.target.value })} placeholder="07:00" style={{ width: 90 }} maxLength={5} />
          <Select
            aria-label={t('时区')}
            value={q.timeZone ?? undefined}
            onChange={(z: string | undefined) => onChange({ ...q, timeZone: z ?? null })}
            options={TIME_ZONES.map((z) => ({ value: z, label: z }))}
            allowClear
            showSearch
            placeholder={t('时区：接收人或站点的')}
            style={{ width: 220 }}
          />
          {alarm && (
            <Select
              aria-label={t('仍然发送的告警等级')}
              value={q.overrideLevel ?? undefined}
              onChange={(l: number | undefined) => onChange({ ...q, overrideLevel: l ?? null })}
              options={LEVEL_OPTIONS.map((o) => ({ value: o.value as number, label: t('$1级及以上仍发送', o.label) }))}
              allowClear
              placeholder={t('不例外')}
              style={{ width: 180 }}
            />
          )}
        </Space>
      )}
    </div>
  );
}

const DEFAULT_ESCALATION: Escalation = { intervalMinutes: 30, levels: [{ userIds: [], roleIds: [] }], maxRepeats: 0 };

/** Escalation (alarm events): every N minutes the next level's users and roles get it too, then repeats to the last level. */
export function EscalationField({ id, value, onChange }: { id: string; value: unknown; onChange: (v: unknown) => void }) {
  const t = useT();
  const e = value as Escalation | null | undefined;
  const setLevel = (i: number, l: { userIds: number[]; roleIds: number[] }) => e && onChange({ ...e, levels: e.levels.map((x, j) => (j === i ? l : x)) });
  return (
    <div id={id} data-testid="rule-escalation">
      <Space>
        <Switch checked={!!e} onChange={(on) => onChange(on ? DEFAULT_ESCALATION : null)} aria-label={t('告警升级')} data-testid="rule-escalation-switch" />
        <Typography.Text type="secondary">{t('告警未转维修也未结束时，按间隔依次通知下一级接收人')}</Typography.Text>
      </Space>
      {e && (
        <div style={{ marginTop: 8 }} data-testid="rule-escalation-fields">
          <Space wrap>
            <span>{t('每隔')}</span>
            <InputNumber aria-label={t('升级间隔（分钟）')} min={1} max={10080} value={e.intervalMinutes} onChange={(n) => onChange({ ...e, intervalMinutes: n ?? 0 })} />
            <span>{t('分钟升级一次，最后一级重复')}</span>
            <InputNumber aria-label={t('最多重复次数')} min={0} max={20} value={e.maxRepeats} onChange={(n) => onChange({ ...e, maxRepeats: n ?? 0 })} />
            <span>{t('次')}</span>
          </Space>
          {e.levels.map((l, i) => (
            <div key={i} className="ess-escalation-level">
              <Space style={{ width: '100%', justifyContent: 'space-between' }}>
                <Typography.Text strong>{t('第$1级', i + 1)}</Typography.Text>
                {e.levels.length > 1 && (
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => onChange({ ...e, levels: e.levels.filter((_, j) => j !== i) })}>
                    {t('删除')}
                  </Button>
                )}
              </Space>
              <PeoplePicker id={`${id}-${i}`} userIds={l.userIds} roleIds={l.roleIds} onChange={(p) => setLevel(i, p)} />
            </div>
          ))}
          {e.levels.length < 5 && (
            <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => onChange({ ...e, levels: [...e.levels, { userIds: [], roleIds: [] }] })} style={{ marginTop: 8 }}>
              {t('添加一级')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
