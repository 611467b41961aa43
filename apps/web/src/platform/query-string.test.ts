// @vitest-environment node
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { stringifyQuery } from './query-string.ts';

const CASES: Record<string, unknown>[] = [
  {},
  { a: 1, b: 'x', c: true, d: false, e: 0, f: '' },
  { ids: [1, 2, 3], name: '储能', none: null, off: undefined },
  { empty: [], nested: { x: 1, y: [1, 2], z: { deep: 'v' } } },
  { list: [{ a: 1 }, { b: [2, null, 3] }], nul: [null, undefined, 4] },
  { when: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), nestedDate: { at: new Date(0) } },
  { "spa ce": "a b&c=d?e/f#g+h", "br[ack]ets": "!'()*~-_.", emoji: '😀', slash: '/\\' },
  { big: 12345678901234567890n, neg: -1.5, nan: Number.NaN, inf: Number.POSITIVE_INFINITY },
  { fn: () => 1, obj: {}, arrOfEmpty: [[], {}], mixed: [1, [2, [3]]] },
];

describe('stringifyQuery', () => {
  it.each(CASES.map((c, i) => [i, c] as const))('case %i is what qs writes (brackets, skipNulls)', (_i, data) => {
    expect(stringifyQuery(data)).toBe(qs.stringify(data, { arrayFormat: 'brackets', skipNulls: true }));
  });

  it('is empty for nothing', () => {
    expect(stringifyQuery(null)).toBe('');
    expect(stringifyQuery(undefined)).toBe('');
    expect(stringifyQuery('x')).toBe('');
  });

  it('refuses a cycle', () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(() => stringifyQuery(a)).toThrow(RangeError);
  });
});
