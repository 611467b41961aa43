import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEVICE_STATUS_LABELS } from '@ess/contract/device';
import { DEVICE_TYPE_LABELS, METER_PURPOSE_LABELS, THING_MODEL } from '@ess/contract/telemetry';
import { describe, expect, it } from 'vitest';
import { readPack } from '../../test/packs.ts';
import { controlsFor } from './controls.ts';
import { RANGE_PRESETS, INTERVAL_LABELS } from './HistoryPanel.tsx';

const REPO = join(import.meta.dirname, '../../../../..');
const literals = (src: string, re: RegExp) => [...src.matchAll(re)].map((m) => m[1]!).filter((s) => !s.includes('${'));

/** Source texts the monitoring screens pass to t(): calls with a literal, and the labels they declare. */
function screenTexts(): string[] {
  const dir = import.meta.dirname;
  const out = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => /\.tsx?$/.test(n) && !n.includes('.test.'))) {
    const src = readFileSync(join(dir, f), 'utf8');
    for (const s of literals(src, /\bt\('([^']+)'/g)) out.add(s);
    for (const s of literals(src, /title="([^"]+)"/g)) out.add(s);
    for (const s of literals(src, /(?:positive|negative)="([^"]+)"/g)) out.add(s);
    for (const s of literals(src, /<ChildrenPanel title="([^"]+)"/g)) out.add(s);
  }
  for (const type of Object.keys(THING_MODEL)) {
    for (const a of controlsFor({ type }, {})) {
      out.add(a.label);
      out.add(a.confirm);
      if (a.input) out.add(a.input.label);
    }
  }
  for (const p of RANGE_PRESETS) out.add(p.label);
  for (const v of Object.values(INTERVAL_LABELS)) out.add(v);
  return [...out];
}

/** What the devices report, as the server names it: properties, enumeration values, faults, types, states. */
function thingModelTexts(): string[] {
  const out = new Set<string>();
  for (const m of Object.values(THING_MODEL)) {
    out.add(m.label);
    for (const p of m.properties) {
      out.add(p.label);
      for (const e of p.enumValues ?? []) out.add(e.label);
    }
    for (const e of m.events) out.add(e.label);
  }
  for (const v of Object.values(DEVICE_TYPE_LABELS)) out.add(v);
  for (const v of Object.values(METER_PURPOSE_LABELS)) out.add(v);
  for (const v of Object.values(DEVICE_STATUS_LABELS)) out.add(v.label);
  // Meter register periods as the electric-meter detail labels them.
  for (const v of ['总', '尖', '峰', '平', '谷', '深谷']) out.add(v);
  return [...out];
}

/** Refusals of the monitoring calls these screens make (shown through the pack by the request layer). */
function serverTexts(): string[] {
  const dir = join(REPO, 'apps/server/src/modules/monitor');
  const out: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.includes('.test.'))) {
    out.push(...literals(readFileSync(join(dir, name), 'utf8'), /AppError\('\w+', '([^'`]+)'\)/g));
  }
  return out;
}

describe.each(['en-US', 'ar-EG'])('%s pack for the monitoring screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show', () => {
    const texts = screenTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });

  it('translates the thing model: properties, enumeration values, faults, device types and states', () => {
    const texts = thingModelTexts();
    expect(texts.length).toBeGreaterThan(250);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });

  it('translates the monitoring refusals', () => {
    const texts = serverTexts();
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
