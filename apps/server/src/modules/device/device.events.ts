/** The device module's domain events. */
declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    /** A device began reporting again, or for the first time (hooks and messaging subscribe later). */
    'device.online': DevicePresenceChange;
    /** A device stopped reporting past its timeout, or its station's gateway went away. */
    'device.offline': DevicePresenceChange;
  }
}

export interface DevicePresenceChange {
  deviceId: number;
  code: string;
  siteId: number;
  /** When the sweep saw the change (ISO 8601). */
  at: string;
}
