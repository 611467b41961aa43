// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { DEVICE_TYPE_LABELS } from '@ess/contract';
import { describe, expect, it } from 'vitest';
import { chineseLiterals, contractTexts, resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';
import { keyResource } from './key.resource.tsx';
import { logResource } from './log.resource.tsx';
import { packageResource } from './package.resource.tsx';
import { rolloutResource } from './rollout.resource.tsx';

/**
 * Every source text the firmware screens show: t() literals and the other Chinese literals of the
 * folder (labels in tables of their own), the resources' declarations, the device types, and the
 * contract's labels, rules and error texts (firmware.ts).
 */
export function firmwareScreenTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...chineseLiterals(import.meta.dirname),
    ...resourceTexts([packageResource, keyResource, rolloutResource, logResource]),
    ...Object.values(DEVICE_TYPE_LABELS),
    ...contractTexts('firmware.ts'),
  ])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the firmware screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = firmwareScreenTexts();
    expect(texts.length).toBeGreaterThan(200);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
