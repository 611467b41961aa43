import { BellOutlined, WarningFilled } from '@ant-design/icons';
import { notificationEndpoints, type InboxCount } from '@ess/contract/system';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button } from 'antd';
import { useNavigate } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { useLiveEvent } from '../../platform/useLiveEvent.ts';
import { call } from '../../platform/request.ts';

export const unreadKey = ['system', 'notification', 'count'] as const;

/** The unread-notification badge: loaded once, then kept current by the Unread live event. */
/** Past this many the badge shows "99+". */
const UNREAD_OVERFLOW = 99;

export function UnreadBell() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: unreadKey,
    queryFn: () => call(notificationEndpoints.count, undefined, { noMessage: true, loading: false }),
    staleTime: Infinity,
  });
  useLiveEvent('Unread', ({ count }) =>
    queryClient.setQueryData(unreadKey, (old: InboxCount | undefined) => ({ total: old?.total ?? count, unread: count })),
  );
  return (
    <Button
      type="text"
      // The badge's number is visible text, so it is part of the name too, as the badge shows it (99+ past 99).
      aria-label={data?.unread ? t('消息通知：$1 条未读', data.unread > UNREAD_OVERFLOW ? `${UNREAD_OVERFLOW}+` : data.unread) : t('消息通知')}
      onClick={() => void navigate('/system/messageNotification')}
      data-testid="unread-bell"
    >
      <Badge count={data?.unread ?? 0} size="small" overflowCount={UNREAD_OVERFLOW}>
        <BellOutlined style={{ fontSize: 16 }} />
      </Badge>
    </Button>
  );
}

/**
 * Shows PopupWindow live events as notices that stay until closed; one notice per id. A pushed
 * notification shows its title as written; a newly opened alarm's title is a level label (source
 * text, through the pack) and the notice links to the alarm monitor.
 */
export function PopupNotices() {
  const { notification } = App.useApp();
  const t = useT();
  const navigate = useNavigate();
  useLiveEvent('PopupWindow', (p) => {
    if (p.kind === 'alarm') {
      const key = `popup-alarm-${p.id}`;
      notification.open({
        key,
        message: t(p.title),
        description: p.content,
        duration: 0,
        placement: 'topRight',
        icon: <WarningFilled style={{ color: '#a8071a' }} />,
        className: 'alarm-popup',
        actions: (
          <Button
            size="small"
            onClick={() => {
              notification.destroy(key);
              void navigate('/alarm/monitor');
            }}
          >
            {t('查看告警')}
          </Button>
        ),
      });
      return;
    }
    notification.open({ key: `popup-${p.id}`, message: p.title, description: p.content, duration: 0, placement: 'topRight' });
  });
  return null;
}
