import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import type { EnumOption, FieldDef, FilterDef, ResourceDef } from '../../components/crud/index.ts';
import { accessLogResource, LOGIN_FAILURE, loginLogResource } from '../log/log.resource.tsx';
import { companyResource } from './company.resource.tsx';
import { menuResource } from './menu.resource.tsx';
import { inboxResource, pushLogResource, settingResource } from './notification.resource.tsx';
import { roleResource } from './role.resource.tsx';
import { userResource } from './user.resource.tsx';
import { readPack } from '../../test/packs.ts';

const REPO = join(import.meta.dirname, '../../../../..');

type AnyResource = ResourceDef<{ id: number }, Record<string, unknown>, unknown>;
const RESOURCES = [
  companyResource, menuResource, roleResource, userResource, settingResource, pushLogResource, inboxResource, loginLogResource,
  accessLogResource,
] as unknown as AnyResource[];

/** Every source text a resource declaration shows: its name, titles, labels, help and enum labels. */
function declaredTexts(): string[] {
  const out = new Set<string>();
  const options = (o?: readonly EnumOption[]) => o?.forEach((x) => !x.literal && out.add(x.label));
  for (const r of RESOURCES) {
    out.add(r.name);
    if (r.exportName) out.add(r.exportName);
    for (const c of [...r.columns, ...((r.detailColumns ?? []) as typeof r.columns)]) {
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
  for (const reason of Object.values(LOGIN_FAILURE)) out.add(reason);
  return [...out];
}

const literals = (src: string, re: RegExp) => [...src.matchAll(re)].map((m) => m[1]!).filter((s) => !s.includes('${'));

/**
 * Messages the system screens show through the pack that come from elsewhere: the contract's
 * rule messages (zod) and the tipMsg of the system services' refusals.
 */
function contractAndServerTexts(): string[] {
  const contract = readFileSync(join(REPO, 'packages/contract/src/system.ts'), 'utf8');
  const texts = literals(contract, /'([^'\n]*[\u4e00-\u9fff][^'\n]*)'/g);
  for (const label of literals(contract, /uniqueIds\('([^']+)'/g)) texts.push(`${label}不能为空`, `${label}不能重复`);
  const dir = join(REPO, 'apps/server/src/modules/system');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.service.ts') || n === 'grants.ts')) {
    const src = readFileSync(join(dir, name), 'utf8');
    texts.push(...literals(src, /AppError\('\w+', '([^':]+)'\)/g), ...literals(src, /found\([^,]+, '([^']+)'\)/g));
  }
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
      expect(translation.match(/\$\d/g)?.sort() ?? [], source).toEqual(source.match(/\$\d/g)?.sort() ?? []);
    }
  });

  it('translates the contract rule messages and the system services refusals these screens show', () => {
    const texts = contractAndServerTexts();
    expect(texts.length).toBeGreaterThan(40);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
