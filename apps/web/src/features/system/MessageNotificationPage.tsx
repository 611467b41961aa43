import { CheckOutlined } from '@ant-design/icons';
import { notificationEndpoints } from '@ess/contract/system';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { resourceKeys, ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { useLiveEvent } from '../../platform/useLiveEvent.ts';
import { inboxResource } from './notification.resource.tsx';

const inboxKeys = resourceKeys(inboxResource.key);

/**
 * /system/messageNotification: the signed-in user's notifications. Opening one marks it read;
 * ticked ones or all can be marked read. New pushes (PopupWindow) and read changes (Unread)
 * refresh the list; the badge in the header follows the Unread event.
 */
export function MessageNotificationPage() {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const markRead = useMutation({
    mutationFn: (body: { ids: number[] } | { all: true }) => call(notificationEndpoints.read, body),
    onSuccess: () => client.invalidateQueries({ queryKey: inboxKeys.all }),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: inboxKeys.all });
  useLiveEvent('PopupWindow', refresh);
  useLiveEvent('Unread', refresh);
  return (
    <ResourceTable
      def={inboxResource}
      selectable
      onDetail={(row) => {
        if (!row.read) markRead.mutate({ ids: [row.id] });
      }}
      toolbar={(ctx) => [
        <Button
          key="read"
          icon={<CheckOutlined />}
          disabled={!ctx.selected.some((r) => !r.read)}
          onClick={() =>
            markRead.mutate(
              { ids: ctx.selected.map((r) => r.id) },
              { onSuccess: () => (ctx.clearSelection(), void message.success(t('已标记为已读'))) },
            )
          }
        >
          {t('标记已读')}
        </Button>,
        <Button
          key="all"
          type="primary"
          loading={markRead.isPending}
          onClick={() => markRead.mutate({ all: true }, { onSuccess: () => void message.success(t('已全部标记为已读')) })}
        >
          {t('全部已读')}
        </Button>,
      ]}
    />
  );
}
