/**
 * Cuts a stylesheet into parts of at most about `maxChars` characters, between top-level rules
 * (never inside a block, a string or a comment), keeping their order. A browser parses each
 * stylesheet in one main-thread task; several smaller sheets are several short tasks instead of
 * one long one (Total Blocking Time). A single rule longer than `maxChars` makes a part alone.
 */
export function splitCss(css: string, maxChars: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let cut = 0; // the end of the last complete top-level rule
  let depth = 0;
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (ch === '"' || ch === "'") {
      const close = css.indexOf(ch, i + 1);
      i = close < 0 ? css.length : close;
    } else if (ch === '/' && css[i + 1] === '*') {
      const close = css.indexOf('*/', i + 2);
      i = close < 0 ? css.length : close + 1;
    } else if (ch === '{') depth++;
    else if (ch === '}' || (ch === ';' && depth === 0)) {
      if (ch === '}') depth--;
      if (depth !== 0) continue;
      if (i + 1 - start > maxChars && cut > start) {
        parts.push(css.slice(start, cut));
        start = cut;
      }
      cut = i + 1;
    }
  }
  if (start < css.length && css.slice(start).trim()) parts.push(css.slice(start));
  return parts;
}
