import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context.ts';
import { loadConfig } from '../../platform/config.ts';
import { deviceBaseUrl } from './firmware.runtime.ts';

/** The address devices reach the server at is a setting of platform/config.ts like every other (FIRMWARE_PUBLIC_URL). */
describe('the firmware device address', () => {
  const at = (env: Record<string, string>) => deviceBaseUrl({ config: loadConfig({}, env) } as unknown as AppContext);
  it('is FIRMWARE_PUBLIC_URL when set (without a trailing slash), else the listening address', () => {
    expect(at({ FIRMWARE_PUBLIC_URL: 'https://ess.example.com/' })).toBe('https://ess.example.com');
    expect(at({ PORT: '9000', HOST: '0.0.0.0' })).toBe('http://127.0.0.1:9000');
    expect(at({ PORT: '9000', HOST: '::1' })).toBe('http://[::1]:9000');
  });
  it('refuses a value that is not an http(s) URL at start', () => {
    expect(() => loadConfig({}, { FIRMWARE_PUBLIC_URL: 'ftp://x' })).toThrow(/FIRMWARE_PUBLIC_URL/);
    expect(() => loadConfig({}, { FIRMWARE_PUBLIC_URL: 'not a url' })).toThrow();
  });
});
