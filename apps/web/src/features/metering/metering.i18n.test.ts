// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import {
  PERIOD_ORDER, QUALITY_FLAG_LABELS, READING_RANGE_TOO_LONG, READING_REGISTERS, READING_SUBSYSTEM_LABELS, registerLabel, REMETER_ACCEPTED, REMETER_HINT, REMETER_OCCUPIED,
  REMETER_STATE_LABELS, TIMING_KIND_LABELS,
} from '@ess/contract/meter-reading';
import {
  BILLING_DAY_RANGE, DISPUTE_NEEDS_NOTE, NOT_A_PARTY, NOT_INVESTOR, NOT_POWER_USER, PARTIES_DIFFER, SETTLEMENT_CATEGORY_LABELS, SHARE_RATIO_RANGE,
  STATEMENT_ACTION_LABELS, STATEMENT_LOCKED, STATEMENT_STATE_LABELS,
} from '@ess/contract/statement';
import { PRICE_PERIOD_LABELS } from '@ess/contract/pricing';
import { METER_PURPOSE_LABELS } from '@ess/contract/telemetry';
import { pluralForms } from '@ess/contract/pack-text';
import { describe, expect, it } from 'vitest';
import { resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { readPack } from '../../test/packs.ts';
import { REGISTER_COLUMNS } from './electric.ts';
import { timingResource, zeroResource } from './readings.resource.tsx';
import { statementResource } from './statement.resource.tsx';
import { SUBSYSTEM_RESOURCES } from './subsystem.resource.tsx';

/** Every source text the metering and statement screens show: t() literals, resource declarations, the contracts' labels and the rules the forms check. */
export function meteringScreenTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...resourceTexts([zeroResource, timingResource, statementResource, ...Object.values(SUBSYSTEM_RESOURCES)]),
    ...[
      QUALITY_FLAG_LABELS, READING_SUBSYSTEM_LABELS, REMETER_STATE_LABELS, TIMING_KIND_LABELS, SETTLEMENT_CATEGORY_LABELS, STATEMENT_ACTION_LABELS,
      STATEMENT_STATE_LABELS, PRICE_PERIOD_LABELS, METER_PURPOSE_LABELS,
    ].flatMap<string>((labels) => Object.values(labels)),
    ...READING_REGISTERS.map(registerLabel),
    ...REGISTER_COLUMNS.map((c) => c.title),
    REMETER_ACCEPTED, REMETER_HINT, REMETER_OCCUPIED, PERIOD_ORDER, READING_RANGE_TOO_LONG, '请选择抄表周期',
    SHARE_RATIO_RANGE, BILLING_DAY_RANGE, PARTIES_DIFFER, DISPUTE_NEEDS_NOTE, STATEMENT_LOCKED, NOT_INVESTOR, NOT_POWER_USER, NOT_A_PARTY,
    '请选择电价模板',
  ])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the metering screens', (locale) => {
  const pack = readPack(locale);
  const placeholders = (s: string) => ((pluralForms(s)?.other ?? s).match(/\$\d+/g) ?? []).sort().join();

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = meteringScreenTexts();
    expect(texts.length).toBeGreaterThan(150);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
    expect(texts.filter((s) => placeholders(pack[s] ?? '') !== placeholders(s))).toEqual([]);
  });
});
