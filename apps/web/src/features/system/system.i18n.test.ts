// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import { contractTexts, NOT_FOUND, resourceTexts, serverTexts } from '../../test/i18n-coverage.ts';
import { accessLogResource, LOGIN_FAILURE, loginLogResource } from './log.resource.tsx';
import { companyResource } from './company.resource.tsx';
import { menuResource } from './menu.resource.tsx';
import { inboxResource, pushLogResource, settingResource } from './notification.resource.tsx';
import { roleResource } from './role.resource.tsx';
import { userResource } from './user.resource.tsx';
import { readPack } from '../../test/packs.ts';
import { pluralForms } from '@ess/contract/pack-text';

const RESOURCES = [
  companyResource, menuResource, roleResource, userResource, settingResource, pushLogResource, inboxResource, loginLogResource,
  accessLogResource,
];

/** Every source text a resource declaration shows: its name, titles, labels, help and enum labels. */
function declaredTexts(): string[] {
  return [...new Set([...resourceTexts(RESOURCES), ...Object.values(LOGIN_FAILURE)])];
}

/**
 * Messages the system screens show through the pack that come from elsewhere: the contract's
 * rule messages (zod) and the tipMsg of the system services' refusals.
 */
function contractAndServerTexts(): string[] {
  // AppError messages, leaving out the ones naming a field ('pushAt: …').
  const refusal = /AppError\('\w+', '([^':]+)'\)/g;
  const texts = contractTexts('system.ts');
  for (const label of contractTexts('system.ts', /uniqueIds\('([^']+)'/g)) texts.push(`${label}不能为空`, `${label}不能重复`);
  texts.push(...serverTexts('system', { files: (n) => n.endsWith('.service.ts') || n === 'grants.ts', patterns: [refusal, NOT_FOUND] }));
  return texts;
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the system and log screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the resource declarations show', () => {
    const texts = declaredTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });

  it('keeps the $1 placeholders of every text these screens show', () => {
    for (const source of [...declaredTexts(), ...contractAndServerTexts()]) {
      const translation = pack[source];
      if (translation === undefined) continue; // reported by the coverage tests above
      expect((pluralForms(translation)?.other ?? translation).match(/\$\d/g)?.sort() ?? [], source).toEqual(source.match(/\$\d/g)?.sort() ?? []);
    }
  });

  it('translates the contract rule messages and the system services refusals these screens show', () => {
    const texts = contractAndServerTexts();
    expect(texts.length).toBeGreaterThan(40);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
