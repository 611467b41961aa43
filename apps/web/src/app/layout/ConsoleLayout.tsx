import { LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { authEndpoints } from '@ess/contract/auth';
import { TOKEN_STORAGE_KEY } from '@ess/contract/constants';
import { Breadcrumb, Button, Drawer, Dropdown, Layout, Result } from 'antd';
import { lazy, Suspense, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { directionOf } from '../../platform/i18n/locales.ts';
import { useTranslateMode } from '../../platform/i18n/translate-mode.ts';
import { useLocale, useT } from '../../platform/i18n/useT.ts';
import { ancestorsOf } from '../../platform/menu.ts';
import { call } from '../../platform/request.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { SCREENS } from '../screens.ts';
import { HeaderBar } from './HeaderBar.tsx';
import { PopupNotices } from './HeaderActions.tsx';
import { Deferred } from '../../components/Deferred.tsx';
import { PageFallback } from '../../components/PageFallback.tsx';
import { pageTitle } from './page-titles.ts';
import { useKeyboardScrollers } from './keyboard-scrollers.ts';
import { usePhoneLayout, useSiderCollapsed } from './sider.ts';
import { openTab, useTabsStore } from './tabs.store.ts';

/**
 * The side menu and the tab strip are drawn after the page (components/Deferred.tsx), and their
 * code (antd's Menu and Tabs, the menu's icons) loads on its own too: a page's first draw does
 * not wait for it to download.
 */
const SideMenu = lazy(() => import('./SideMenu.tsx').then((m) => ({ default: m.SideMenu })));
// In-context editing of translations (features/globalization), loaded only while translate mode is on.
const TranslateMode = lazy(() => import('../../features/globalization/TranslateMode.tsx'));
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
      {/* On a phone the name is hidden (the header keeps its title whole); it stays the button's name. */}
      <Button type="text" icon={<UserOutlined />} data-testid="user-menu" aria-label={name || undefined}>
        <span className="ess-header-label">{name}</span>
      </Button>
    </Dropdown>
  );
}

/**
 * The side menu's width: its longest single word (German "Betriebseinstellungen", 21 letters)
 * beside the icon and the arrow; longer labels wrap between words (styles.css).
 */
const SIDER_WIDTH = 244;

/** The id of the page's <main>, the skip link's target. */
export const MAIN_ID = 'main-content';

/**
 * The link a keyboard user meets first: it skips the header and the side menu. Hidden until it has
 * the focus (styles.css, .ess-skip-link). The browser's own jump to #main-content would go through
 * the router as a navigation; the focus is moved here instead.
 */
function SkipLink() {
  const t = useT();
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    const main = document.getElementById(MAIN_ID);
    main?.focus();
    main?.scrollIntoView?.({ block: 'start' });
  };
  return (
    <a className="ess-skip-link" href={`#${MAIN_ID}`} onClick={skip}>
      {t('跳到主要内容')}
    </a>
  );
}

/**
 * The shared layout of every page but the login page (decision 0022): a header with the title,
 * language, notices and the user's menu; the side menu; breadcrumbs, the tab strip and the page.
 * Built on antd's Layout and Menu: one <header> (banner), one <nav>, one <main>. Below 768 px
 * (antd's md breakpoint) the side menu is a drawer that the header's menu button opens and a
 * choice in it closes; from 768 px it is a column beside the page that the button folds.
 */
export function ConsoleLayout() {
  const t = useT();
  const rtl = directionOf(useLocale()) === 'rtl';
  const translating = useTranslateMode((s) => s.on);
  const location = useLocation();
  const menus = useUserStore((s) => s.menuProfiles);
  const refreshSeq = useTabsStore((s) => s.refreshSeq);
  const [collapsed, setCollapsed] = useSiderCollapsed();
  const phone = usePhoneLayout();
  // The page the drawer was opened on: going to another page (a choice in it, a tab) closes it.
  const [drawerOn, setDrawerOn] = useState<string | null>(null);
  const main = useRef<HTMLElement>(null);
  useKeyboardScrollers(main, t('横向滚动的表格'));
  const path = location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname;
  const key = `${path}${location.search}`;

  useEffect(() => openTab({ key, path }), [key, path]);
  const drawerOpen = drawerOn === key;
  const setDrawerOpen = (open: boolean) => setDrawerOn(open ? key : null);

  const entry = menus.find((m) => m.path === path);
  const crumbs = entry ? [...ancestorsOf(menus, entry), entry].map((m) => t(m.name)) : [t(pageTitle(menus, path))];
  const Screen = SCREENS[path];
  const menuShown = phone ? drawerOpen : !collapsed;

  return (
    <Layout className={phone ? 'ess-layout ess-layout-phone' : 'ess-layout'}>
      <SkipLink />
      <Layout.Header className="ess-header">
        <Button
          type="text"
          icon={menuShown ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          aria-label={t(menuShown ? '收起菜单' : '展开菜单')}
          aria-expanded={menuShown}
          data-testid="menu-button"
          onClick={() => (phone ? setDrawerOpen(!drawerOpen) : setCollapsed(!collapsed))}
        />
        <h1 className="ess-title">{t('储能运维平台')}</h1>
        {/* Drawn in turns (components/Deferred.tsx): the page's first draw in several short tasks. */}
        <Deferred>
          <HeaderBar />
          <UserMenu />
        </Deferred>
      </Layout.Header>
      <Layout hasSider={!phone}>
        {phone ? (
          <Drawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            placement={rtl ? 'right' : 'left'}
            width={300}
            title={t('菜单')}
            className="ess-menu-drawer"
            rootClassName="ess-menu-drawer-root"
            styles={{ body: { padding: 0 } }}
          >
            <Suspense fallback={null}>
              <SideMenu path={path} collapsed={false} />
            </Suspense>
          </Drawer>
        ) : (
          <Layout.Sider className="ess-sider" theme="light" width={SIDER_WIDTH} collapsedWidth={56} collapsed={collapsed} trigger={null}>
            <Suspense fallback={null}>
              <SideMenu path={path} collapsed={collapsed} />
            </Suspense>
          </Layout.Sider>
        )}
        <Layout.Content ref={main} className="ess-content" id={MAIN_ID} tabIndex={-1}>
          <PopupNotices />
          {translating && (
            <Suspense fallback={null}>
              <TranslateMode />
            </Suspense>
          )}
          <div className="ess-page-head">
            <Deferred fallback={<div className="ess-page-head-placeholder" />}>
              <Suspense fallback={<div className="ess-page-head-placeholder" />}>
                <Breadcrumb items={crumbs.map((title) => ({ title }))} style={{ marginBottom: 4 }} />
                <TabStrip activeKey={key} />
              </Suspense>
            </Deferred>
          </div>
          <div className="ess-page">
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
