import type { Page } from 'playwright-core';
import { ResourceScreen } from './ResourceScreen.ts';

/** /system/role: the role form's menu tree is ticked by entry name. */
export class RoleScreen extends ResourceScreen {
  constructor(page: Page, base: string) {
    super(page, base, '/system/role');
  }

  async tickMenus(...names: string[]): Promise<void> {
    for (const name of names) {
      const node = this.form().locator('.ant-tree-treenode').filter({ has: this.page.getByText(name, { exact: true }) });
      await node.locator('.ant-tree-checkbox').click();
    }
  }

  /** The count under the tree ("已选 2 个菜单"). */
  menuCount() {
    return this.form().getByText(/已选 \d+ 个菜单/);
  }
}

export class UserScreen extends ResourceScreen {
  constructor(page: Page, base: string) {
    super(page, base, '/system/user');
  }
}

/** /system/messagePush: the push log and the "推送消息" form. */
export class MessagePushScreen extends ResourceScreen {
  constructor(page: Page, base: string) {
    super(page, base, '/system/messagePush');
  }

  async pushNow(title: string, content: string, users: string[]): Promise<void> {
    await this.toolbar(/推送消息/);
    await this.fill('消息标题', title);
    await this.fill('消息内容', content);
    await this.radio('按用户');
    await this.choose('推送对象', ...users);
    await this.radio('立即推送');
    await this.save();
  }
}
