#!/usr/bin/env node
// The copy-paste check of the static half of `npm test`: jscpd over apps/ and packages/ (code of six
// lines or more, 70 tokens, the same in two places; import lists excepted). It fails when there are
// more clones than MAX_CLONES, the count the code base stands at: a change that repeats code lowers
// nothing and fails; one that removes a clone should lower MAX_CLONES with it.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Clones at the last count (issue 13: 12 before it, 7 after; 4 once the tests' fixtures became apps/server/test/factory.ts). */
const MAX_CLONES = 4;

// jscpd's ESM build does not load on Node 20; its CommonJS build does.
const { detectClones } = createRequire(import.meta.url)('jscpd');
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const clones = await detectClones({
  path: ['apps', 'packages'],
  format: ['typescript', 'tsx'],
  minLines: 6,
  minTokens: 70,
  ignore: ['**/node_modules/**', '**/dist/**', '**/i18n/packs/**', '**/migrations/**'],
  ignorePattern: ['import\\s[^;]*?from\\s[^;]*?;'],
  gitignore: true,
  silent: true,
});
const where = (d) => `${d.sourceId}:${d.start.line}-${d.end.line}`;
for (const c of clones) console.log(`  ${where(c.duplicationA)}  ~  ${where(c.duplicationB)}`);
console.log(`${clones.length} clones (at most ${MAX_CLONES})`);
process.exit(clones.length > MAX_CLONES ? 1 : 0);
