import { E2E_ADMIN_PASSWORD } from './server.ts';
import { ConsoleApi, signInToken } from './api.ts';

interface MenuNode {
  id: number;
  path: string;
  children: MenuNode[];
}
interface CompanyNode {
  id: number;
  name: string;
  children?: CompanyNode[];
}
interface Page<T> {
  records: T[];
}

export const USER_PASSWORD = 'Ops123456';

/** What the screens show once `fillConsole` has run; tests open these records by their names. */
export const RECORDS = {
  company: '华东储能有限公司',
  role: '运维工程师',
  user: 'zhangwei',
  scheduled: '月度运维报告提醒',
  pushed: '储能柜季度巡检通知',
  notice: '系统升级公告',
} as const;

const flatten = <T extends { children?: T[] }>(nodes: T[]): T[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

/**
 * Fills a fresh console with the records a person would find in a running one: companies in a
 * tree, roles with menus, users who have signed in (and one failed attempt), notifications pushed
 * now and scheduled, some read, and so the login and API logs. Everything goes through the API.
 */
export async function fillConsole(base: string, captchaCode: (id: string) => Promise<string>): Promise<ConsoleApi> {
  const api = await ConsoleApi.signIn(base, captchaCode, 'admin', E2E_ADMIN_PASSWORD);
  await api.post('/system/user/profile/change/info', { name: '系统管理员', phone: '13800000001', email: 'admin@ess.example.com' });

  const [group] = await api.post<CompanyNode[]>('/system/company/query/tree', {});
  if (!group) throw new Error('no root company');
  // The first start made the group and its two subsidiaries; they get their details, and more companies are added.
  const fields = (name: string, code: string, contact: string, phone: string, regionCode: string, address: string) => (
    { name, code, contact, phone, email: `${code.toLowerCase()}@ess.example.com`, regionCode, address }
  );
  let companies = flatten(await api.post<CompanyNode[]>('/system/company/query/tree', {}));
  const companyId = (name: string) => {
    const found = companies.find((c) => c.name === name);
    if (!found) throw new Error(`no company ${name}`);
    return found.id;
  };
  await api.post('/system/company/edit', { id: companyId(RECORDS.company), ...fields(RECORDS.company, 'EAST', '王磊', '13812345678', '310115', '上海市浦东新区张江路 88 号') });
  await api.post('/system/company/edit', { id: companyId('华南储能有限公司'), ...fields('华南储能有限公司', 'SOUTH', '陈静', '13923456789', '440305', '深圳市南山区科技园南路 16 号') });
  await api.post('/system/company/add', { parentId: group.id, ...fields('西北新能源有限公司', 'NORTHWEST', '马强', '13734567890', '610113', '西安市雁塔区高新路 52 号') });
  await api.post('/system/company/add', { parentId: companyId(RECORDS.company), ...fields('苏州运维分公司', 'SUZHOU', '李娜', '13645678901', '320505', '苏州市虎丘区狮山路 28 号') });
  companies = flatten(await api.post<CompanyNode[]>('/system/company/query/tree', {}));

  const menus = flatten(await api.post<MenuNode[]>('/system/menu/query/tree', {}));
  const menuIds = (...paths: string[]) => paths.map((p) => {
    const found = menus.find((m) => m.path === p);
    if (!found) throw new Error(`no menu ${p}`);
    return found.id;
  });
  const role = (name: string, code: string, company: string, remark: string, ...paths: string[]) =>
    api.post('/system/role/add', { companyId: companyId(company), name, code, remark, menuIds: menuIds(...paths) });
  await role(RECORDS.role, 'OPS', RECORDS.company, '负责储能柜日常巡检与消息处理', '/system/messageNotification', '/log/login', '/log/api');
  await role('站点经理', 'SITE_MANAGER', '华南储能有限公司', '管理本公司站点与人员', '/system/messageNotification', '/system/user', '/system/role');
  await role('日志审计员', 'AUDITOR', '储能集团', '只读审计登录与接口日志', '/log/login', '/log/api');
  await role('消息管理员', 'NOTIFIER', '西北新能源有限公司', '配置并推送平台消息', '/system/messageConfig', '/system/messagePush');
  const roles = await api.post<{ id: number; name: string }[]>('/system/role/query/list', {});
  const roleId = (name: string) => {
    const found = roles.find((r) => r.name === name);
    if (!found) throw new Error(`no role ${name}`);
    return found.id;
  };

  const user = (username: string, name: string, phone: string, company: string, ...roleNames: string[]) =>
    api.post('/system/user/add', {
      username, password: USER_PASSWORD, name, phone, email: `${username}@ess.example.com`, companyId: companyId(company), roleIds: roleNames.map(roleId),
    });
  await user(RECORDS.user, '张伟', '13511112222', RECORDS.company, RECORDS.role);
  await user('lina', '李娜', '13522223333', '苏州运维分公司', RECORDS.role, '日志审计员');
  await user('chenjing', '陈静', '13533334444', '华南储能有限公司', '站点经理');
  await user('maqiang', '马强', '13544445555', '西北新能源有限公司', '消息管理员');
  await user('zhouyang', '周洋', '13555556666', '储能集团', '日志审计员');

  // Sign-ins of those people, and a mistyped password, for the login log.
  for (const name of [RECORDS.user, 'lina', 'chenjing', 'maqiang']) await signInToken(base, captchaCode, name, USER_PASSWORD);
  await signInToken(base, captchaCode, 'zhouyang', 'Wrong12345').catch(() => undefined);

  const users = await api.post<Page<{ id: number; username: string }>>('/system/user/query/page', { current: 1, pageSize: 50 });
  const userId = (username: string) => {
    const found = users.records.find((u) => u.username === username);
    if (!found) throw new Error(`no user ${username}`);
    return found.id;
  };
  const notify = (title: string, content: string, target: { role?: string[]; user?: string[] }, pushAt?: Date) =>
    api.post('/system/notification/set/add', {
      title,
      content,
      pushMode: pushAt ? 'scheduled' : 'immediate',
      pushAt: pushAt?.toISOString(),
      targetType: target.role ? 'role' : 'user',
      targetIds: target.role ? target.role.map(roleId) : (target.user ?? []).map(userId),
    });
  await notify(RECORDS.pushed, '请各运维班组于本月 25 日前完成储能柜季度巡检，并在系统中提交巡检记录。', { role: [RECORDS.role, '站点经理'] });
  await notify(RECORDS.notice, '平台将于周六 02:00-04:00 升级，期间数据上报不受影响，控制指令暂停下发。', { user: ['admin', RECORDS.user, 'lina'] });
  await notify('告警阈值调整说明', '电池簇温度告警阈值由 45℃ 调整为 42℃，请关注告警列表变化。', { user: ['admin', 'chenjing'] });
  await notify('新用户培训安排', '新入职运维人员培训定于下周三 14:00，地点为集团三楼会议室。', { user: ['admin', 'zhouyang'] });
  await notify(RECORDS.scheduled, '请于每月 1 日前提交上月运维报告。', { user: ['admin', RECORDS.user, 'maqiang'] }, new Date(Date.now() + 7 * 86_400_000));

  // The administrator has read one notification.
  const mine = await api.post<Page<{ id: number; title: string }>>('/system/notification/query/page', { current: 1, pageSize: 10 });
  const read = mine.records.find((n) => n.title === '新用户培训安排');
  if (read) await api.post('/system/notification/read', { ids: [read.id] });
  return api;
}
