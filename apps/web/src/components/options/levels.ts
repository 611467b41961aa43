import { ALARM_LEVEL_COLOURS, type AlarmLevel } from '@ess/contract/alarm';
import type { PricePeriod } from '@ess/contract/pricing';

/** An alarm level's colour (1 the most severe); unknown levels take level 5's. */
export const levelColour = (level: number) => ALARM_LEVEL_COLOURS[level as AlarmLevel] ?? ALARM_LEVEL_COLOURS[5];

/**
 * One colour per price period type, hot to cold (tip red … deep valley dark teal). All are dark
 * enough for white text (contrast ≥ 4.5:1), so a band's label stays readable on it.
 */
export const PERIOD_COLORS: Record<PricePeriod, string> = {
  tip: '#a8071a',
  peak: '#ad4e00',
  flat: '#44546a',
  valley: '#237804',
  deepValley: '#00474f',
};
