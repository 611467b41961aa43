import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { literals, PACKS } from '../../../test/packs.ts';
import { DEFAULT_LOCALE, LOCALES, PRICE_PERIOD_LABELS, PRICE_PERIODS } from '@ess/contract';

const REPO = join(import.meta.dirname, '../../../../..');

function pack(locale: string): Record<string, string> {
  const dir = join(PACKS, locale);
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) Object.assign(out, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>);
  return out;
}

/** What the revenue calls can show: the contract's rules, the services' refusals and the export's headers. */
function revenueTexts(): string[] {
  const out = new Set<string>();
  const contract = readFileSync(join(REPO, 'packages/contract/src/dashboard.ts'), 'utf8');
  for (const s of literals(contract, /(?:message: |, |\()'([^'\n]*[\u4e00-\u9fff][^'\n]*)'/g)) out.add(s);
  const dir = import.meta.dirname;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.includes('.test.'))) {
    const src = readFileSync(join(dir, name), 'utf8');
    for (const s of literals(src, /AppError\('\w+', '([^'`]+)'\)/g)) out.add(s);
    for (const s of literals(src, /header: '([^']+)'/g)) out.add(s);
    for (const s of literals(src, /streamXlsx\(reply, '([^']+)'/g)) out.add(s);
  }
  for (const p of PRICE_PERIODS) for (const dir of ['充电量', '放电量']) out.add(`${dir}（${PRICE_PERIOD_LABELS[p]}）kWh`);
  return [...out];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for revenue', (locale) => {
  it('translates the rules, refusals and export headers of the money calls', () => {
    const texts = revenueTexts();
    expect(texts.length).toBeGreaterThan(20);
    const p = pack(locale);
    expect(texts.filter((s) => !p[s])).toEqual([]);
  });
});
