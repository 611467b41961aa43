import type { PriceChange } from './pricing.service.ts';

/** The pricing module's domain events. */
declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    /** A station's prices changed from a station-local date on (template, cycle or station configuration). */
    'price.changed': PriceChange;
  }
}
