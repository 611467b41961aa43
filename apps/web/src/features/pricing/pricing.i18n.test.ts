// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { BILLING_SYSTEM_LABELS, ELECTRICITY_TYPE_LABELS, PARTITION_TEXTS, PRICE_MISSING, PRICE_PERIOD_LABELS } from '@ess/contract/pricing';
import { describe, expect, it } from 'vitest';
import { contractTexts, resourceTexts, screenTexts, serverTexts, T_CALL, TEXT_PROP } from '../../test/i18n-coverage.ts';
import { readPack } from '../../test/packs.ts';
import type { SiteRef } from '../../components/options/sites.ts';
import { DATE_STATE_OPTIONS, sitePriceResource, solarPriceResource } from './site-price.resource.tsx';
import { priceTemplateResource } from './template.resource.tsx';

const site: SiteRef = { id: 1, name: 'S', code: 'S', companyId: 1, companyName: 'C', timeZone: 'Asia/Shanghai', currency: 'CNY', siteType: 'storage' };
const RESOURCES = [priceTemplateResource, sitePriceResource(site, () => undefined), solarPriceResource(site)];

/** The contract's labels, rules and zod messages, and the server's refusals (tipMsg through the pack). */
function contractAndServerTexts(): string[] {
  return [...new Set([
    ...Object.values(ELECTRICITY_TYPE_LABELS), ...Object.values(BILLING_SYSTEM_LABELS), ...Object.values(PRICE_PERIOD_LABELS),
    ...Object.values(PRICE_MISSING), ...Object.values(PARTITION_TEXTS),
    ...contractTexts('pricing.ts'), ...serverTexts('pricing'),
  ])];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the pricing screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the declarations and screens show', () => {
    // The declarations' texts, then the literal t('…') calls and issue texts of the hand-written screens.
    const texts = [...resourceTexts(RESOURCES, DATE_STATE_OPTIONS), ...screenTexts(import.meta.dirname, [T_CALL, TEXT_PROP])];
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });

  it('translates the pricing rules and refusals', () => {
    const texts = contractAndServerTexts();
    expect(texts.length).toBeGreaterThan(40);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
