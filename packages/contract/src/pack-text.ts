/**
 * The language pack's text model (product-spec §3): source text → translation, `$1`, `$2`…
 * placeholders. A translation may hold plural forms, `{{one}}$1 station{{other}}$1 stations`:
 * the form is chosen by the locale's plural rules (Intl.PluralRules) for the first numeric
 * argument, so "1 stations" never shows. Languages without plural forms write one text.
 * No zod here: the login page's bundle uses it.
 */

const FORM = /\{\{(zero|one|two|few|many|other)\}\}/;

/** The plural forms of a translation ({ one: '…', other: '…' }), or null for a plain text. */
export function pluralForms(text: string): Partial<Record<Intl.LDMLPluralRule, string>> | null {
  if (!FORM.test(text)) return null;
  const parts = text.split(FORM);
  const forms: Partial<Record<Intl.LDMLPluralRule, string>> = {};
  for (let i = 1; i < parts.length; i += 2) forms[parts[i] as Intl.LDMLPluralRule] = parts[i + 1] ?? '';
  return forms;
}

const rules = new Map<string, Intl.PluralRules>();
const rulesOf = (locale: string) => {
  let r = rules.get(locale);
  if (!r) {
    r = new Intl.PluralRules(locale);
    rules.set(locale, r);
  }
  return r;
};

/** Replaces `$1`, `$2`… with the given values (placeholders without a value stay as written); picks the plural form first. */
export function fillText(text: string, args: readonly unknown[], locale: string): string {
  let chosen = text;
  const forms = pluralForms(text);
  if (forms) {
    const n = args.find((a): a is number => typeof a === 'number' && Number.isFinite(a));
    const rule = n === undefined ? 'other' : rulesOf(locale).select(n);
    chosen = forms[rule] ?? forms.other ?? Object.values(forms)[0] ?? text;
  }
  return chosen.replace(/\$(\d+)/g, (whole, k: string) => {
    const i = Number(k) - 1;
    return i >= 0 && i < args.length ? String(args[i]) : whole;
  });
}

/**
 * The pack key of a built-in name with numbers (the demo's "2#簇3#电池包"): each run of digits
 * becomes a placeholder in order ("$1#簇$2#电池包"), and the numbers are its arguments.
 */
export function nameTemplate(name: string): { key: string; args: number[] } {
  const args: number[] = [];
  const key = name.replace(/\d+/g, (d) => {
    args.push(Number(d));
    return `$${args.length}`;
  });
  return { key, args };
}

/**
 * Built-in data in the reader's language (role names, seeded product models, parameter names,
 * the demo's device names): the pack's translation of the name, or of its numbered template;
 * a name the pack does not know (what users typed) is shown as it is.
 */
export function translateName(name: string, lookup: (key: string) => string | undefined, locale: string): string {
  const whole = lookup(name);
  if (whole !== undefined) return fillText(whole, [], locale);
  const { key, args } = nameTemplate(name);
  if (!args.length) return name;
  const templ = lookup(key);
  return templ === undefined ? name : fillText(templ, args, locale);
}
