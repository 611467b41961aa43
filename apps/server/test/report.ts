import { deviceTopic, type TelemetryValue } from '@ess/contract';
import { ingestOf } from '../src/modules/telemetry/index.ts';
import type { AppContext } from '../src/platform/context.ts';

/**
 * A device's reports handed to the app's ingest as its station's gateway publishes them (the
 * code's first four characters name the station), numbered in order. `ctx` is read at each
 * report: the app is started after the helper is made.
 */
export function reporter(ctx: () => AppContext) {
  let seq = 0;
  return (code: string, ts: number, values: Record<string, TelemetryValue>): void => {
    ingestOf(ctx())!.handle(deviceTopic(code.slice(0, 4), code, 'telemetry'), Buffer.from(JSON.stringify({ ts: Math.round(ts), seq: ++seq, values })), false);
  };
}
