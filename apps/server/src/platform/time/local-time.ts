import { todayIn } from '@ess/contract';
import { AppError } from '../http/errors.ts';

/**
 * Station-local hours, days, months and periods (DOMAIN.md §7). The one implementation is the
 * contract's time.ts (the simulator uses it too); the server adds only the refusal of a future date.
 */
export {
  FIVE_MINUTES, ZoneBuckets, bucketStarts, dayPeriod, daysSince, localDayStart, localLabel, localMonth, localStart,
  monthPeriod, nextDayStart, yearPeriod, zoneOffsetMs, type LocalPeriod as Period,
} from '@ess/contract/time';

/** The asked date, or the station's today; a date after today is refused (nothing can be known of it). */
export function resolveDate(timeZone: string, date: string | undefined, now: number): string {
  const today = todayIn(timeZone, new Date(now));
  if (!date) return today;
  if (date > today) throw new AppError('RULE_VIOLATION', '不能查询站点当地今天之后的日期');
  return date;
}
