import { describe, expect, it } from 'vitest';
import { fillText } from '@ess/contract/pack-text';
import { packLocales, serverPack } from '../../../test/packs.ts';
import { CIRCUIT_NOTICE_TEXT, CIRCUIT_NOTICE_TITLE } from './dispatch.send.ts';

const placeholders = (s: string) => [...new Set(s.match(/\$\d/g) ?? [])].sort();

/** The owner's circuit notice is written in the owner's language: every pack has it, with every $n. */
describe.each(packLocales())('%s pack for the hooks notices', (locale) => {
  it('translates the circuit notice, keeping every $n', () => {
    const p = serverPack(locale);
    for (const s of [CIRCUIT_NOTICE_TITLE, CIRCUIT_NOTICE_TEXT]) {
      expect(p[s], s).toBeTruthy();
      expect(placeholders(p[s]!)).toEqual(placeholders(s));
    }
  });
});

it('fills the English notice with the hook, the count, the cool-down and the error', () => {
  const p = serverPack('en-US');
  expect(fillText(p[CIRCUIT_NOTICE_TEXT]!, ['CRM', 5, 10, 'timeout'], 'en-US')).toBe(
    'Hook “CRM” failed 5 deliveries in a row and is paused; one delivery will be tried again in 10 minutes and, if it succeeds, delivery resumes. You can also activate it again in the hook list. Last error: timeout',
  );
});
