import type { AnyRoute } from '../platform/http/route.ts';
import type { ServerModule } from '../platform/module.ts';
import { alarmModule } from './alarm/index.ts';
import { basicModule } from './basic/index.ts';
import { comprehensiveModule } from './comprehensive/index.ts';
import { deviceModule } from './device/index.ts';
import { dictionaryModule } from './dictionary/index.ts';
import { filesModule } from './files/index.ts';
import { firmwareModule } from './firmware/index.ts';
import { hooksModule } from './hooks/index.ts';
import { i18nModule } from './i18n/index.ts';
import { iotModule } from './iot/index.ts';
import { maintenanceModule } from './maintenance/index.ts';
import { messagingModule } from './messaging/index.ts';
import { meterModule } from './meter/index.ts';
import { monitorModule } from './monitor/index.ts';
import { pricingModule } from './pricing/index.ts';
import { reportModule } from './report/index.ts';
import { productModule } from './product/index.ts';
import { dashboardModule } from './dashboard/index.ts';
import { demandModule } from './demand/index.ts';
import { siteModule } from './site/index.ts';
import { statementModule } from './statement/index.ts';
import { strategyModule } from './strategy/index.ts';
import { systemModule } from './system/index.ts';
import { telemetryModule } from './telemetry/index.ts';

/**
 * Every server module, in start order: seeds run in this order (thing models before the alarm
 * dictionary that refers to them), and modules that add rule sinks to the ingest (alarm) start
 * before telemetry (the IoT platforms' live streams, which feed the ingest, after it). Adding a domain adds its folder and one line here.
 */
export const modules: readonly ServerModule[] = [
  systemModule, dictionaryModule, filesModule, basicModule, i18nModule,
  deviceModule, monitorModule, meterModule, siteModule, productModule, pricingModule, comprehensiveModule,
  alarmModule, maintenanceModule, dashboardModule, statementModule, demandModule, strategyModule, messagingModule, hooksModule, firmwareModule, reportModule, telemetryModule, iotModule,
];

/** Every module's routes; the interface table, permissions and OpenAPI are built from this list. */
export const allRoutes: AnyRoute[] = modules.flatMap((m) => m.routes ?? []);
