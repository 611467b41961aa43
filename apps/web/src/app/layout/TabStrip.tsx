import { DownOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs, type MenuProps } from 'antd';
import { useNavigate } from 'react-router';
import { useT } from '../../platform/i18n/useT.ts';
import { firstLeaf } from '../../platform/menu.ts';
import { useUserStore } from '../../platform/user-store.ts';
import { WELCOME_PATH } from '../guard/navigation-guard.ts';
import { pageTitle } from './page-titles.ts';
import { closeTabs, refreshTab, useTabsStore, type TabAction } from './tabs.store.ts';

const OPEN = 'open:';

/**
 * Open pages with close current / others / left / right / all and refresh (product-spec §2).
 * When the tabs outgrow the strip it scrolls (wheel, touch, arrow keys between tabs); antd's own
 * overflow button is hidden (styles.css): it sat inside the tab list, where only tabs may be
 * (axe: aria-required-children). The strip's actions button lists every open page instead.
 */
export function TabStrip({ activeKey }: { activeKey: string }) {
  const t = useT();
  const navigate = useNavigate();
  const tabs = useTabsStore((s) => s.tabs);
  const menus = useUserStore((s) => s.menuProfiles);

  const close = (action: TabAction, key: string) => {
    const next = closeTabs(action, key, activeKey);
    const to = next?.key ?? firstLeaf(menus)?.path ?? WELCOME_PATH;
    if (to !== activeKey) void navigate(to);
  };

  /** A tab's actions; the strip's own button also lists every open page to go to (`withPages`). */
  const actions = (key: string, withPages = false): MenuProps => {
    const i = tabs.findIndex((x) => x.key === key);
    const pages: NonNullable<MenuProps['items']> = withPages
      ? [{ type: 'group', key: 'pages', label: t('已打开的页面'), children: tabs.map((tab) => ({ key: `${OPEN}${tab.key}`, label: t(pageTitle(menus, tab.path)) })) }, { type: 'divider' }]
      : [];
    return {
      items: [
        ...pages,
        { key: 'refresh', icon: <ReloadOutlined />, label: t('刷新') },
        { type: 'divider' },
        { key: 'current', label: t('关闭当前'), disabled: i === -1 },
        { key: 'others', label: t('关闭其他'), disabled: tabs.length <= 1 },
        { key: 'left', label: t('关闭左侧'), disabled: i <= 0 },
        { key: 'right', label: t('关闭右侧'), disabled: i === -1 || i >= tabs.length - 1 },
        { key: 'all', label: t('关闭全部') },
      ],
      onClick: ({ key: action, domEvent }) => {
        // The menu is rendered in a portal, but React bubbles its click to the tab underneath,
        // which would make the tab acted on the active one (e.g. "close left" must keep the page).
        domEvent.stopPropagation();
        if (action.startsWith(OPEN)) void navigate(action.slice(OPEN.length));
        else if (action === 'refresh') refreshTab(key);
        else close(action as TabAction, key);
      },
    };
  };

  // The actions button sits beside the tab list, not inside it: a tablist may hold only tabs.
  return (
    <div className="ess-tab-strip" style={{ display: 'flex', alignItems: 'flex-end', gap: 4 }}>
      <Tabs
        style={{ flex: 1, minWidth: 0 }}
        type="editable-card"
        hideAdd
        size="small"
        activeKey={activeKey}
        onChange={(key) => void navigate(key)}
        onEdit={(key, op) => {
          if (op === 'remove' && typeof key === 'string') close('current', key);
        }}
        tabBarStyle={{ margin: 0 }}
        items={tabs.map((tab) => ({
          key: tab.key,
          closable: true,
          label: (
            <Dropdown menu={actions(tab.key)} trigger={['contextMenu']}>
              <span>{t(pageTitle(menus, tab.path))}</span>
            </Dropdown>
          ),
        }))}
      />
      <Dropdown menu={actions(activeKey, true)} trigger={['click']}>
        <Button size="small" type="text" aria-label={t('标签操作')} icon={<DownOutlined />} data-testid="tab-actions" style={{ marginBottom: 4 }} />
      </Dropdown>
    </div>
  );
}
