import { declareEvents } from '../../platform/events/catalogue.ts';
import { defineModule } from '../../platform/module.ts';
import { alarmLiveSubscriber } from './alarm.live.ts';
import { alarmRoutes } from './alarm.routes.ts';
import { alarmEngines, startAlarmEngine } from './alarm.runtime.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AlarmEngine } from './alarm.engine.ts';
import { seedAlarmDictionary } from './alarm.seed.ts';

/** Alarms: dictionary, the rule engine on the ingest (a rule sink), monitor, shields, kanban. */
export const alarmModule = defineModule({
  name: 'alarm',
  events: declareEvents('alarm.opened', 'alarm.ended', 'alarm.shielded'),
  routes: alarmRoutes,
  seeds: [({ db }) => seedAlarmDictionary(db)],
  subscribers: [alarmLiveSubscriber],
  start: (ctx) => Promise.resolve(startAlarmEngine(ctx)),
});

/**
 * This instance's alarm engine (instances with the ingest role), as a rule sink: the demo plays its
 * history's reports and fault events through it, so past alarms are raised and ended by the same rules.
 */
export const alarmEngineOf = (ctx: AppContext): Pick<AlarmEngine, 'report' | 'event' | 'flush' | 'pendingTransitions'> | undefined => alarmEngines.get(ctx);

/** The alarm type a fault code gets in the default dictionary (modules seeding their own event entries use it too). */
export { alarmTypeOfCode } from './alarm.seed.ts';
export type { AlarmEventPayload } from './alarm.events.ts';
/** Who is shown a newly opened alarm's popup (messaging's console channel does not tell them twice). */
export { alarmPopupUsers } from './alarm.live.ts';
/** The enabled users who may see each station (live events of other modules go to them too). */
export { usersSeeingSites } from './alarm.live.ts';

/** The alarm monitor's paged list (the report centre counts alarms through it). */
export { alarmPage } from './alarm.service.ts';
