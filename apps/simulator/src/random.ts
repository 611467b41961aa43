/**
 * Seeded randomness. Everything random in the simulator is a pure function of the fleet seed and
 * of names and times (a hash), so a value at an instant does not depend on how often the
 * simulation was stepped to get there. Never Math.random.
 */

/** 32-bit mix (the murmur3 finaliser). */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashString(s: string, h: number): number {
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  return fmix(h);
}

/** A uniform number in [0, 1) determined by its parts. */
export function hash01(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    if (typeof part === 'string') {
      h = hashString(part, h ^ 0x9e3779b9);
    } else {
      // Integers and fractions alike: hash both 32-bit halves of the double's integer part and the fraction.
      const whole = Math.floor(part);
      h = fmix(h ^ Math.imul((whole >>> 0) ^ 0x27d4eb2d, 0x165667b1));
      h = fmix(h ^ Math.floor(whole / 4294967296));
      h = fmix(h ^ Math.floor((part - whole) * 4294967296));
    }
  }
  return fmix(h) / 4294967296;
}

/** A uniform number in [min, max). */
export function hashRange(min: number, max: number, ...parts: readonly (string | number)[]): number {
  return min + (max - min) * hash01(...parts);
}

/** An approximately normal number (mean 0, sd 1) from four hashes. */
export function hashNormal(...parts: readonly (string | number)[]): number {
  let sum = 0;
  for (let i = 0; i < 4; i++) sum += hash01(...parts, i);
  return (sum - 2) * Math.sqrt(3);
}

/**
 * Smooth noise in [0, 1): hashed knots every `periodMs`, cosine-interpolated in between, so the
 * value is continuous in time and the same whatever the step size.
 */
export function valueNoise(tMs: number, periodMs: number, ...parts: readonly (string | number)[]): number {
  const x = tMs / periodMs;
  const k = Math.floor(x);
  const frac = x - k;
  const a = hash01(...parts, k);
  const b = hash01(...parts, k + 1);
  const w = (1 - Math.cos(Math.PI * frac)) / 2;
  return a + (b - a) * w;
}

/** A sequential PRNG (mulberry32) for generating definitions in a fixed order. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
