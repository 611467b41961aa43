/**
 * The route/menu table: every screen of product-spec §2 as a menu entry, and the interfaces
 * (catalogue paths, relative to /api/manager) that the screen calls. A role grants menus; a call is
 * allowed when one of the user's roles grants a menu listing it (or grants the interface directly).
 * An interface pattern ending in "/**" covers every path under that prefix; one starting with "!"
 * takes the paths it covers out again (menuCovers).
 */
export interface MenuDef {
  path: string;
  parentPath?: string;
  /** Source text (Simplified Chinese), translated by the language pack. */
  name: string;
  icon?: string;
  /** Hidden entries are routes (detail pages) that do not show in the navigation. */
  hidden?: boolean;
  interfaces: string[];
  /**
   * A page added to an installation that already has roles: when the entry first appears, the
   * roles holding this other page get it too (a detail page follows its list page).
   */
  grantedWith?: string;
}

const dir = (path: string, name: string, icon: string): MenuDef => ({ path, name, icon, interfaces: [] });
const page = (parentPath: string, child: string, name: string, interfaces: string[], hidden = false): MenuDef => ({
  path: `${parentPath}/${child}`,
  parentPath,
  name,
  hidden,
  interfaces,
});

/** The company picker of company-scoped records (messaging). */
const COMPANY_PICKER = '/system/company/query/tree';
const SITE_PICKERS = ['/system/company/query/tree', '/configure/site/query/tree', '/configure/site/query/list'];
/** The metering screens pick a station's meters from the device registry's list. */
const METER_PICKER = '/configure/device/query/list';
/** A statement's what-if prices it with another template, picked from the template list. */
const WHAT_IF_TEMPLATES = '/operation/price/template/query/list';
/**
 * Handling a station (acknowledge, maintenance) is an operations action, not part of viewing it:
 * the monitoring pages leave it out (an investor who reads them cannot handle), the operations
 * board grants it (decision 0033).
 */
/** A relation to the thing model picks a console product and its properties, event codes, commands. */
const IOT_THING_MODEL = ['/configure/product/query/list', '/configure/property/query/list', '/configure/product/event/query/list', '/configure/product/command/query/list'];
const NO_SITE_HANDLE = '!/comprehensive/site/handle';

export const MENUS: MenuDef[] = [
  dir('/home', '首页', 'home'),
  page('/home', 'index', '首页概览', ['/home/page/**', ...SITE_PICKERS]),

  dir('/synthesis', '综合监控', 'dashboard'),
  page('/synthesis', 'realTime', '实时监控', ['/comprehensive/**', NO_SITE_HANDLE, ...SITE_PICKERS]),
  page('/synthesis', 'running', '运行监控', ['/comprehensive/**', NO_SITE_HANDLE, ...SITE_PICKERS]),
  page('/synthesis', 'businessOverview', '经营概览', ['/overview/energy/arbitrage/**', ...SITE_PICKERS]),

  dir('/operation', '运营管理', 'account-book'),
  page('/operation', 'meter', '储能抄表结算', ['/operation/energy/meter/**', METER_PICKER, ...SITE_PICKERS]),
  page('/operation', 'solar', '光伏抄表结算', ['/operation/pv/meter/**', METER_PICKER, ...SITE_PICKERS]),
  page('/operation', 'pile', '充电桩抄表结算', ['/operation/charging/pile/meter/**', METER_PICKER, ...SITE_PICKERS]),
  page('/operation', 'statement', '储能结算单', ['/operation/statement/**', '/configure/site/statement/**', '/system/user/query/list', WHAT_IF_TEMPLATES, ...SITE_PICKERS]),
  page('/operation', 'statementDetail', '结算单详情', ['/operation/statement/**', WHAT_IF_TEMPLATES], true),

  dir('/meter', '电表数据', 'dashboard'),
  page('/meter', 'data', '电表数据', ['/meter/electric/**', METER_PICKER, ...SITE_PICKERS]),
  page('/meter', 'time', '零点数据', ['/meter/zero/**', METER_PICKER, ...SITE_PICKERS]),
  page('/meter', 'reading', '定时抄表', ['/meter/timing/**', METER_PICKER, ...SITE_PICKERS]),

  dir('/demand', '需量管理', 'line-chart'),
  page('/demand', 'analysis', '需量分析', ['/demand/analysis/**', ...SITE_PICKERS]),
  page('/demand', 'track', '需量跟踪', ['/demand/track/**', ...SITE_PICKERS]),
  page('/demand', 'reconcile', '需量对账', ['/demand/reconciliation/**', ...SITE_PICKERS]),
  page('/demand', 'setting', '需量设置', ['/demand/setting/**', ...SITE_PICKERS]),

  dir('/operatecfg', '运营配置', 'setting'),
  page('/operatecfg', 'price', '电价模板', ['/operation/price/template/**', '/operation/price/cycle/**', '/dictionary/region/query/tree', '/i18n/currency/query/list', ...SITE_PICKERS]),
  page('/operatecfg', 'pricedetail', '电价详情', ['/operation/price/**', '/configure/price/cycle/**', '/configure/solar/price/cycle/**'], true),
  page('/operatecfg', 'strategy', '运行策略', ['/configure/operation/strategy/**', ...SITE_PICKERS]),
  page('/operatecfg', 'rate', '费率配置', ['/configure/price/cycle/**', '/configure/solar/price/cycle/**', '/operation/price/cycle/query/templates', '/i18n/currency/query/list', ...SITE_PICKERS]),

  dir('/monitor', '设备监控', 'monitor'),
  page('/monitor', 'device', '设备列表', ['/monitor/**', '/configure/device/data/**', '/configure/device/query/**', ...SITE_PICKERS]),
  page('/monitor', 'energy', '能量监控', ['/monitor/**', '/configure/device/query/**', ...SITE_PICKERS]),
  // A device opened from the monitor stays in the monitor section (breadcrumb, side menu); the
  // registry's own detail page is /product/equipmentDetail.
  {
    ...page('/monitor', 'deviceDetail', '设备详情', ['/monitor/**', '/configure/device/data/**', '/configure/device/query/**', '/template/product/data/**'], true),
    grantedWith: '/monitor/device',
  },

  dir('/analysis', '数据分析', 'area-chart'),
  page('/analysis', 'retrieval', '数据检索', ['/template/product/data/**', '/monitor/device/one/history', '/configure/device/query/**', ...SITE_PICKERS]),

  dir('/alarm', '告警管理', 'alert'),
  page('/alarm', 'alarmKanban', '告警看板', ['/alarm/kanban/**', '/alarm/monitor/query/**', ...SITE_PICKERS]),
  page('/alarm', 'monitor', '告警监控', ['/alarm/monitor/**', '/configure/device/query/list', ...SITE_PICKERS]),
  page('/alarm', 'analysis', '故障分析', ['/alarm/monitor/query/**', '/alarm/monitor/export', '/alarm/kanban/**', ...SITE_PICKERS]),
  page('/alarm', 'alarm', '告警字典', ['/alarm/dict/**', '/configure/product/query/list']),

  dir('/repair', '维修管理', 'tool'),
  page('/repair', 'order', '维修工单', ['/inspection/repair/**', '/system/user/query/list', '/configure/device/query/list', '/basic/oss/**', ...SITE_PICKERS]),
  page('/repair', 'order-detail', '维修工单详情', ['/inspection/repair/**', '/system/user/query/list', '/basic/oss/**'], true),

  dir('/config', '站点配置', 'cluster'),
  page('/config', 'site', '站点管理', ['/configure/site/**', '/dictionary/region/query/tree', '/i18n/currency/query/list', '/basic/oss/**', '/system/company/query/**']),
  page('/config', 'siteSet', '站点设置', ['/configure/site/key/value/**', '/configure/site/query/**', '/system/company/query/tree']),
  page('/config', 'circuit', '配电图设置', ['/configure/distribution/diagram/**', '/comprehensive/site/values', '/configure/device/query/**', '/configure/device/data/latest/list', ...SITE_PICKERS]),
  page('/config', 'lockers', '储能柜管理', ['/configure/cabinet/**', ...SITE_PICKERS]),

  dir('/product', '产品设备', 'appstore'),
  page('/product', 'management', '产品管理', ['/configure/product/**', '/configure/property/**', '/configure/static/property/**']),
  page('/product', 'template', '产品模板', ['/template/product/**', '/configure/product/query/list']),
  page('/product', 'config', '参数配置', ['/configure/param/**', '/configure/product/query/list']),
  page('/product', 'callback', '回调管理', ['/configure/callback/**']),
  page('/product', 'equipment', '设备管理', ['/configure/device/**', '/configure/product/query/list', '/configure/cabinet/query/list', ...SITE_PICKERS]),
  page('/product', 'replace', '设备更换', ['/configure/device/change/**', '/configure/device/query/**', ...SITE_PICKERS]),
  page('/product', 'equipmentDetail', '设备详情', ['/configure/device/**', '/monitor/**', '/template/product/data/**'], true),

  dir('/iot', '物联网', 'api'),
  page('/iot', 'appConfig', '应用配置', ['/iot/config/**', '/iot/sync/**', '/iot/unmapped/**', COMPANY_PICKER]),
  page('/iot', 'productManagement', '物联网产品', ['/iot/product/**', '/iot/sync/**', '/iot/relate/**', '/iot/param/**', '/iot/config/query/list']),
  page('/iot', 'productDetail', '产品详情', ['/iot/product/**', '/iot/property/**', '/iot/event/**', '/iot/command/**', '/iot/relate/**', '/iot/device/query/page', '/iot/sync/product/one', '/iot/sync/query/one', '/iot/sync/approve', '/iot/sync/discard', ...IOT_THING_MODEL], true),
  page('/iot', 'productCommandForm', '产品命令', ['/iot/command/**', '/iot/relate/command/**', '/iot/relate/param/**', '/iot/param/**', '/iot/product/query/one', '/iot/device/query/page', ...IOT_THING_MODEL], true),
  page('/iot', 'productCommandDetail', '命令详情', ['/iot/command/**', '/iot/relate/command/**', '/iot/param/**'], true),
  page('/iot', 'productEventForm', '产品事件', ['/iot/event/**', '/iot/relate/event/**', '/iot/product/query/one', '/iot/device/query/page', ...IOT_THING_MODEL], true),
  page('/iot', 'productEventDetail', '事件详情', ['/iot/event/**', '/iot/relate/event/**', '/iot/param/**'], true),
  page('/iot', 'device', '物联网设备', ['/iot/device/**', '/iot/sync/device/one', '/iot/sync/query/one', '/iot/sync/approve', '/iot/sync/discard', '/iot/config/query/list', '/iot/product/query/list']),
  page('/iot', 'deviceDetail', '设备详情', ['/iot/device/**', '/iot/sync/device/one', '/iot/sync/query/one', '/iot/sync/approve', '/iot/sync/discard', '/iot/relate/**', '/iot/property/query/list', '/iot/event/query/list', '/iot/command/query/list', METER_PICKER, ...IOT_THING_MODEL], true),

  dir('/system', '系统管理', 'setting'),
  page('/system', 'messageConfig', '消息配置', ['/system/notification/set/**', '/system/role/query/list', '/system/user/query/list']),
  page('/system', 'messagePush', '消息推送', ['/system/notification/set/**', '/system/notification/log/**', '/system/role/query/list', '/system/user/query/list']),
  page('/system', 'messageNotification', '消息通知', ['/system/notification/query/**', '/system/notification/read']),
  page('/system', 'company', '公司管理', ['/system/company/**', '/dictionary/region/query/tree']),
  page('/system', 'menu', '菜单管理', ['/system/menu/**', '/system/interface/query/list']),
  page('/system', 'role', '角色管理', ['/system/role/**', '/system/menu/query/tree', '/system/interface/query/list', '/system/company/query/tree']),
  page('/system', 'user', '用户管理', ['/system/user/query/**', '/system/user/add', '/system/user/edit', '/system/user/export', '/system/user/delete', '/system/role/query/list', ...SITE_PICKERS]),

  dir('/globalization', '国际化', 'global'),
  page('/globalization', 'language', '语言管理', ['/i18n/language/**']),
  page('/globalization', 'translation', '翻译管理', ['/i18n/data/**', '/i18n/text/**', '/i18n/language/**', '/configure/text/node/**']),
  page('/globalization', 'engine', '翻译引擎', ['/i18n/engine/**']),
  page('/globalization', 'currency', '币种管理', ['/i18n/currency/**']),

  dir('/log', '日志管理', 'file-text'),
  page('/log', 'login', '登录日志', ['/system/loginLog/**']),
  page('/log', 'api', '接口日志', ['/system/access/log/**']),

  // Messaging (issue 20, decision 0043): accounts, channels, templates and rules are company-scoped.
  dir('/mail', '邮件', 'mail'),
  page('/mail', 'mail-account', '邮件账号', ['/mail/account/**', '/mail/template/query/list', COMPANY_PICKER]),
  page('/mail', 'mail-template', '邮件模板', ['/mail/template/**', COMPANY_PICKER, ...SITE_PICKERS]),
  page('/mail', 'mail-log', '邮件日志', ['/mail/log/**', '/mail/account/query/list', '/mail/template/query/list', COMPANY_PICKER]),

  dir('/sms', '短信', 'message'),
  page('/sms', 'sms-channel', '短信渠道', ['/sms/channel/**', '/sms/template/query/list', COMPANY_PICKER]),
  page('/sms', 'sms-template', '短信模板', ['/sms/template/**', COMPANY_PICKER, ...SITE_PICKERS]),
  page('/sms', 'sms-log', '短信日志', ['/sms/log/**', '/sms/channel/query/list', '/sms/template/query/list', COMPANY_PICKER]),

  dir('/message', '消息', 'notification'),
  page('/message', 'message-config', '消息配置', [
    '/message/config/**', '/mail/account/query/list', '/mail/template/query/list', '/sms/channel/query/list', '/sms/template/query/list',
    '/system/role/query/list', '/system/user/query/list', ...SITE_PICKERS,
  ]),

  dir('/overview', '总览', 'fund'),
  page('/overview', 'station', '电站总览', ['/comprehensive/**', NO_SITE_HANDLE, '/home/page/**', ...SITE_PICKERS]),
  page('/overview', 'kanban', '运维看板', ['/alarm/kanban/**', '/inspection/overview/**', '/comprehensive/site/list', '/comprehensive/site/handle', ...SITE_PICKERS]),
  page('/overview', 'apparatus', '设备总览', ['/comprehensive/site/device-status', '/configure/device/query/**', ...SITE_PICKERS]),
  page('/overview', 'order', '工单总览', ['/inspection/overview/**', ...SITE_PICKERS]),

  dir('/firmware', '固件升级', 'cloud-upload'),
  // Firmware (issue 22, decision 0047): packages, keys and compliance on the package page; rollouts
  // and their device tasks on remote upgrade; log capture. The settings are read by every firmware
  // page and edited by an administrator. Devices fetch packages by token (/firmware/device/**, public).
  page('/firmware', 'firmware', '升级包', ['/firmware/package/**', '/firmware/key/**', '/firmware/setting/**', '/firmware/compliance/**', '/configure/product/query/list', ...SITE_PICKERS]),
  {
    ...page('/firmware', 'detail', '升级包详情', ['/firmware/package/**', '/firmware/rollout/query/**', '/firmware/task/query/**', '/firmware/compliance/**', '/firmware/setting/query/one', '/configure/product/query/list'], true),
    grantedWith: '/firmware/firmware',
  },
  page('/firmware', 'upgrade', '远程升级', [
    '/firmware/rollout/**', '/firmware/task/**', '/firmware/package/query/**', '/firmware/setting/query/one', '/configure/product/query/list', '/configure/device/query/list', ...SITE_PICKERS,
  ], true),
  page('/firmware', 'log', '日志抓取', ['/firmware/log/**', '/firmware/setting/query/one', '/configure/device/query/list', ...SITE_PICKERS], true),

  // Hooks (issue 21, decision 0041): hooks, parameters and records are company-scoped; the trigger
  // catalogue is global. Extensions: record detail and replay (/hook/exec/**), test send and secret
  // rotation (/hook/relate/**), the installation-wide settings (/hook/setting/**, edited by an administrator).
  dir('/hook', '钩子', 'link'),
  page('/hook', 'trigger', '触发器', ['/hook/trigger/**', '/hook/param/**']),
  page('/hook', 'triggerDetail', '触发器详情', ['/hook/trigger/**', '/hook/relate/**', COMPANY_PICKER], true),
  page('/hook', 'triggerConfig', '触发器配置', [
    '/hook/relate/**', '/hook/param/**', '/hook/trigger/query/**', '/hook/exec/record/query/one', '/hook/setting/query/one', '/basic/validate/script',
    ...SITE_PICKERS,
  ], true),
  page('/hook', 'triggerRelate', '触发器关联', ['/hook/relate/**', '/hook/trigger/query/**', '/hook/exec/record/query/page', COMPANY_PICKER], true),
  page('/hook', 'dispatch', '调度记录', ['/hook/exec/**', '/hook/relate/trigger/query/page', '/hook/relate/trigger/query/one', '/hook/trigger/query/list', '/hook/setting/**', COMPANY_PICKER]),

  // Reports (issue 25, decision 0050): the report centre's templates, preview and exports; the
  // stations are picked with the site pickers, the figures come from the screens' own services.
  dir('/report', '报表', 'table'),
  page('/report', 'jimu', '报表设计', ['/report/**', '/system/role/query/list', '/system/user/query/list', '/i18n/currency/query/list', ...SITE_PICKERS]),

  dir('/patrol', '巡检管理', 'schedule'),
  page('/patrol', 'order', '巡检工单', ['/inspection/work/order/**', '/system/user/query/list', ...SITE_PICKERS]),
  page('/patrol', 'work', '巡检项', ['/inspection/items/**', '/inspection/inspection/item/rel/**', '/configure/product/query/list']),
  page('/patrol', 'plan', '巡检计划', ['/inspection/plan/**', '/inspection/items/query/list', '/inspection/inspection/item/rel/**', '/system/user/query/list', ...SITE_PICKERS]),
  page('/patrol', 'order-detail', '巡检工单详情', ['/inspection/work/order/**', '/inspection/defect/**', '/system/user/query/list', '/basic/oss/**'], true),
  page('/patrol', 'flaw', '缺陷记录', ['/inspection/defect/**', '/inspection/repair/order/add', '/basic/oss/**', ...SITE_PICKERS]),
];

/** Routes any signed-in user may open (product-spec §2: welcome, person; and login). */
export const FREE_AUTH_PATHS = ['/home/welcome', '/system/person', '/login'] as const;

/**
 * Whether a menu's interface patterns grant a catalogue path: some pattern covers it and no
 * exclusion ("!" + pattern) does.
 */
export function menuCovers(patterns: readonly string[], path: string): boolean {
  let covered = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (patternCovers(p.slice(1), path)) return false;
    } else if (!covered && patternCovers(p, path)) covered = true;
  }
  return covered;
}

/** Whether an interface pattern of a menu covers a catalogue path. */
export function patternCovers(pattern: string, path: string): boolean {
  if (pattern.endsWith('/**')) {
    const prefix = pattern.slice(0, -3);
    return path === prefix || path.startsWith(`${prefix}/`);
  }
  return pattern === path;
}
