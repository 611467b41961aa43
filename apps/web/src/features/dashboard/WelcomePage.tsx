import { SmileOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { useUserStore } from '../../platform/user-store.ts';

/** Shown to every signed-in user; the landing page of a user without any menu permission. */
export function WelcomePage() {
  const t = useT();
  const info = useUserStore((s) => s.info);
  const menus = useUserStore((s) => s.menuProfiles);
  return (
    <Result
      icon={<SmileOutlined />}
      title={t('欢迎使用储能运维平台')}
      subTitle={
        menus.length === 0
          ? t('您暂无菜单权限，请联系管理员分配')
          : info
            ? t('$1，欢迎回来', info.name)
            : undefined
      }
    />
  );
}
