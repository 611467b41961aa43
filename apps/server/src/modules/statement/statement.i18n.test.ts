import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { literals, packLocales, serverPack } from '../../../test/packs.ts';
import {
  SETTLEMENT_CATEGORY_LABELS, STATEMENT_ACTION_LABELS, STATEMENT_QUALITY_LABELS, STATEMENT_STATE_LABELS,
} from '@ess/contract/statement';
import { STARTED_PRICE_DELETE } from '../pricing/index.ts';
import { T } from './statement.download.ts';
import { STATEMENT_NOTICE_NOTE, STATEMENT_NOTICE_TEXT, STATEMENT_NOTICE_TITLE } from './statement.notify.ts';

const pack = serverPack;

/** What statements can show as it is: labels, the documents' texts, notices, refusals without a value in them. */
function statementTexts(): string[] {
  const out = new Set<string>([
    ...Object.values(SETTLEMENT_CATEGORY_LABELS), ...Object.values(STATEMENT_ACTION_LABELS), ...Object.values(STATEMENT_QUALITY_LABELS),
    ...Object.values(STATEMENT_STATE_LABELS), ...Object.values(T), STATEMENT_NOTICE_TITLE, STATEMENT_NOTICE_TEXT, STATEMENT_NOTICE_NOTE, STARTED_PRICE_DELETE,
  ]);
  const contract = readFileSync(join(import.meta.dirname, '../../../../../packages/contract/src/statement.ts'), 'utf8');
  for (const s of literals(contract, /export const [A-Z_]+ = '([^'a-z]+)'/g)) out.add(s);
  const service = readFileSync(join(import.meta.dirname, 'statement.service.ts'), 'utf8');
  for (const s of literals(service, /AppError\('\w+', '([^'`]+)'\)/g)) out.add(s);
  for (const s of literals(service, /found\([^,]+, '([^']+)'\)/g)) out.add(s);
  return [...out];
}

const placeholders = (s: string) => [...new Set(s.match(/\$\d/g) ?? [])].sort();

describe.each(packLocales())('%s pack for statements', (locale) => {
  it('translates the labels, documents, notices and refusals, keeping every $n', () => {
    const texts = statementTexts();
    expect(texts.length).toBeGreaterThan(60);
    const p = pack(locale);
    expect(texts.filter((s) => !p[s])).toEqual([]);
    expect(texts.filter((s) => p[s] && placeholders(s).some((n) => !placeholders(p[s]!).includes(n)))).toEqual([]);
  });
});
