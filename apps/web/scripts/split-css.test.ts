// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { splitCss } from './split-css.ts';

describe('splitCss', () => {
  const rules = ['.a{color:red}', '@media (min-width:1px){.b{color:blue}.c{margin:0}}', '@import url("x{y}.css");', '.d{content:"}{"}', '/* } */.e{top:0}'];
  const css = rules.join('');

  it('cuts between top-level rules only, in order, losing nothing', () => {
    const parts = splitCss(css, 20);
    expect(parts.join('')).toBe(css);
    expect(parts).toEqual(rules);
  });

  it('keeps rules together up to the size', () => {
    expect(splitCss(css, 1000)).toEqual([css]);
    const parts = splitCss(css, 70);
    expect(parts.join('')).toBe(css);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts.slice(0, -1)) expect(p.length).toBeLessThanOrEqual(70);
  });

  it('puts a rule longer than the size in a part of its own', () => {
    const long = `.x{${'color:red;'.repeat(20)}}`;
    expect(splitCss(`.a{top:0}${long}.b{top:0}`, 50)).toEqual(['.a{top:0}', long, '.b{top:0}']);
  });
});
