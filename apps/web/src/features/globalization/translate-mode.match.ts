import type { LanguagePack } from '../../platform/i18n/translate.ts';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a shown text is a text of the pack as filled in: `$1`, `$2`… stand for any value. */
function shows(template: string, text: string): boolean {
  if (template === text) return true;
  if (!/\$\d/.test(template)) return false;
  const re = new RegExp(`^${template.split(/\$\d+/).map(escape).join('.+?')}$`, 's');
  return re.test(text);
}

/**
 * The source text a shown text came from: among the sources the pack function was asked for, the
 * one whose translation (or itself, untranslated) reads as the text; exact matches win over filled
 * placeholders. Null when none does (a name typed by a user, a number).
 */
export function sourceOfShown(text: string, sources: Iterable<string>, pack: LanguagePack): string | null {
  const shown = text.trim();
  if (!shown) return null;
  let filled: string | null = null;
  for (const source of sources) {
    const template = pack.get(source) ?? source;
    if (template === shown) return source;
    if (filled === null && shows(template, shown)) filled = source;
  }
  return filled;
}

/** The texts a clicked element may be showing: its own text, then its labels, then its parents' (a label inside a button). */
export function shownTexts(target: Element | null, depth = 3): string[] {
  const out: string[] = [];
  for (let el = target, i = 0; el && i < depth; el = el.parentElement, i++) {
    const text = (el as HTMLElement).innerText ?? el.textContent ?? '';
    if (text.trim()) out.push(text.trim());
    for (const attr of ['aria-label', 'title', 'placeholder']) {
      const v = el.getAttribute(attr);
      if (v?.trim()) out.push(v.trim());
    }
  }
  return out;
}
