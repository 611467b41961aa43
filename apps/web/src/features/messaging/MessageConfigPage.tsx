import { messageRuleEndpoints } from '@ess/contract/messaging';
import { App } from 'antd';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { RowButton, useRowCall } from './parts.tsx';
import { ruleResource } from './rule.resource.tsx';

/** /message/message-config: the message rules, each enabled or disabled in one action. */
export function MessageConfigPage() {
  const t = useT();
  const { message } = App.useApp();
  const { busy, run } = useRowCall(ruleResource.key);
  const canEnable = useCan(messageRuleEndpoints.enable);
  const canDisable = useCan(messageRuleEndpoints.disable);
  return (
    <ResourceTable
      def={ruleResource}
      rowActions={(row) =>
        (row.enabled ? canDisable : canEnable)
          ? [
              <RowButton
                key="toggle"
                icon={row.enabled ? 'off' : 'on'}
                text={t(row.enabled ? '停用' : '启用')}
                testId="rule-toggle"
                loading={busy === `toggle-${row.id}`}
                onClick={() =>
                  void run(`toggle-${row.id}`, () => call(row.enabled ? messageRuleEndpoints.disable : messageRuleEndpoints.enable, { id: row.id })).then(
                    (r) => r !== undefined && void message.success(t(row.enabled ? '已停用' : '已启用')),
                  )
                }
              />,
            ]
          : []
      }
    />
  );
}
