import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { ProLayout, type MenuDataItem } from '@ant-design/pro-components';
import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { Breadcrumb, Dropdown, Result } from 'antd';
import { Suspense, useEffect, useLayoutEffect, useMemo } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { ancestorsOf } from '../../platform/menu.ts';
import { get } from '../../platform/request.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { hasScreen, SCREENS } from '../screens.ts';
import { HeaderBar } from './HeaderBar.tsx';
import { PopupNotices } from './HeaderActions.tsx';
import { buildMenuTree, type MenuNode } from './menu-tree.ts';
import { menuIcon } from './menu-icons.tsx';
import { PageFallback } from './PageFallback.tsx';
import { pageTitle } from './page-titles.ts';
import { TabStrip } from './TabStrip.tsx';
import { openTab, useTabsStore } from './tabs.store.ts';

function toProRoutes(nodes: MenuNode[], t: (s: string) => string): MenuDataItem[] {
  return nodes.map((n) => ({
    path: n.path,
    name: t(n.name),
    icon: menuIcon(n.icon),
    children: n.children ? toProRoutes(n.children, t) : undefined,
  }));
}

/** Signs out: ends the session on the server, forgets the token, goes to the login page. */
export async function signOut(navigate: (to: string) => unknown): Promise<void> {
  await get('/basic/user/logout', undefined, { noMessage: true }).catch(() => undefined);
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  await navigate('/login');
}

/**
 * With a fixed header ProLayout draws an empty, transparent <header> above the real one to hold
 * its place in the flow: a second banner landmark to assistive technology (axe:
 * landmark-no-duplicate-banner). It gets role="none"; the header with the title and the user's
 * menu stays the page's one banner.
 */
function unmarkSpacerHeader() {
  for (const h of document.querySelectorAll('.ant-pro-layout-container > header.ant-layout-header:not(.ant-pro-layout-header)')) {
    if (h.getAttribute('role') !== 'none') h.setAttribute('role', 'none');
  }
}

/** The shared layout of every page but the login page: menu, header, breadcrumbs, tab strip, page. */
export function ConsoleLayout() {
  const t = useT();
  const location = useLocation();
  const navigate = useNavigate();
  const menus = useUserStore((s) => s.menuProfiles);
  const info = useUserStore((s) => s.info);
  const refreshSeq = useTabsStore((s) => s.refreshSeq);
  const path = location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname;
  const key = `${path}${location.search}`;

  useEffect(() => openTab({ key, path }), [key, path]);
  useLayoutEffect(unmarkSpacerHeader);

  const route = useMemo(() => ({ path: '/', children: toProRoutes(buildMenuTree(menus, hasScreen), t) }), [menus, t]);
  const entry = menus.find((m) => m.path === path);
  const crumbs = entry ? [...ancestorsOf(menus, entry), entry].map((m) => t(m.name)) : [t(pageTitle(menus, path))];
  const Screen = SCREENS[path];

  return (
    <ProLayout
      title={t('储能运维平台')}
      logo={false}
      layout="mix"
      fixSiderbar
      fixedHeader
      siderWidth={220}
      location={{ pathname: path }}
      route={route}
      menu={{ locale: false }}
      menuItemRender={(item, dom) => (item.path ? <Link to={item.path}>{dom}</Link> : dom)}
      actionsRender={() => [<HeaderBar key="actions" />]}
      avatarProps={{
        icon: <UserOutlined />,
        size: 'small',
        title: info?.name ?? '',
        render: (_, dom) => (
          <Dropdown
            menu={{
              items: [
                { key: 'person', icon: <UserOutlined />, label: t('个人中心') },
                { key: 'logout', icon: <LogoutOutlined />, label: t('退出登录') },
              ],
              onClick: ({ key: k }) => {
                if (k === 'person') void navigate('/system/person');
                else void signOut(navigate);
              },
            }}
          >
            <span data-testid="user-menu">{dom}</span>
          </Dropdown>
        ),
      }}
      contentStyle={{ padding: 0 }}
    >
      <PopupNotices />
      <div style={{ padding: '8px 16px 0', background: 'var(--ant-color-bg-container, #fff)' }}>
        <Breadcrumb items={crumbs.map((title) => ({ title }))} style={{ marginBottom: 4 }} />
        <TabStrip activeKey={key} />
      </div>
      {/* ProLayout's content area is the page's one <main> landmark. */}
      <div style={{ padding: 16 }}>
        {Screen ? (
          <Suspense fallback={<PageFallback />}>
            <Screen key={`${key}#${refreshSeq[key] ?? 0}`} />
          </Suspense>
        ) : (
          <Result status="404" title="404" subTitle={t('页面不存在')} />
        )}
      </div>
    </ProLayout>
  );
}
