import { templateVariables } from '@ess/contract/messaging';

/**
 * The one template engine of mail and SMS (decision 0043): `${name}` placeholders (spaces inside
 * the braces allowed), `$${` for a literal `${`. The syntax and the variable extraction are the
 * contract's (templateVariables), so the console lists and validates exactly what this renders.
 *
 * - `html`: each value is HTML-escaped (& < > " ' `), the template's own markup is kept;
 * - `text`: values as they are (plain mail bodies, subjects, SMS).
 *
 * A variable without a value renders as '' (a template is validated against the known variables
 * when it is saved; an event that lacks one of them leaves the gap rather than failing delivery).
 */
export type TemplateMode = 'html' | 'text';
export type TemplateValues = Readonly<Record<string, string | number | null | undefined>>;

const PLACEHOLDER = /\$(\$)?\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c]!);
}

/** Renders a template with values; `mode` html escapes every value. */
export function renderTemplate(template: string, values: TemplateValues, mode: TemplateMode): string {
  return template.replace(PLACEHOLDER, (whole, literal: string | undefined, name: string) => {
    if (literal) return whole.slice(1);
    const v = Object.hasOwn(values, name) ? values[name] : undefined;
    const text = v === null || v === undefined ? '' : String(v);
    return mode === 'html' ? escapeHtml(text) : text;
  });
}

/** The variables the texts use together, in order of first use. */
export function variablesOf(...texts: (string | null | undefined)[]): string[] {
  const out: string[] = [];
  for (const t of texts) for (const n of t ? templateVariables(t).names : []) if (!out.includes(n)) out.push(n);
  return out;
}

/**
 * A plain-text body from an HTML one (when a template has no text body): block ends become line
 * breaks, links keep their address, tags go, entities are decoded.
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\s[^>]*href\s*=\s*["']([^"']+)["'][^>]*>([\s\S]*?)<\/a>/gi, (_, href: string, label: string) => (label.includes(href) ? label : `${label} (${href})`))
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|table|ul|ol)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<[^>]+>/g, '')
    .replace(/&(nbsp|amp|lt|gt|quot|#39|#96);/g, (e, n: string) => ({ nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' })[n] ?? e)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** SMS length and segments: GSM-7 160 per message (153 each when split), else UCS-2 70 (67). */
export function smsSegments(text: string): { length: number; segments: number } {
  const gsm = /^[\n\r !"#$%&'()*+,\-./0-9:;<=>?@A-Z_a-z£¥èéùìòÇØøÅåΔΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà^{}\\[~\]|€]*$/.test(text);
  const length = [...text].length;
  const [single, multi] = gsm ? [160, 153] : [70, 67];
  return { length, segments: length === 0 ? 0 : length <= single ? 1 : Math.ceil(length / multi) };
}
