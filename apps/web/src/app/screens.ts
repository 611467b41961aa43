import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Every screen the console has, by route path; each is its own chunk (React.lazy). The layout's
 * menu shows only menu entries whose path is here. Feature teams add their pages to this table.
 */
export const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = {
  '/home/index': lazy(() => import('../features/dashboard/HomePage.tsx').then((m) => ({ default: m.HomePage }))),
  '/home/welcome': lazy(() => import('../features/dashboard/WelcomePage.tsx').then((m) => ({ default: m.WelcomePage }))),
  '/system/person': lazy(() => import('../features/system/PersonPage.tsx').then((m) => ({ default: m.PersonPage }))),
  '/system/messageConfig': lazy(() => import('../features/system/MessageConfigPage.tsx').then((m) => ({ default: m.MessageConfigPage }))),
  '/system/messagePush': lazy(() => import('../features/system/MessagePushPage.tsx').then((m) => ({ default: m.MessagePushPage }))),
  '/system/messageNotification': lazy(() =>
    import('../features/system/MessageNotificationPage.tsx').then((m) => ({ default: m.MessageNotificationPage })),
  ),
  '/system/company': lazy(() => import('../features/system/CompanyPage.tsx').then((m) => ({ default: m.CompanyPage }))),
  '/system/menu': lazy(() => import('../features/system/MenuPage.tsx').then((m) => ({ default: m.MenuPage }))),
  '/system/role': lazy(() => import('../features/system/RolePage.tsx').then((m) => ({ default: m.RolePage }))),
  '/system/user': lazy(() => import('../features/system/UserPage.tsx').then((m) => ({ default: m.UserPage }))),
  '/monitor/device': lazy(() => import('../features/monitor/DeviceListPage.tsx').then((m) => ({ default: m.DeviceListPage }))),
  '/monitor/deviceDetail': lazy(() => import('../features/monitor/DeviceDetailPage.tsx').then((m) => ({ default: m.DeviceDetailPage }))),
  '/monitor/energy': lazy(() => import('../features/monitor/EnergyPage.tsx').then((m) => ({ default: m.EnergyPage }))),
  '/analysis/retrieval': lazy(() => import('../features/monitor/RetrievalPage.tsx').then((m) => ({ default: m.RetrievalPage }))),
  '/product/equipment': lazy(() => import('../features/device/EquipmentPage.tsx').then((m) => ({ default: m.EquipmentPage }))),
  '/product/replace': lazy(() => import('../features/device/ReplacePage.tsx').then((m) => ({ default: m.ReplacePage }))),
  '/product/equipmentDetail': lazy(() => import('../features/monitor/DeviceDetailPage.tsx').then((m) => ({ default: m.DeviceDetailPage }))),
  '/config/site': lazy(() => import('../features/site/SitePage.tsx').then((m) => ({ default: m.SitePage }))),
  '/config/siteSet': lazy(() => import('../features/site/SiteSetPage.tsx').then((m) => ({ default: m.SiteSetPage }))),
  '/config/lockers': lazy(() => import('../features/site/CabinetPage.tsx').then((m) => ({ default: m.CabinetPage }))),
  '/config/circuit': lazy(() => import('../features/site/CircuitPage.tsx').then((m) => ({ default: m.CircuitPage }))),
  '/product/management': lazy(() => import('../features/product/ProductPage.tsx').then((m) => ({ default: m.ProductPage }))),
  '/product/template': lazy(() => import('../features/product/TemplatePage.tsx').then((m) => ({ default: m.TemplatePage }))),
  '/product/config': lazy(() => import('../features/site/ParamPage.tsx').then((m) => ({ default: m.ParamPage }))),
  '/product/callback': lazy(() => import('../features/site/CallbackPage.tsx').then((m) => ({ default: m.CallbackPage }))),
  '/operatecfg/price': lazy(() => import('../features/pricing/PricePage.tsx').then((m) => ({ default: m.PricePage }))),
  '/operatecfg/pricedetail': lazy(() => import('../features/pricing/PriceDetailPage.tsx').then((m) => ({ default: m.PriceDetailPage }))),
  '/operatecfg/rate': lazy(() => import('../features/pricing/RatePage.tsx').then((m) => ({ default: m.RatePage }))),
  '/operatecfg/strategy': lazy(() => import('../features/strategy/StrategyPage.tsx').then((m) => ({ default: m.StrategyPage }))),
  '/log/login': lazy(() => import('../features/system/LoginLogPage.tsx').then((m) => ({ default: m.LoginLogPage }))),
  '/log/api': lazy(() => import('../features/system/ApiLogPage.tsx').then((m) => ({ default: m.ApiLogPage }))),
  '/synthesis/realTime': lazy(() => import('../features/dashboard/RealTimePage.tsx').then((m) => ({ default: m.RealTimePage }))),
  '/synthesis/running': lazy(() => import('../features/dashboard/RunningPage.tsx').then((m) => ({ default: m.RunningPage }))),
  '/synthesis/businessOverview': lazy(() => import('../features/dashboard/BusinessOverviewPage.tsx').then((m) => ({ default: m.BusinessOverviewPage }))),
  '/overview/station': lazy(() => import('../features/dashboard/StationPage.tsx').then((m) => ({ default: m.StationPage }))),
  '/overview/kanban': lazy(() => import('../features/dashboard/KanbanPage.tsx').then((m) => ({ default: m.KanbanPage }))),
  '/overview/apparatus': lazy(() => import('../features/dashboard/ApparatusPage.tsx').then((m) => ({ default: m.ApparatusPage }))),
  '/alarm/alarmKanban': lazy(() => import('../features/alarm/AlarmKanbanPage.tsx').then((m) => ({ default: m.AlarmKanbanPage }))),
  '/alarm/monitor': lazy(() => import('../features/alarm/AlarmMonitorPage.tsx').then((m) => ({ default: m.AlarmMonitorPage }))),
  '/alarm/analysis': lazy(() => import('../features/alarm/AlarmAnalysisPage.tsx').then((m) => ({ default: m.AlarmAnalysisPage }))),
  '/alarm/alarm': lazy(() => import('../features/alarm/AlarmDictPage.tsx').then((m) => ({ default: m.AlarmDictPage }))),
  '/patrol/work': lazy(() => import('../features/maintenance/ItemPage.tsx').then((m) => ({ default: m.ItemPage }))),
  '/patrol/plan': lazy(() => import('../features/maintenance/PlanPage.tsx').then((m) => ({ default: m.PlanPage }))),
  '/patrol/order': lazy(() => import('../features/maintenance/WorkOrderPage.tsx').then((m) => ({ default: m.WorkOrderPage }))),
  '/patrol/order-detail': lazy(() => import('../features/maintenance/WorkOrderDetailPage.tsx').then((m) => ({ default: m.WorkOrderDetailPage }))),
  '/patrol/flaw': lazy(() => import('../features/maintenance/DefectPage.tsx').then((m) => ({ default: m.DefectPage }))),
  '/repair/order': lazy(() => import('../features/maintenance/RepairOrderPage.tsx').then((m) => ({ default: m.RepairOrderPage }))),
  '/repair/order-detail': lazy(() => import('../features/maintenance/RepairOrderDetailPage.tsx').then((m) => ({ default: m.RepairOrderDetailPage }))),
  '/overview/order': lazy(() => import('../features/maintenance/OrderOverviewPage.tsx').then((m) => ({ default: m.OrderOverviewPage }))),
  '/meter/data': lazy(() => import('../features/metering/MeterDataPage.tsx').then((m) => ({ default: m.MeterDataPage }))),
  '/meter/time': lazy(() => import('../features/metering/ReadingPages.tsx').then((m) => ({ default: m.ZeroDataPage }))),
  '/meter/reading': lazy(() => import('../features/metering/ReadingPages.tsx').then((m) => ({ default: m.TimingReadingPage }))),
  '/operation/meter': lazy(() => import('../features/metering/SubsystemReadingPage.tsx').then((m) => ({ default: m.StorageMeterPage }))),
  '/operation/solar': lazy(() => import('../features/metering/SubsystemReadingPage.tsx').then((m) => ({ default: m.PvMeterPage }))),
  '/operation/pile': lazy(() => import('../features/metering/SubsystemReadingPage.tsx').then((m) => ({ default: m.PileMeterPage }))),
  '/operation/statement': lazy(() => import('../features/metering/StatementPage.tsx').then((m) => ({ default: m.StatementPage }))),
  '/operation/statementDetail': lazy(() => import('../features/metering/StatementDetailPage.tsx').then((m) => ({ default: m.StatementDetailPage }))),
  '/demand/track': lazy(() => import('../features/demand/TrackPage.tsx').then((m) => ({ default: m.TrackPage }))),
  '/demand/analysis': lazy(() => import('../features/demand/AnalysisPage.tsx').then((m) => ({ default: m.AnalysisPage }))),
  '/demand/reconcile': lazy(() => import('../features/demand/ReconcilePage.tsx').then((m) => ({ default: m.ReconcilePage }))),
  '/demand/setting': lazy(() => import('../features/demand/SettingPage.tsx').then((m) => ({ default: m.SettingPage }))),
  '/mail/mail-account': lazy(() => import('../features/messaging/MailAccountPage.tsx').then((m) => ({ default: m.MailAccountPage }))),
  '/mail/mail-template': lazy(() => import('../features/messaging/TemplatePages.tsx').then((m) => ({ default: m.MailTemplatePage }))),
  '/mail/mail-log': lazy(() => import('../features/messaging/LogPages.tsx').then((m) => ({ default: m.MailLogPage }))),
  '/sms/sms-channel': lazy(() => import('../features/messaging/SmsChannelPage.tsx').then((m) => ({ default: m.SmsChannelPage }))),
  '/sms/sms-template': lazy(() => import('../features/messaging/TemplatePages.tsx').then((m) => ({ default: m.SmsTemplatePage }))),
  '/sms/sms-log': lazy(() => import('../features/messaging/LogPages.tsx').then((m) => ({ default: m.SmsLogPage }))),
  '/message/message-config': lazy(() => import('../features/messaging/MessageConfigPage.tsx').then((m) => ({ default: m.MessageConfigPage }))),
  '/hook/trigger': lazy(() => import('../features/hooks/TriggerPage.tsx').then((m) => ({ default: m.TriggerPage }))),
  '/hook/triggerDetail': lazy(() => import('../features/hooks/TriggerDetailPage.tsx').then((m) => ({ default: m.TriggerDetailPage }))),
  '/hook/triggerConfig': lazy(() => import('../features/hooks/HookConfigPage.tsx').then((m) => ({ default: m.HookConfigPage }))),
  '/hook/triggerRelate': lazy(() => import('../features/hooks/HookListPage.tsx').then((m) => ({ default: m.HookListPage }))),
  '/hook/dispatch': lazy(() => import('../features/hooks/DispatchPage.tsx').then((m) => ({ default: m.DispatchPage }))),
  '/firmware/firmware': lazy(() => import('../features/firmware/FirmwarePage.tsx').then((m) => ({ default: m.FirmwarePage }))),
  '/firmware/detail': lazy(() => import('../features/firmware/DetailPage.tsx').then((m) => ({ default: m.DetailPage }))),
  '/firmware/upgrade': lazy(() => import('../features/firmware/UpgradePage.tsx').then((m) => ({ default: m.UpgradePage }))),
  '/firmware/log': lazy(() => import('../features/firmware/LogPage.tsx').then((m) => ({ default: m.LogPage }))),
  '/globalization/language': lazy(() => import('../features/globalization/LanguagePage.tsx').then((m) => ({ default: m.LanguagePage }))),
  '/globalization/translation': lazy(() => import('../features/globalization/TranslationPage.tsx').then((m) => ({ default: m.TranslationPage }))),
  '/globalization/engine': lazy(() => import('../features/globalization/EnginePage.tsx').then((m) => ({ default: m.EnginePage }))),
  '/globalization/currency': lazy(() => import('../features/globalization/CurrencyPage.tsx').then((m) => ({ default: m.CurrencyPage }))),
  '/iot/appConfig': lazy(() => import('../features/iot/AppConfigPage.tsx').then((m) => ({ default: m.AppConfigPage }))),
  '/iot/productManagement': lazy(() => import('../features/iot/ProductManagementPage.tsx').then((m) => ({ default: m.ProductManagementPage }))),
  '/iot/productDetail': lazy(() => import('../features/iot/ProductDetailPage.tsx').then((m) => ({ default: m.ProductDetailPage }))),
  '/iot/productCommandForm': lazy(() => import('../features/iot/RelationPages.tsx').then((m) => ({ default: m.ProductCommandFormPage }))),
  '/iot/productCommandDetail': lazy(() => import('../features/iot/ItemDetailPages.tsx').then((m) => ({ default: m.ProductCommandDetailPage }))),
  '/iot/productEventForm': lazy(() => import('../features/iot/RelationPages.tsx').then((m) => ({ default: m.ProductEventFormPage }))),
  '/iot/productEventDetail': lazy(() => import('../features/iot/ItemDetailPages.tsx').then((m) => ({ default: m.ProductEventDetailPage }))),
  '/iot/device': lazy(() => import('../features/iot/DevicePage.tsx').then((m) => ({ default: m.DevicePage }))),
  '/iot/deviceDetail': lazy(() => import('../features/iot/DeviceDetailPage.tsx').then((m) => ({ default: m.DeviceDetailPage }))),
  '/report/jimu': lazy(() => import('../features/report/ReportPage.tsx').then((m) => ({ default: m.ReportPage }))),
};

export const hasScreen = (path: string) => Object.hasOwn(SCREENS, path);

/**
 * The menu entries a person can navigate to: those with a screen, and the directories above
 * them. A screen that is not built yet is absent, so the guard never sends anyone to it.
 */
export function navigableMenus<M extends { path: string; parentPath?: string | null }>(menus: readonly M[], has = hasScreen): M[] {
  const keep = new Set<string>();
  const byPath = new Map(menus.map((m) => [m.path, m]));
  for (const m of menus) {
    if (!has(m.path)) continue;
    for (let cur: M | undefined = m; cur && !keep.has(cur.path); cur = cur.parentPath ? byPath.get(cur.parentPath) : undefined) keep.add(cur.path);
  }
  return menus.filter((m) => keep.has(m.path));
}
