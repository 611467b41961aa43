import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_PAYLOADS } from '@ess/contract/hooks';
import { STATEMENT_EVENTS } from '@ess/contract/statement';
import { PLAN_EVENTS, REPAIR_EVENTS, WORK_ORDER_EVENTS } from '@ess/contract/maintenance';
import { STRATEGY_EVENTS } from '@ess/contract/strategy';
import { eventCatalogue } from '../platform/events/catalogue.ts';
import { defineModule } from '../platform/module.ts';
import { modules } from './index.ts';

/**
 * The hooks' trigger catalogue is what the modules declare (decision 0041): every domain event a
 * module emits is declared by exactly one module, with the contract's payload schema — an event
 * added to a module without its declaration (or its contract schema) fails here.
 */
const NOT_HOOKABLE = new Set(['state.changed', 'outbox.dead']);

/** The event types the modules' sources emit by name (emit(tx, 'x', …)) or through the contract's event tables. */
function emittedTypes(): Set<string> {
  const out = new Set<string>([...Object.values(PLAN_EVENTS), ...Object.values(WORK_ORDER_EVENTS), ...Object.values(REPAIR_EVENTS), ...Object.values(STATEMENT_EVENTS), ...Object.values(STRATEGY_EVENTS)]);
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(/\bemit\(\s*\w+,\s*'([a-zA-Z]+\.[a-zA-Z]+)'/g)) out.add(m[1]!);
      }
    }
  };
  walk(import.meta.dirname);
  for (const t of NOT_HOOKABLE) out.delete(t);
  return out;
}

describe('event catalogue', () => {
  const declared = eventCatalogue(modules);

  it('declares each event the modules emit, once, with the contract’s payload and name', () => {
    const types = declared.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    const emitted = emittedTypes();
    expect(emitted.size).toBeGreaterThanOrEqual(30);
    expect([...emitted].filter((t) => !types.includes(t))).toEqual([]);
    expect([...types].sort()).toEqual(Object.keys(HOOK_EVENT_PAYLOADS).sort());
    for (const e of declared) {
      expect(e.payload, e.type).toBe(HOOK_EVENT_PAYLOADS[e.type as keyof typeof HOOK_EVENT_PAYLOADS]);
      expect(e.name.length, e.type).toBeGreaterThan(0);
    }
    expect(declared.find((e) => e.type === 'alarm.opened')?.module).toBe('alarm');
    expect(declared.find((e) => e.type === 'workorder.overdue')?.module).toBe('messaging');
  });

  it('refuses an event declared by two modules', () => {
    const twice = [defineModule({ name: 'a', events: declared.slice(0, 1) }), defineModule({ name: 'b', events: declared.slice(0, 1) })];
    expect(() => eventCatalogue(twice)).toThrow(/declared by both a and b/);
  });
});
