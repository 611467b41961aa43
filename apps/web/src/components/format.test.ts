// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatEfficiency, NO_EFFICIENCY } from './format.ts';

describe('efficiency as every screen shows it', () => {
  it('shows "–" when nothing was discharged, never "0 %"', () => {
    expect(NO_EFFICIENCY).toBe('–');
    // The server has no round trip to measure (null), or an older answer says 0.
    expect(formatEfficiency(null)).toBe('–');
    expect(formatEfficiency(undefined)).toBe('–');
    expect(formatEfficiency(0)).toBe('–');
    // The screen knows the discharge: zero discharge is "–" whatever the figure says.
    expect(formatEfficiency(0, 0)).toBe('–');
    expect(formatEfficiency(85, 0)).toBe('–');
    expect(formatEfficiency(85, null)).toBe('–');
  });

  it('shows a measured efficiency with its unit', () => {
    expect(formatEfficiency(91.234)).toBe('91.234 %');
    expect(formatEfficiency(73.57, 1030.525)).toBe('73.57 %');
  });
});
