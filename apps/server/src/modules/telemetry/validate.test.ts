import { describe, expect, it } from 'vitest';
import { telemetryPayloadSchema, THING_MODEL } from '@ess/contract';
import { parseTelemetry } from './validate.ts';

const good = { ts: 1_749_517_205_000, seq: 42, values: { activePower: 198.73, state: 2, onOff: true, position: '2-7-12' } };

const cases: unknown[] = [
  good,
  { ...good, extra: 'ignored' },
  { ...good, values: {} },
  { ...good, values: Object.fromEntries(THING_MODEL.batteryPack.properties.map((p, i) => [p.identifier, i * 1.5])) },
  null, 1, 'x', [], [good],
  { ...good, ts: -1 }, { ...good, ts: 1.5 }, { ...good, ts: '1' }, { ...good, ts: 2 ** 60 }, { ...good, seq: undefined }, { ...good, seq: -3 },
  { ...good, values: null }, { ...good, values: [] }, { ...good, values: [1, 2] },
  { ...good, values: { Bad: 1 } }, { ...good, values: { 'a-b': 1 } }, { ...good, values: { a: null } }, { ...good, values: { a: {} } },
  { ...good, values: { a: [1] } }, { ...good, values: { a: 'x'.repeat(257) } }, { ...good, values: { a: 'x'.repeat(256) } },
  { ...good, values: { ['a'.repeat(65)]: 1 } }, { ...good, values: { ['a'.repeat(64)]: 1 } }, { ...good, values: { a1: 1, b: false } },
  { ...good, values: { __proto__: 1 } }, JSON.parse('{"ts":1,"seq":1,"values":{"__proto__":1}}'), { ts: 0, seq: 0, values: { x: 0 } },
];

describe('fast telemetry validation', () => {
  it('accepts and refuses exactly what the contract schema does', () => {
    for (const c of cases) {
      const mine = parseTelemetry(c);
      const schema = telemetryPayloadSchema.safeParse(c);
      expect({ c, ok: mine.ok }).toEqual({ c, ok: schema.success });
      if (mine.ok && schema.success) expect(mine.data).toEqual(schema.data);
    }
  });

  it('agrees on random payloads', () => {
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const keys = ['soc', 'voltageA', 'X', '1a', 'a_b', 'ok', 'cellVoltage16', ''];
    const vals: unknown[] = [1, -2.5, 0, 'x', '', true, false, null, [], {}, 'y'.repeat(300)];
    for (let i = 0; i < 2000; i++) {
      const values: Record<string, unknown> = {};
      for (let k = 0; k < 1 + (i % 5); k++) values[pick(keys)] = pick(vals);
      const c = { ts: pick([0, 5, -1, 1.1, 'a']), seq: pick([0, 7, -2]), values };
      expect(parseTelemetry(c).ok).toBe(telemetryPayloadSchema.safeParse(c).success);
    }
  });
});
