import type { IotDataType, IotDeviceState, IotPlatform } from '@ess/contract/iot';

/**
 * The one interface every IoT platform adapter implements (decision 0048): sign in with the
 * application's credentials, then read the platform's products (with their properties, events,
 * commands and parameters) and devices, normalised. A new platform is a new file beside these.
 */
export interface PlatformCredentials {
  baseUrl: string;
  username: string;
  password: string;
  timeoutMs: number;
}

export interface PlatformParam {
  identifier: string;
  name: string;
  dataType: IotDataType;
  unit: string | null;
}
export interface PlatformProperty extends PlatformParam {
  /** timeseries or attribute (ThingsBoard), metadata (JetLinks). */
  source: string;
}
export interface PlatformEvent {
  identifier: string;
  name: string;
  level: string | null;
  fields: PlatformParam[];
}
export interface PlatformCommand {
  identifier: string;
  name: string;
  async: boolean;
  inputs: PlatformParam[];
  outputs: PlatformParam[];
}
export interface PlatformProduct {
  externalId: string;
  name: string;
  description: string | null;
  properties: PlatformProperty[];
  events: PlatformEvent[];
  commands: PlatformCommand[];
}
export interface PlatformDevice {
  externalId: string;
  name: string;
  productExternalId: string;
  state: IotDeviceState;
}

/** A signed-in session with a platform. */
export interface PlatformSession {
  /** Who the platform says we are (the connection test's proof). */
  whoami(): Promise<string>;
  products(): Promise<PlatformProduct[]>;
  /** One product; null when the platform does not know it. */
  product(externalId: string): Promise<PlatformProduct | null>;
  devices(): Promise<PlatformDevice[]>;
  device(externalId: string): Promise<PlatformDevice | null>;
  /**
   * Opens the platform's live message stream for these devices (ThingsBoard's WebSocket
   * telemetry subscription, JetLinks' WebSocket messaging): resolves once the socket is open and
   * the subscriptions are sent; rejects when it cannot open. `sink` hears what arrives.
   */
  subscribe(devices: readonly LiveTarget[], sink: LiveSink): Promise<LiveStream>;
  /** Sends a command to a device and waits for its answer (RPC two-way, function invoke). */
  invoke(target: LiveTarget, method: string, params: Record<string, unknown>, timeoutMs: number): Promise<InvokeOutcome>;
}

/** A platform device the live stream is for. */
export interface LiveTarget {
  externalId: string;
  productExternalId: string;
}

/** What a live stream hears, normalised: values by platform key, events, connectivity. */
export interface LiveSink {
  /** Telemetry of one device: key → [ts, value] pairs (a key may carry several points). */
  telemetry(deviceExternalId: string, points: { key: string; ts: number; value: unknown }[]): void;
  event(deviceExternalId: string, eventId: string, ts: number, data: unknown): void;
  connectivity(deviceExternalId: string, online: boolean, ts: number): void;
}

export interface LiveStream {
  /** Resolves when the socket closes, with why (the subscriber reconnects). */
  closed: Promise<string>;
  close(): void;
}

export type InvokeOutcome =
  | { kind: 'answer'; ok: true; result: Record<string, unknown> }
  | { kind: 'answer'; ok: false; error: string }
  | { kind: 'timeout' };

export interface PlatformAdapter {
  platform: IotPlatform;
  login(credentials: PlatformCredentials): Promise<PlatformSession>;
}

/**
 * A platform call that failed: `unreachable` (network, timeout), `auth` (credentials refused),
 * `notFound`, or `protocol` (an answer the documented API does not give). The message is the
 * platform's own words where it gave any, never the password.
 */
export class PlatformError extends Error {
  constructor(readonly kind: 'unreachable' | 'auth' | 'notFound' | 'protocol', message: string) {
    super(message);
  }
}

/** At most this many pages of one list (a runaway pagination stops here). */
export const MAX_PAGES = 1000;
export const PAGE_SIZE = 100;
