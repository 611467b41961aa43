import type { FIRMWARE_EVENT_PAYLOADS } from '@ess/contract/firmware';
import type { z } from 'zod';

/**
 * Firmware's domain events (contract FIRMWARE_EVENTS, payloads FIRMWARE_EVENT_PAYLOADS): a package
 * added; a rollout started, paused (by a user or its error threshold), finished (or stopped); one
 * device's task ended (success or a failed state). Hooks may attach to each (decision 0041).
 */
type Payload<K extends keyof typeof FIRMWARE_EVENT_PAYLOADS> = z.output<(typeof FIRMWARE_EVENT_PAYLOADS)[K]>;
export type FirmwarePackageAddedPayload = Payload<'firmware.packageAdded'>;
export type FirmwareRolloutEventPayload = Payload<'firmware.rolloutStarted'>;
export type FirmwareTaskFinishedPayload = Payload<'firmware.taskFinished'>;

declare module '../../platform/events/outbox.ts' {
  interface DomainEvents {
    'firmware.packageAdded': FirmwarePackageAddedPayload;
    'firmware.rolloutStarted': FirmwareRolloutEventPayload;
    'firmware.rolloutPaused': FirmwareRolloutEventPayload;
    'firmware.rolloutFinished': FirmwareRolloutEventPayload;
    'firmware.taskFinished': FirmwareTaskFinishedPayload;
  }
}
