import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { BILLING_SYSTEM_LABELS, ELECTRICITY_TYPE_LABELS, PARTITION_TEXTS, PRICE_MISSING, PRICE_PERIOD_LABELS } from '@ess/contract/pricing';
import { describe, expect, it } from 'vitest';
import type { EnumOption, FieldDef, FilterDef, ResourceDef } from '../../components/crud/index.ts';
import { readPack } from '../../test/packs.ts';
import type { SiteRef } from '../config/config.options.ts';
import { DATE_STATE_OPTIONS, sitePriceResource, solarPriceResource } from './site-price.resource.tsx';
import { priceTemplateResource } from './template.resource.tsx';

const REPO = join(import.meta.dirname, '../../../../..');
const site: SiteRef = { id: 1, name: 'S', code: 'S', companyId: 1, companyName: 'C', timeZone: 'Asia/Shanghai', currency: 'CNY', siteType: 'storage' };
type AnyResource = ResourceDef<{ id: number }, Record<string, unknown>, unknown>;
const RESOURCES = [priceTemplateResource, sitePriceResource(site, () => undefined), solarPriceResource(site)] as unknown as AnyResource[];
const literals = (src: string, re: RegExp) => [...src.matchAll(re)].map((m) => m[1]!).filter((s) => !s.includes('${'));

/** Source texts of the declarations: names, titles, labels, help, placeholders, enum labels. */
function declaredTexts(): string[] {
  const out = new Set<string>();
  const options = (o?: readonly EnumOption[]) => o?.forEach((x) => !x.literal && out.add(x.label));
  for (const r of RESOURCES) {
    out.add(r.name);
    for (const c of r.columns) {
      out.add(c.title);
      options(c.options);
    }
    for (const f of (r.filters ?? []) as FilterDef[]) {
      out.add(f.title);
      options(f.options);
    }
    for (const f of (r.form?.fields ?? []) as FieldDef<Record<string, unknown>>[]) {
      out.add(f.label);
      options(f.options);
      for (const mode of ['add', 'edit'] as const) {
        const help = typeof f.help === 'function' ? f.help(mode) : f.help;
        if (help) out.add(help);
      }
      if (f.placeholder) out.add(f.placeholder);
    }
  }
  options(DATE_STATE_OPTIONS);
  return [...out];
}

/** Literal t('…') calls and issue texts of the hand-written screens. */
function screenTexts(): string[] {
  const out = new Set<string>();
  for (const f of readdirSync(import.meta.dirname).filter((n) => /\.tsx?$/.test(n) && !n.includes('.test.'))) {
    const src = readFileSync(join(import.meta.dirname, f), 'utf8');
    for (const s of literals(src, /\bt\('([^']+)'/g)) out.add(s);
    for (const s of literals(src, /text: '([^']+)'/g)) out.add(s);
  }
  return [...out];
}

/** The contract's labels, rules and zod messages, and the server's refusals (tipMsg through the pack). */
function contractAndServerTexts(): string[] {
  const out = new Set<string>([
    ...Object.values(ELECTRICITY_TYPE_LABELS), ...Object.values(BILLING_SYSTEM_LABELS), ...Object.values(PRICE_PERIOD_LABELS),
    ...Object.values(PRICE_MISSING), ...Object.values(PARTITION_TEXTS),
  ]);
  const contract = readFileSync(join(REPO, 'packages/contract/src/pricing.ts'), 'utf8');
  for (const s of literals(contract, /'([^'\n]*[\u4e00-\u9fff][^'\n]*)'/g)) out.add(s);
  const dir = join(REPO, 'apps/server/src/modules/pricing');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.service.ts'))) {
    const src = readFileSync(join(dir, name), 'utf8');
    for (const s of literals(src, /AppError\('\w+', '([^'`]+)'/g)) out.add(s);
    for (const s of literals(src, /const [A-Z_]+ = '([^']+)'/g)) out.add(s);
  }
  return [...out];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the pricing screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the declarations and screens show', () => {
    const texts = [...declaredTexts(), ...screenTexts()];
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });

  it('translates the pricing rules and refusals', () => {
    const texts = contractAndServerTexts();
    expect(texts.length).toBeGreaterThan(40);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
