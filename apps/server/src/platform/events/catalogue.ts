import { HOOK_EVENT_LABELS, HOOK_EVENT_PAYLOADS, type HookEventType } from '@ess/contract/hooks';
import type { z } from 'zod';
import type { ModuleEvent, ServerModule } from '../module.ts';
import type { DomainEvents } from './outbox.ts';

/**
 * The domain events hooks may attach to (decision 0041): each module declares the events it
 * emits in its manifest (`events: declareEvents('alarm.opened', …)`), with the payload schema and
 * name the contract gives them (packages/contract/src/hooks.ts); the application collects them
 * (`ctx.events`), and the hooks module's scan merges them into its stored catalogue.
 */

/** A declared event, with the module that declares it. */
export interface CatalogueEvent extends ModuleEvent {
  module: string;
}

/** A type the outbox knows (DomainEvents) and the contract describes (HOOK_EVENT_PAYLOADS). */
export type HookableEvent = HookEventType & keyof DomainEvents;

/**
 * Compile-time check: each contract payload schema accepts what the outbox's type says a module
 * emits (tsc names the event whose payload drifted from its schema).
 */
type Drift = { [K in HookableEvent]: DomainEvents[K] extends z.input<(typeof HOOK_EVENT_PAYLOADS)[K]> ? never : K }[HookableEvent];
const payloadsMatch: [Drift] extends [never] ? true : Drift = true;
void payloadsMatch;

/** The manifest's `events`: these types with the contract's names and payload schemas. */
export function declareEvents(...types: HookableEvent[]): ModuleEvent[] {
  return types.map((type) => ({ type, name: HOOK_EVENT_LABELS[type], payload: HOOK_EVENT_PAYLOADS[type] }));
}

/** Every module's declared events; an event declared twice is a programming error. */
export function eventCatalogue(modules: readonly ServerModule[]): CatalogueEvent[] {
  const seen = new Map<string, string>();
  const out: CatalogueEvent[] = [];
  for (const m of modules) {
    for (const e of m.events ?? []) {
      const other = seen.get(e.type);
      if (other) throw new Error(`domain event ${e.type} is declared by both ${other} and ${m.name}`);
      seen.set(e.type, m.name);
      out.push({ ...e, module: m.name });
    }
  }
  return out;
}
