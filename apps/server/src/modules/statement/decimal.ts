/**
 * Exact decimal arithmetic for settlement (issue 18 item 5: no binary floating point on money).
 * A value is a bigint count of 10^-scale units; every operation is exact, and rounding happens
 * only where asked, half away from zero (commercial rounding: 0.005 → 0.01, −0.005 → −0.01).
 */
export interface Dec {
  readonly units: bigint;
  readonly scale: number;
}

const TEN = 10n;
const pow10 = (n: number) => TEN ** BigInt(n);

/** Parses "12.345", "-0.5", "7" (or a number, through its shortest decimal text) exactly. */
export function dec(v: string | number | bigint, scale?: number): Dec {
  if (typeof v === 'bigint') return { units: v * pow10(scale ?? 0), scale: scale ?? 0 };
  const text = typeof v === 'number' ? numberText(v) : v.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const frac = m[3] ?? '';
  const parsed: Dec = { units: BigInt(`${m[1]}${m[2]}${frac}`), scale: frac.length };
  return scale === undefined ? parsed : round(parsed, scale);
}

/** A number's decimal text without exponent (1e-7 → "0.0000001"). */
function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

export const ZERO: Dec = { units: 0n, scale: 0 };

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const s = Math.max(a.scale, b.scale);
  return [a.units * pow10(s - a.scale), b.units * pow10(s - b.scale), s];
}

export function add(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { units: x + y, scale: s };
}
export function sub(a: Dec, b: Dec): Dec {
  const [x, y, s] = align(a, b);
  return { units: x - y, scale: s };
}
export function mul(a: Dec, b: Dec): Dec {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}
export const neg = (a: Dec): Dec => ({ units: -a.units, scale: a.scale });
export const sum = (xs: readonly Dec[]): Dec => xs.reduce(add, ZERO);
export function cmp(a: Dec, b: Dec): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}
export const min = (a: Dec, b: Dec): Dec => (cmp(a, b) <= 0 ? a : b);
export const isZero = (a: Dec): boolean => a.units === 0n;

/** Rounded to `scale` places, half away from zero (exact when it only adds places). */
export function round(a: Dec, scale: number): Dec {
  if (scale >= a.scale) return { units: a.units * pow10(scale - a.scale), scale };
  const d = pow10(a.scale - scale);
  const negative = a.units < 0n;
  const abs = negative ? -a.units : a.units;
  let q = abs / d;
  if ((abs % d) * 2n >= d) q += 1n;
  return { units: negative ? -q : q, scale };
}

/** The value as text with exactly `scale` places (rounded half away from zero). */
export function fixed(a: Dec, scale: number): string {
  const r = round(a, scale);
  const negative = r.units < 0n;
  const digits = (negative ? -r.units : r.units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${int}${scale ? `.${frac}` : ''}`;
}

/** For sorting and charts only (never for money arithmetic). */
export const toNumber = (a: Dec): number => Number(fixed(a, a.scale));
