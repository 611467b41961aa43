import type { AppContext } from '../../platform/context.ts';
import { perApp } from '../../platform/module.ts';
import { addIngestRules, deviceRegistryOf } from '../telemetry/index.ts';
import { AlarmEngine } from './alarm.engine.ts';

/** The alarm engine of an instance with the ingest role (evaluates the rules on the stream). */
export const alarmEngines = perApp<AlarmEngine>('alarm engine');

/** Builds the engine and adds it to the ingest's rule sinks (before the telemetry module starts). */
export function startAlarmEngine(ctx: AppContext): void {
  if (!ctx.config.roles.has('ingest')) return;
  const engine = new AlarmEngine(
    ctx.database,
    deviceRegistryOf(ctx),
    { syncMs: ctx.config.alarmSyncMs },
    () => ctx.outbox.nudge(),
    ctx.log.child({ part: 'alarms' }),
    ctx.bus,
  );
  alarmEngines.set(ctx, engine);
  addIngestRules(ctx, engine);
}
