// @vitest-environment node
import {
  ALARM_LEVEL_LABELS, ALARM_RULE_KIND_LABELS, ALARM_STATUS_LABELS, ALARM_TYPE_LABELS,
} from '@ess/contract/alarm';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import {
  APP_ERROR, contractTexts, isSource, literals, NOT_FOUND, readRepoFile, resourceTexts, screenTexts, serverTexts, T_CALL,
} from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';
import { ANALYSIS_PRESETS } from './AlarmAnalysisPage.tsx';
import { dictResource, TARGET_OPTIONS } from './dict.resource.tsx';
import { alarmResource } from './monitor.resource.tsx';

/** Every source text the alarm screens show: t() literals, resource declarations, enumerations. */
export function alarmScreenTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...literals(readRepoFile('apps/web/src/app/layout/HeaderActions.tsx'), T_CALL),
    ...resourceTexts([dictResource, alarmResource], TARGET_OPTIONS),
    ...[ALARM_LEVEL_LABELS, ALARM_TYPE_LABELS, ALARM_STATUS_LABELS, ALARM_RULE_KIND_LABELS].flatMap((labels) => Object.values(labels)),
    ...ANALYSIS_PRESETS.map((p) => p.label),
  ])];
}

/** Texts the server sends that the console shows through the pack: refusals, contract rules, seeded descriptions. */
export function alarmServerTexts(): string[] {
  return [...new Set([
    ...contractTexts('alarm.ts', /(?:message: |= )'([^'\n]*[\u4e00-\u9fff][^'\n]*)'/g),
    ...serverTexts('alarm', { files: isSource, patterns: [APP_ERROR, NOT_FOUND, /description: '([^']+)'/g, /message: '([^']+)'/g] }),
  ])];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the alarm screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = alarmScreenTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });

  it('translates the alarm refusals, rules and default descriptions', () => {
    const texts = alarmServerTexts();
    expect(texts.length).toBeGreaterThan(20);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
