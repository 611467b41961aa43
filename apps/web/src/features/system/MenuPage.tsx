import { SyncOutlined } from '@ant-design/icons';
import { menuEndpoints } from '@ess/contract/system';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm } from 'antd';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { menuResource } from './menu.resource.tsx';
import { systemKeys } from './system.keys.ts';

/**
 * /system/menu: the menu tree. "刷新菜单" re-applies the route table of this release (new screens,
 * their interfaces); entries an administrator edited keep their edits.
 */
export function MenuPage() {
  const t = useT();
  const { message } = App.useApp();
  const client = useQueryClient();
  const refresh = useMutation({
    mutationFn: () => call(menuEndpoints.refresh, {}),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: systemKeys.menu.all });
      void message.success(t('菜单已刷新'));
    },
  });
  return (
    <ResourceTable
      def={menuResource}
      toolbar={() => [
        <Popconfirm
          key="refresh"
          title={t('按当前版本的路由表刷新菜单？已修改的菜单保留修改。')}
          okText={t('刷新')}
          cancelText={t('取消')}
          onConfirm={() => refresh.mutate()}
        >
          <Button icon={<SyncOutlined />} loading={refresh.isPending}>
            {t('刷新菜单')}
          </Button>
        </Popconfirm>,
      ]}
    />
  );
}
