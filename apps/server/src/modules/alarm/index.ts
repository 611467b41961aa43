import { defineModule } from '../../platform/module.ts';
import { alarmLiveSubscriber } from './alarm.live.ts';
import { alarmRoutes } from './alarm.routes.ts';
import { startAlarmEngine } from './alarm.runtime.ts';
import { seedAlarmDictionary } from './alarm.seed.ts';

/** Alarms: dictionary, the rule engine on the ingest (a rule sink), monitor, shields, kanban. */
export const alarmModule = defineModule({
  name: 'alarm',
  routes: alarmRoutes,
  seeds: [({ db }) => seedAlarmDictionary(db)],
  subscribers: [alarmLiveSubscriber],
  start: (ctx) => Promise.resolve(startAlarmEngine(ctx)),
});
