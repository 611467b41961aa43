import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ALARM_LEVEL_LABELS, ALARM_RULE_KIND_LABELS, ALARM_STATUS_LABELS, ALARM_TYPE_LABELS,
} from '@ess/contract/alarm';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { describe, expect, it } from 'vitest';
import type { EnumOption, FieldDef, FilterDef, ResourceDef } from '../../components/crud/index.ts';
import { readPack } from '../../test/packs.ts';
import { ANALYSIS_PRESETS } from './AlarmAnalysisPage.tsx';
import { dictResource, TARGET_OPTIONS } from './dict.resource.tsx';
import { alarmResource } from './monitor.resource.tsx';

const REPO = join(import.meta.dirname, '../../../../..');
const literals = (src: string, re: RegExp) => [...src.matchAll(re)].map((m) => m[1]!).filter((s) => !s.includes('${'));

type AnyResource = ResourceDef<{ id: number }, Record<string, unknown>, unknown>;

/** Every source text the alarm screens show: t() literals, resource declarations, enumerations. */
export function alarmScreenTexts(): string[] {
  const out = new Set<string>();
  for (const f of readdirSync(import.meta.dirname).filter((n) => /\.tsx?$/.test(n) && !n.includes('.test.'))) {
    for (const s of literals(readFileSync(join(import.meta.dirname, f), 'utf8'), /\bt\('([^']+)'/g)) out.add(s);
  }
  for (const s of literals(readFileSync(join(REPO, 'apps/web/src/app/layout/HeaderActions.tsx'), 'utf8'), /\bt\('([^']+)'/g)) out.add(s);
  const options = (o?: readonly EnumOption[]) => o?.forEach((x) => !x.literal && out.add(x.label));
  for (const r of [dictResource, alarmResource] as unknown as AnyResource[]) {
    out.add(r.name);
    if (r.exportName) out.add(r.exportName);
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
      if (typeof f.help === 'string') out.add(f.help);
    }
  }
  options(TARGET_OPTIONS);
  for (const labels of [ALARM_LEVEL_LABELS, ALARM_TYPE_LABELS, ALARM_STATUS_LABELS, ALARM_RULE_KIND_LABELS]) for (const v of Object.values(labels)) out.add(v);
  for (const p of ANALYSIS_PRESETS) out.add(p.label);
  return [...out];
}

/** Texts the server sends that the console shows through the pack: refusals, contract rules, seeded descriptions. */
export function alarmServerTexts(): string[] {
  const texts: string[] = [];
  const contract = readFileSync(join(REPO, 'packages/contract/src/alarm.ts'), 'utf8');
  texts.push(...literals(contract, /(?:message: |= )'([^'\n]*[\u4e00-\u9fff][^'\n]*)'/g));
  const dir = join(REPO, 'apps/server/src/modules/alarm');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.includes('.test.'))) {
    const src = readFileSync(join(dir, name), 'utf8');
    texts.push(...literals(src, /AppError\('\w+', '([^'`]+)'\)/g), ...literals(src, /found\([^']+, '([^']+)'\)/g));
    texts.push(...literals(src, /description: '([^']+)'/g), ...literals(src, /message: '([^']+)'/g));
  }
  return [...new Set(texts)];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the alarm screens', (locale) => {
  const pack = readPack(locale);
  const placeholders = (s: string) => (s.match(/\$\d+/g) ?? []).sort().join();

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = alarmScreenTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
    expect(texts.filter((s) => placeholders(pack[s] ?? '') !== placeholders(s))).toEqual([]);
  });

  it('translates the alarm refusals, rules and default descriptions', () => {
    const texts = alarmServerTexts();
    expect(texts.length).toBeGreaterThan(20);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
