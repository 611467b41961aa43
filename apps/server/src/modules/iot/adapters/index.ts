import type { IotPlatform } from '@ess/contract/iot';
import { jetlinksAdapter } from './jetlinks.ts';
import { thingsboardAdapter } from './thingsboard.ts';
import type { PlatformAdapter } from './types.ts';

/** The adapter of each platform type (a new platform: a file here and its line below). */
export const ADAPTERS: Record<IotPlatform, PlatformAdapter> = { thingsboard: thingsboardAdapter, jetlinks: jetlinksAdapter };
export {
  PlatformError, type InvokeOutcome, type LiveSink, type LiveStream, type LiveTarget, type PlatformCredentials, type PlatformDevice, type PlatformParam, type PlatformProduct, type PlatformSession,
} from './types.ts';
