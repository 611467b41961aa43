import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnumOption, FormMode } from '../components/crud/index.ts';

// What the language-pack coverage tests (the features' *.i18n.test.ts) collect: the source texts a
// screen shows, gathered from resource declarations, the screens' own code, the contract and the
// server's refusals, so that each test can check that every shipped pack translates them.

/** The repository root. */
export const REPO = join(import.meta.dirname, '../../../..');

/** Calls of t() with a literal source text. */
export const T_CALL = /\bt\('([^']+)'/g;
/** `text: '…'` properties (issue texts shown through the pack). */
export const TEXT_PROP = /text: '([^']+)'/g;
/** Single-quoted literals with Chinese in them. */
export const CHINESE_LITERAL = /'([^'\n]*[\u4e00-\u9fff][^'\n]*)'/g;
/** The message of `new AppError('CODE', '…')`. */
export const APP_ERROR = /AppError\('\w+', '([^'`]+)'/g;
/** The message of `notFound(…, '…')`. */
export const NOT_FOUND = /found\([^']+, '([^']+)'\)/g;
/** Module constants holding a text: `const DUPLICATE_TIP = '…'`. */
export const CONST_TEXT = /const [A-Z_]+ = '([^']+)'/g;

/**
 * The first capture of every match of `re` (a /g expression) in `src`, leaving out templates
 * (`${…}`), which are no fixed source text.
 */
export function literals(src: string, re: RegExp): string[] {
  return [...src.matchAll(re)].map((m) => m[1]!).filter((s) => !s.includes('${'));
}

/** A file of the repository, by its path from the root. */
export function readRepoFile(path: string): string {
  return readFileSync(join(REPO, path), 'utf8');
}

/** Whether a file name is TypeScript source (.ts, .tsx) other than a test. */
export function isSource(name: string): boolean {
  return /\.tsx?$/.test(name) && !name.includes('.test.');
}

/** The names of the source files (see isSource) of a folder. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).filter(isSource);
}

/** The text-bearing parts of a ResourceDef (any record, form and detail types). */
export interface DeclaredTexts {
  name: string;
  exportName?: string;
  columns: readonly ColumnTexts[];
  detailColumns?: readonly ColumnTexts[];
  filters?: readonly ColumnTexts[];
  form?: {
    fields: readonly {
      label: string;
      options?: readonly EnumOption[];
      help?: string | ((mode: FormMode) => string | undefined);
      placeholder?: string;
    }[];
  };
}

interface ColumnTexts {
  title: string;
  options?: readonly EnumOption[];
}

/**
 * Every source text of resource declarations: name, export name, column and detail-column titles,
 * filter titles, form labels, help (in both modes) and placeholders, and the labels of their enum
 * options (but not literal ones); plus the labels of `extraOptions`, enumerations a screen shows
 * outside the declarations.
 */
export function resourceTexts(resources: readonly DeclaredTexts[], extraOptions: readonly EnumOption[] = []): string[] {
  const out = new Set<string>();
  const options = (o: readonly EnumOption[] = []) => {
    for (const x of o) if (!x.literal) out.add(x.label);
  };
  for (const r of resources) {
    out.add(r.name);
    if (r.exportName) out.add(r.exportName);
    for (const c of [...r.columns, ...(r.detailColumns ?? []), ...(r.filters ?? [])]) {
      out.add(c.title);
      options(c.options);
    }
    for (const f of r.form?.fields ?? []) {
      out.add(f.label);
      options(f.options);
      for (const mode of ['add', 'edit'] as const) {
        const help = typeof f.help === 'function' ? f.help(mode) : f.help;
        if (help) out.add(help);
      }
      if (f.placeholder) out.add(f.placeholder);
    }
  }
  options(extraOptions);
  return [...out];
}

/**
 * The literal texts the hand-written screens of a feature folder pass to the pack: the captures of
 * `patterns` (default the calls of t() with a literal) in its source files, without repeats.
 */
export function screenTexts(dir: string, patterns: readonly RegExp[] = [T_CALL]): string[] {
  const out = new Set<string>();
  for (const name of sourceFiles(dir)) {
    const src = readFileSync(join(dir, name), 'utf8');
    for (const re of patterns) for (const s of literals(src, re)) out.add(s);
  }
  return [...out];
}

/**
 * The texts of a contract file (packages/contract/src/`file`): its Chinese literals (labels, rules,
 * zod messages), or the captures of `re`; repeats kept.
 */
export function contractTexts(file: string, re: RegExp = CHINESE_LITERAL): string[] {
  return literals(readRepoFile(join('packages/contract/src', file)), re);
}

/** Which files of a server module serverTexts reads, and what it collects from them. */
export interface ServerTextsOptions {
  /** Default the *.service.ts files. */
  files?: (name: string) => boolean;
  /** Default the AppError messages and the text constants. */
  patterns?: readonly RegExp[];
}

/**
 * The refusal texts of a server module (apps/server/src/modules/`module`), which the console shows
 * through the pack: the captures of the patterns in the module's files, file by file; repeats kept.
 */
export function serverTexts(
  module: string,
  { files = (n) => n.endsWith('.service.ts'), patterns = [APP_ERROR, CONST_TEXT] }: ServerTextsOptions = {},
): string[] {
  const dir = join(REPO, 'apps/server/src/modules', module);
  return readdirSync(dir).filter(files).flatMap((name) => {
    const src = readFileSync(join(dir, name), 'utf8');
    return patterns.flatMap((re) => literals(src, re));
  });
}

/**
 * Every quoted literal (single or double quotes) with Chinese in it in the source files of a
 * folder, comments left out, without repeats; `skip` leaves files out by name.
 */
export function chineseLiterals(dir: string, skip: (name: string) => boolean = () => false): string[] {
  const out = new Set<string>();
  for (const name of sourceFiles(dir).filter((n) => !skip(n))) {
    const src = readFileSync(join(dir, name), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const m of src.matchAll(/(['"])([^'"\n]*[\u3400-\u9fff][^'"\n]*)\1/g)) out.add(m[2]!);
  }
  return [...out];
}
