import { describe, expect, it } from 'vitest';
import { compareVersions, satisfiesRange } from './rollout.targets.ts';

/** Version order and "may upgrade from" ranges come from the `semver` package (issue 22: semantic versions compared properly). */
describe('firmware version comparison', () => {
  it('orders semantic versions by number, a pre-release before its release; not semver: null', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('2.0.0-rc.1', '2.0.0')).toBe(-1);
    expect(compareVersions('2.0.0-rc.10', '2.0.0-rc.2')).toBe(1);
    expect(compareVersions('1.2.3+build.5', '1.2.3')).toBe(0);
    expect(compareVersions('1.2', '1.2.0')).toBeNull();
  });
  it('checks "may upgrade from" with npm range syntax; a range or version that does not parse: no', () => {
    expect(satisfiesRange('1.1.4', '>=1.0.0 <1.2.0')).toBe(true);
    expect(satisfiesRange('1.2.0', '>=1.0.0 <1.2.0')).toBe(false);
    expect(satisfiesRange('1.4.2', '^1.4 || 2.0.x')).toBe(true);
    expect(satisfiesRange('2.0.7', '^1.4 || 2.0.x')).toBe(true);
    expect(satisfiesRange('1.1.0-rc.1', '>=1.0.0')).toBe(true);
    expect(satisfiesRange('1.0.0', null)).toBe(true);
    expect(satisfiesRange('x', '>=1.0.0')).toBe(false);
    expect(satisfiesRange('1.0.0', 'not a range')).toBe(false);
  });
});
