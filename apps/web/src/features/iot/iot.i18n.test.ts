// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { IOT_PLATFORM_OPTIONS, IOT_SYNC_STATE_LABELS } from '@ess/contract/iot';
import { describe, expect, it } from 'vitest';
import { chineseLiterals, contractTexts, resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';
import { configResource } from './config.resource.tsx';
import { commandItems, eventItems, propertyItems } from './items.resource.tsx';
import { deviceResource, productResource } from './product.resource.tsx';
import { relationResource } from './relation.resource.tsx';

/**
 * Every source text the IoT screens show: t() literals and the other Chinese literals of the
 * folder, the resources' declarations (relations of each kind, at both levels), the contract's
 * labels, the platforms' descriptions and fields, the rules and error texts.
 */
export function iotScreenTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...chineseLiterals(import.meta.dirname),
    ...resourceTexts([
      configResource, productResource, deviceResource, propertyItems(1), eventItems(1), commandItems(1),
      ...(['property', 'event', 'command'] as const).flatMap((k) => [relationResource(k, 1), relationResource(k, 1, 2)]),
    ]),
    ...Object.values(IOT_SYNC_STATE_LABELS),
    ...IOT_PLATFORM_OPTIONS.flatMap((o) => [o.description, ...o.fields.map((f) => f.label)]),
    ...contractTexts('iot.ts'),
  ])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the IoT screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = iotScreenTexts();
    expect(texts.length).toBeGreaterThan(150);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
