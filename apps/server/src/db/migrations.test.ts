import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = join(import.meta.dirname, 'migrations');
const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; when: number; tag: string }[];
};

/**
 * Drizzle's migrator applies the journal's entries whose `when` is later than the last applied
 * one's: an entry merged with an earlier `when` than its predecessor would be skipped on every
 * existing database (branches generate their migrations in parallel; merges renumber them).
 */
describe('the migrations journal', () => {
  it('numbers its entries in order, each with its file, at strictly increasing times', () => {
    journal.entries.forEach((e, i) => {
      expect(e.idx).toBe(i);
      expect(e.tag.startsWith(String(i).padStart(4, '0') + '_')).toBe(true);
      expect(existsSync(join(folder, `${e.tag}.sql`))).toBe(true);
      if (i > 0) expect(e.when, `${e.tag} is not later than ${journal.entries[i - 1]!.tag}`).toBeGreaterThan(journal.entries[i - 1]!.when);
    });
  });
});
