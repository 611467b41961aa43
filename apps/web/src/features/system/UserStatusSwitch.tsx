import { userEndpoints, type UserRow } from '@ess/contract/system';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Space, Switch } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { userEditBody, userValues } from './user.model.ts';
import { systemKeys } from './system.keys.ts';

const keys = systemKeys.user;

/**
 * The account status of a user in the list, switched in place: the user's record is read afresh
 * and saved with the new status. Nobody switches themselves or a built-in user here.
 */
export function UserStatusSwitch({ row }: { row: UserRow }) {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const me = useUserStore((s) => s.info?.id);
  const toggle = useMutation({
    mutationFn: async (on: boolean) => {
      const one = await client.fetchQuery({
        queryKey: keys.one(row.id),
        queryFn: () => call(userEndpoints.one, { id: row.id }),
        staleTime: 0,
      });
      await call(userEndpoints.edit, userEditBody({ ...userValues(one), status: on }, row.id));
      return on;
    },
    onSuccess: (on) => {
      void message.success(on ? t('账号已启用') : t('账号已停用'));
      return client.invalidateQueries({ queryKey: keys.all });
    },
  });
  // The state is written beside the switch (text inside it would sit on a pale grey when off).
  return (
    <Space size={6}>
      <Switch
        size="small"
        checked={row.status === 1}
        loading={toggle.isPending}
        disabled={row.buildIn || row.id === me}
        aria-label={t('账号状态：$1', row.username)}
        onChange={(on) => toggle.mutate(on)}
      />
      <span>{row.status === 1 ? t('启用') : t('停用')}</span>
    </Space>
  );
}
