import { alarmDict } from '../../db/schema/alarm.ts';
import type { Db } from '../../platform/db/database.ts';
import { PRE_ALARM_CODES, PRE_ALARM_DESCRIPTION } from './demand.sink.ts';

/**
 * The pre-alarm's dictionary entries: one fault code per level (DEMAND_PRE_ALARM_1 … _5) for every
 * meter, so that a target's alarm level picks its entry and the alarm engine raises it like any
 * fault event (shields, kanban, live stream). Idempotent: existing entries (also disabled or
 * re-levelled ones) are left as they are.
 */
export async function seedDemandAlarms(db: Db): Promise<void> {
  await db
    .insert(alarmDict)
    .values(PRE_ALARM_CODES.map((code, i) => ({ deviceType: 'meter', kind: 'event', eventCode: code, level: i + 1, alarmType: 'overLimit', description: PRE_ALARM_DESCRIPTION })))
    .onConflictDoNothing();
}
