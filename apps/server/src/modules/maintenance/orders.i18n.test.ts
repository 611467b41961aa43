import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverPack } from '../../../test/packs.ts';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract';
import { ORDER_NOTICE_NOTE, ORDER_NOTICE_TEXT, REPAIR_NOTICE_TITLE, WORK_ORDER_NOTICE_TITLE } from './maintenance.notify.ts';

const FILES = ['workorder.service.ts', 'defect.service.ts', 'repair.service.ts', 'order-common.ts'];
const literals = (src: string, re: RegExp) => [...src.matchAll(re)].map((m) => m[1]!).filter((s) => !s.includes('${') && !/^[\w.[\]]+: /.test(s));

const pack = serverPack;

/** What the order calls can show as it is: refusals without a field or value in them, export headers and file names, the notices. */
function orderTexts(): string[] {
  const out = new Set<string>([WORK_ORDER_NOTICE_TITLE, REPAIR_NOTICE_TITLE, ORDER_NOTICE_TEXT, ORDER_NOTICE_NOTE]);
  for (const name of FILES) {
    const src = readFileSync(join(import.meta.dirname, name), 'utf8');
    for (const s of literals(src, /AppError\('\w+', '([^'`]+)'\)/g)) out.add(s);
    for (const s of literals(src, /found\([^,]+, '([^']+)'\)/g)) out.add(s);
    for (const s of literals(src, /header: '([^']+)'/g)) out.add(s);
    for (const s of literals(src, /fileName: '([^']+)'/g)) out.add(s);
  }
  return [...out];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for work orders, defects and repairs', (locale) => {
  it('translates the refusals, export headers and notices', () => {
    const texts = orderTexts();
    expect(texts.length).toBeGreaterThan(30);
    const p = pack(locale);
    expect(texts.filter((s) => !p[s])).toEqual([]);
  });
});
