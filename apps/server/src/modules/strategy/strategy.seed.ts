import { sql } from 'drizzle-orm';
import { STRATEGY_DRIFT_ALARM } from '@ess/contract/strategy';
import { THING_MODEL } from '@ess/contract';
import { alarmDict } from '../../db/schema/alarm.ts';
import type { Db } from '../../platform/db/database.ts';
import { alarmTypeOfCode } from '../alarm/index.ts';

/**
 * The drift alarm's dictionary entry (EMS event EMS_STRATEGY_DRIFT, level 2) on every start, as
 * the demand module seeds its pre-alarm entries: a database whose default dictionary was seeded
 * before the event existed (issue 19) gets it too. Idempotent: an existing entry (also a disabled or
 * re-levelled one) is left as it is. A dictionary never seeded is left to the alarm module's
 * default seed (which includes the event), so that seed still runs in full on a new database.
 */
export async function seedStrategyAlarms(db: Db): Promise<void> {
  const [seq] = (await db.execute<{ is_called: boolean }>(sql`select is_called from alarm_dict_id_seq`)).rows;
  if (!seq?.is_called) return;
  const event = THING_MODEL.ems.events.find((e) => e.code === STRATEGY_DRIFT_ALARM)!;
  await db
    .insert(alarmDict)
    .values({ deviceType: 'ems', kind: 'event', eventCode: event.code, level: event.level, alarmType: alarmTypeOfCode(event.code), description: event.label })
    .onConflictDoNothing();
}
