// @vitest-environment node
import { DEVICE_STATUS_LABELS } from '@ess/contract/device';
import { DEVICE_TYPE_LABELS, METER_PURPOSE_LABELS, THING_MODEL } from '@ess/contract/telemetry';
import { describe, expect, it } from 'vitest';
import { APP_ERROR, CONST_TEXT, isSource, screenTexts, serverTexts, T_CALL } from '../../test/i18n-coverage.ts';
import { readPack } from '../../test/packs.ts';
import { controlsFor } from './controls.ts';
import { RANGE_PRESETS, INTERVAL_LABELS } from './HistoryPanel.tsx';
import { DIRECTION_LABELS, STORAGE_MODE_LABELS } from './storage.ts';

/** Source texts the monitoring screens pass to t(): calls with a literal, and the labels they declare. */
function monitorScreenTexts(): string[] {
  const out = new Set(screenTexts(import.meta.dirname, [
    T_CALL, /title="([^"]+)"/g, /(?:positive|negative)="([^"]+)"/g, /<ChildrenPanel title="([^"]+)"/g,
  ]));
  for (const type of Object.keys(THING_MODEL)) {
    for (const a of controlsFor({ type }, {})) {
      out.add(a.label);
      out.add(a.confirm);
      if (a.input) out.add(a.input.label);
    }
  }
  for (const p of RANGE_PRESETS) out.add(p.label);
  for (const v of [...Object.values(STORAGE_MODE_LABELS), ...Object.values(DIRECTION_LABELS)]) out.add(v);
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
function refusalTexts(): string[] {
  // Storage control keeps its refusals in named constants (storage.service.ts).
  return serverTexts('monitor', { files: isSource, patterns: [APP_ERROR, CONST_TEXT] });
}

describe.each(['en-US', 'ar-EG'])('%s pack for the monitoring screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show', () => {
    const texts = monitorScreenTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });

  it('translates the thing model: properties, enumeration values, faults, device types and states', () => {
    const texts = thingModelTexts();
    expect(texts.length).toBeGreaterThan(250);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });

  it('translates the monitoring refusals', () => {
    const texts = refusalTexts();
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
  });
});
