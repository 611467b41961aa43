#!/usr/bin/env node
/**
 * The console's text catalogue (issue 24, item 2; decision 0053): every source text that reaches
 * the language pack, scanned from the code with the TypeScript parser, into
 * apps/server/src/modules/i18n/packs/catalogue.json, which "refresh" merges into the database.
 *
 * Collected (non-test .ts/.tsx files; comments and templates with `${…}` left out):
 * - apps/web/src: the literal first argument of every call of the pack function (`t('…')`,
 *   `t(\`…\`)`, `translateBuiltIn('…')`), and every other string literal with Chinese in it (the
 *   declarations' titles, labels and options, which the console passes to the pack);
 * - packages/contract/src: every string literal with Chinese in it (labels, rules, refusals the
 *   console shows through the pack);
 * - apps/server/src/modules: the messages of `new AppError(CODE, '…')` and `found(…, '…')`
 *   (refusals the console shows as tipMsg through the pack).
 * Each text's context is the folder it was first found in (apps/web/src/features/hooks →
 * `web/features/hooks`), at most 64 characters. A text is marked `short` (the UI has little room
 * for it: the length rule of decision 0053) when the console uses it as a `title`, `label` or
 * `tab` property (column titles, form labels, menu items, tabs, buttons) and it is no sentence.
 *
 *   node scripts/scan-texts.mjs          writes the catalogue
 *   node scripts/scan-texts.mjs --check  exits 1 when the file is not current
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');
export const CATALOGUE_FILE = join(ROOT, 'apps/server/src/modules/i18n/packs/catalogue.json');
const CHINESE = /[\u3400-\u9fff]/;
const PACK_FUNCTIONS = new Set(['t', 'translateBuiltIn']);
const SHORT_PROPS = new Set(['title', 'label', 'tab']);
const SENTENCE = /[，。；：？！,.;:?!]|\s.*\s/;

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'test' && e.name !== 'packs') yield* files(p);
    } else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) yield p;
  }
}

const literalText = (n) => (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? n.text : undefined);

function scanFile(path, mode, add, short) {
  const src = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const visit = (n) => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) return;
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const callee = n.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      const args = n.arguments ?? [];
      if (mode === 'web' && PACK_FUNCTIONS.has(name) && args[0]) {
        const s = literalText(args[0]);
        if (s !== undefined) add(s);
      }
      if (mode === 'server') {
        const at = name === 'AppError' ? 1 : name === 'found' ? 1 : -1;
        const s = at >= 0 && args[at] ? literalText(args[at]) : undefined;
        if (s !== undefined) add(s);
      }
    }
    if (mode !== 'server') {
      const s = literalText(n);
      if (s !== undefined && CHINESE.test(s)) add(s);
    }
    if (mode === 'web' && ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && SHORT_PROPS.has(n.name.text)) {
      const s = literalText(n.initializer);
      if (s !== undefined && !SENTENCE.test(s)) short(s);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
}

/** The catalogue, sorted by source text: [{ source, context }]. */
export function scanTexts() {
  const seen = new Map();
  const shorts = new Set();
  const roots = [
    ['apps/web/src', 'web', 'web'],
    ['packages/contract/src', 'contract', 'contract'],
    ['apps/server/src/modules', 'server', 'server'],
  ];
  for (const [dir, mode, label] of roots) {
    const base = join(ROOT, dir);
    for (const f of [...files(base)].sort()) {
      const folder = relative(base, dirname(f)).split('\\').join('/');
      const context = (folder ? `${label}/${folder}` : label).slice(0, 64);
      scanFile(f, mode, (s) => {
        if (s.trim() === '' || seen.has(s)) return;
        seen.set(s, context);
      }, (s) => shorts.add(s));
    }
  }
  return [...seen].map(([source, context]) => (shorts.has(source) ? { source, context, short: true } : { source, context })).sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

const render = (entries) => `${JSON.stringify(entries, null, 0).replace(/\},\{/g, '},\n{')}\n`;

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const text = render(scanTexts());
  if (process.argv.includes('--check')) {
    const current = existsSync(CATALOGUE_FILE) ? readFileSync(CATALOGUE_FILE, 'utf8') : '';
    if (current !== text) {
      console.error('apps/server/src/modules/i18n/packs/catalogue.json is not current: run node scripts/scan-texts.mjs');
      process.exit(1);
    }
  } else {
    writeFileSync(CATALOGUE_FILE, text);
    console.log(`${CATALOGUE_FILE}: ${text.split('\n').length - 1} texts`);
  }
}
