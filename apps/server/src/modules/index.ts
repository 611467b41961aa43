import type { AnyRoute } from '../platform/http/route.ts';
import { basicRoutes } from './basic/basic.routes.ts';
import { sseRoutes } from './basic/sse.routes.ts';
import { deviceRoutes } from './device/device.routes.ts';
import { dictionaryRoutes } from './dictionary/dictionary.routes.ts';
import { productRoutes } from './product/product.routes.ts';
import { filesRoutes } from './files/files.routes.ts';
import { i18nRoutes } from './i18n/i18n.routes.ts';
import { authRoutes } from './system/auth.routes.ts';
import { companyRoutes } from './system/company.routes.ts';
import { logRoutes } from './system/log.routes.ts';
import { menuRoutes } from './system/menu.routes.ts';
import { notificationRoutes } from './system/notification.routes.ts';
import { roleRoutes } from './system/role.routes.ts';
import { siteRoutes } from './site/site.routes.ts';
import { userRoutes } from './system/user.routes.ts';
import { telemetryRoutes } from './telemetry/telemetry.routes.ts';
import { monitorRoutes } from './monitor/monitor.routes.ts';
import { electricRoutes } from './meter/electric.routes.ts';
import { pricingRoutes } from './pricing/pricing.routes.ts';
import { comprehensiveRoutes } from './comprehensive/comprehensive.routes.ts';
import { alarmRoutes } from './alarm/alarm.routes.ts';
import { revenueRoutes } from './revenue/revenue.routes.ts';

/** Every module's routes; the interface table, permissions and OpenAPI are built from this list. */
export const allRoutes: AnyRoute[] = [...authRoutes, ...companyRoutes, ...menuRoutes, ...roleRoutes, ...userRoutes,
  ...dictionaryRoutes, ...filesRoutes, ...basicRoutes, ...i18nRoutes,
  ...logRoutes, ...notificationRoutes, ...sseRoutes,
  ...deviceRoutes, ...telemetryRoutes, ...monitorRoutes, ...electricRoutes,
  ...siteRoutes, ...productRoutes, ...pricingRoutes, ...comprehensiveRoutes, ...alarmRoutes, ...revenueRoutes];
