// @vitest-environment node
import { join } from 'node:path';
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import { GUN_STATES, RUN_STATES } from '@ess/contract/telemetry';
import { describe, expect, it } from 'vitest';
import { chineseLiterals, REPO } from '../../test/i18n-coverage.ts';
import { readPack } from '../../test/packs.ts';
import { directionText } from './power-flow.ts';

/**
 * Every quoted literal with Chinese in it: in these screens and in what the site-monitoring calls
 * answer (series and node names, refusals), all of it is source text a person reads. Comments and
 * the route names (the interface list's own texts) are left out.
 */
function texts(): string[] {
  const screens = chineseLiterals(import.meta.dirname);
  const server = chineseLiterals(join(REPO, 'apps/server/src/modules/comprehensive'), (n) => n.endsWith('.routes.ts'));
  const contract = chineseLiterals(join(REPO, 'packages/contract/src'), (n) => n !== 'comprehensive.ts');
  const directions = (['forward', 'reverse', 'idle', 'unknown'] as const).map((direction) => directionText({ from: 'grid', to: 'bus', power: null, direction }));
  // States the charging and PV lists count (the thing model's enumerations).
  const states = [...GUN_STATES, ...RUN_STATES].map((s) => s.label);
  return [...new Set([...screens, ...server, ...contract, ...directions, ...states])];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the site-monitoring screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show and the calls answer', () => {
    const all = texts();
    expect(all.length).toBeGreaterThan(150);
    expect(all.filter((s) => !pack[s])).toEqual([]);
  });
});
