/** The site module's domain events. */
declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    /** A station was added, edited or deleted (its configuration; hooks and messaging subscribe later). */
    'site.changed': { siteId: number; companyId: number; change: 'added' | 'edited' | 'deleted' };
  }
}

export {};
