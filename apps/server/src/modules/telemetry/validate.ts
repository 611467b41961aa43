import { telemetryPayloadSchema, type TelemetryPayload } from '@ess/contract';

const IDENTIFIER = /^[a-z][a-zA-Z0-9]*$/;

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isIndex = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/**
 * Accepts exactly what the contract's telemetryPayloadSchema accepts, without building zod's
 * copy of a 50-value record (three times the cost of the rest of the pipeline per message);
 * validate.test.ts checks the two agree. A payload this refuses goes to the schema itself for
 * the verdict and the message.
 */
export function parseTelemetry(body: unknown): { ok: true; data: TelemetryPayload } | { ok: false; error: string } {
  if (isPlainObject(body) && isIndex(body.ts) && isIndex(body.seq) && isPlainObject(body.values)) {
    const values = body.values;
    let fine = true;
    for (const k in values) {
      const v = values[k];
      if (k.length > 64 || !IDENTIFIER.test(k)) fine = false;
      else if (typeof v === 'number') fine = Number.isFinite(v);
      else if (typeof v === 'string') fine = v.length <= 256;
      else fine = typeof v === 'boolean';
      if (!fine) break;
    }
    if (fine) return { ok: true, data: { ts: body.ts, seq: body.seq, values: values as TelemetryPayload['values'] } };
  }
  const r = telemetryPayloadSchema.safeParse(body);
  if (r.success) return { ok: true, data: r.data };
  const issue = r.error.issues[0];
  return { ok: false, error: issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid telemetry' };
}
