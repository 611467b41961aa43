import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../modules/index.ts';

interface CatalogueEntry {
  method: 'GET' | 'POST';
  path: string;
  area: string;
}

/** The contract's call list (shared/spec/endpoints.json, beside the project). */
const catalogue = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../../../../shared/spec/endpoints.json'), 'utf8'),
) as CatalogueEntry[];

/** Areas of the catalogue that are served whole; an area joins this list when its last call lands. */
const COMPLETE_AREAS = [
  'System administration', 'Device monitoring', 'Configuration', 'Pricing', 'Alarms', 'Site monitoring (comprehensive)', 'Home page', 'Overview (energy arbitrage)', 'Repair', 'Inspection', 'Meters', 'Demand', 'Statements', 'IoT', 'Translation',
];

describe('the catalogue', () => {
  const served = new Map(allRoutes.map((r) => [r.path, r.method]));

  it.each(COMPLETE_AREAS)('serves every call of %s', (area) => {
    const calls = catalogue.filter((e) => e.area === area);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((e) => !served.has(e.path)).map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });

  it('serves each catalogue call it has with the catalogue method', () => {
    const wrong = catalogue.filter((e) => served.has(e.path) && served.get(e.path) !== e.method);
    expect(wrong.map((e) => `${e.path}: ${served.get(e.path)} instead of ${e.method}`)).toEqual([]);
  });

  it('registers each path once', () => {
    expect(allRoutes.length).toBe(served.size);
  });
});
