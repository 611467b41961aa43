import { LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { authEndpoints } from '@ess/contract/auth';
import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { Breadcrumb, Button, Dropdown, Layout, Result } from 'antd';
import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { ancestorsOf } from '../../platform/menu.ts';
import { call } from '../../platform/request.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { SCREENS } from '../screens.ts';
import { HeaderBar } from './HeaderBar.tsx';
import { PopupNotices } from './HeaderActions.tsx';
import { Deferred } from '../../components/Deferred.tsx';
import { PageFallback } from '../../components/PageFallback.tsx';
import { pageTitle } from './page-titles.ts';
import { useSiderCollapsed } from './sider.ts';
import { openTab, useTabsStore } from './tabs.store.ts';

/**
 * The side menu and the tab strip are drawn after the page (components/Deferred.tsx), and their
 * code (antd's Menu and Tabs, the menu's icons) loads on its own too: a page's first draw does
 * not wait for it to download.
 */
const SideMenu = lazy(() => import('./SideMenu.tsx').then((m) => ({ default: m.SideMenu })));
const TabStrip = lazy(() => import('./TabStrip.tsx').then((m) => ({ default: m.TabStrip })));

/**
 * Signs out: ends the session on the server, forgets the token, goes to the login page. The token
 * is forgotten as soon as the request has taken it (the request layer reads it when called): the
 * ended session can send this page to the login page (a 401 of the live stream) before the answer.
 */
export async function signOut(navigate: (to: string) => unknown): Promise<void> {
  const ended = call(authEndpoints.logout, undefined, { noMessage: true }).catch(() => undefined);
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  await ended;
  await navigate('/login');
}

/** The user's name in the header, with the person center and sign-out on hover. */
function UserMenu() {
  const t = useT();
  const navigate = useNavigate();
  const name = useUserStore((s) => s.info?.name ?? '');
  return (
    <Dropdown
      menu={{
        items: [
          { key: 'person', icon: <UserOutlined />, label: t('个人中心') },
          { key: 'logout', icon: <LogoutOutlined />, label: t('退出登录') },
        ],
        onClick: ({ key }) => {
          if (key === 'person') void navigate('/system/person');
          else void signOut(navigate);
        },
      }}
    >
      <Button type="text" icon={<UserOutlined />} data-testid="user-menu">
        {name}
      </Button>
    </Dropdown>
  );
}

/**
 * The shared layout of every page but the login page (decision 0022): a header with the title,
 * language, notices and the user's menu; the side menu; breadcrumbs, the tab strip and the page.
 * Built on antd's Layout and Menu: one <header> (banner), one <nav>, one <main>.
 */
export function ConsoleLayout() {
  const t = useT();
  const location = useLocation();
  const menus = useUserStore((s) => s.menuProfiles);
  const refreshSeq = useTabsStore((s) => s.refreshSeq);
  const [collapsed, setCollapsed] = useSiderCollapsed();
  const path = location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname;
  const key = `${path}${location.search}`;

  useEffect(() => openTab({ key, path }), [key, path]);

  const entry = menus.find((m) => m.path === path);
  const crumbs = entry ? [...ancestorsOf(menus, entry), entry].map((m) => t(m.name)) : [t(pageTitle(menus, path))];
  const Screen = SCREENS[path];

  return (
    <Layout className="ess-layout">
      <Layout.Header className="ess-header">
        <Button
          type="text"
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          aria-label={t(collapsed ? '展开菜单' : '收起菜单')}
          aria-expanded={!collapsed}
          onClick={() => setCollapsed(!collapsed)}
        />
        <h1 className="ess-title">{t('储能运维平台')}</h1>
        {/* Drawn in turns (components/Deferred.tsx): the page's first draw in several short tasks. */}
        <Deferred>
          <HeaderBar />
          <UserMenu />
        </Deferred>
      </Layout.Header>
      <Layout hasSider>
        <Layout.Sider className="ess-sider" theme="light" width={220} collapsedWidth={56} collapsed={collapsed} trigger={null}>
          <Suspense fallback={null}>
            <SideMenu path={path} collapsed={collapsed} />
          </Suspense>
        </Layout.Sider>
        <Layout.Content className="ess-content">
          <PopupNotices />
          <div className="ess-page-head">
            <Deferred fallback={<div className="ess-page-head-placeholder" />}>
              <Suspense fallback={<div className="ess-page-head-placeholder" />}>
                <Breadcrumb items={crumbs.map((title) => ({ title }))} style={{ marginBottom: 4 }} />
                <TabStrip activeKey={key} />
              </Suspense>
            </Deferred>
          </div>
          <div style={{ padding: 16 }}>
            {Screen ? (
              <Suspense fallback={<PageFallback />}>
                <Screen key={`${key}#${refreshSeq[key] ?? 0}`} />
              </Suspense>
            ) : (
              <Result status="404" title="404" subTitle={t('页面不存在')} />
            )}
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
