/**
 * The query string of a call, as `qs.stringify(data, { arrayFormat: 'brackets', skipNulls: true })`
 * writes it (the server parses it with qs): `ids[]=1&ids[]=2`, nested objects as `a[b]=1`, dates
 * as ISO strings, null and undefined left out, keys and values percent-encoded per RFC 3986.
 * Written out here because qs with its dependencies (side-channel, object-inspect, get-intrinsic)
 * weighed about 25 kB gzipped on the login page; query-string.test.ts checks it against qs.
 */
export function stringifyQuery(data: unknown): string {
  if (data === null || data === undefined || typeof data !== 'object') return '';
  const parts: string[] = [];
  const seen = new Set<object>();
  const add = (prefix: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Date) {
      parts.push(`${encode(prefix)}=${encode(value.toISOString())}`);
      return;
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
      parts.push(`${encode(prefix)}=${encode(String(value))}`);
      return;
    }
    if (typeof value === 'symbol') {
      parts.push(`${encode(prefix)}=${encode(value.toString())}`);
      return;
    }
    if (typeof value !== 'object') return;
    if (seen.has(value)) throw new RangeError('Cyclic object value');
    seen.add(value);
    if (Array.isArray(value)) for (const item of value as unknown[]) add(`${prefix}[]`, item);
    else for (const [k, v] of Object.entries(value)) add(`${prefix}[${k}]`, v);
    seen.delete(value);
  };
  for (const [k, v] of Object.entries(data)) add(k, v);
  return parts.join('&');
}

/** encodeURIComponent, plus the sub-delimiters it leaves alone (qs's RFC 3986 encoding). */
function encode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
