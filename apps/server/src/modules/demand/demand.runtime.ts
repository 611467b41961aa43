import { DEMAND_GUARD_COMMAND, demandGuardResult, type DemandGuardParams } from '@ess/contract/demand';
import type { AppContext } from '../../platform/context.ts';
import { perApp } from '../../platform/module.ts';
import { alarmEngineOf } from '../alarm/index.ts';
import { commandChannel } from '../monitor/index.ts';
import { addIngestRules, deviceRegistryOf } from '../telemetry/index.ts';
import { DemandSink, type GuardSender } from './demand.sink.ts';

/** The demand sink of an instance with the ingest role. */
const sinks = perApp<DemandSink>('demand sink');

/** This instance's demand sink (null without the ingest role): the live window, replays of past reports, reloads after a target changes. */
export const demandSinkOf = (ctx: AppContext): DemandSink | undefined => sinks.get(ctx);

/**
 * Sends demandGuard to a station's EMS over the command channel and waits for its reply
 * (COMMAND_TIMEOUT_MS): ok with the kW granted, refused, timeout, or failed (no broker, no EMS).
 */
export function guardSender(ctx: AppContext): GuardSender {
  return async (siteCode, deviceCode, params: DemandGuardParams) => {
    const ch = commandChannel(ctx);
    if (!ch || !deviceRegistryOf(ctx).byCode.has(deviceCode)) return { requestId: null, status: 'failed', grantedKw: null };
    const { requestId, outcome } = await ch.send(siteCode, deviceCode, DEMAND_GUARD_COMMAND, params, ctx.config.commandTimeoutMs);
    if (outcome.kind === 'timeout') return { requestId, status: 'timeout', grantedKw: null };
    if (!outcome.reply.ok) return { requestId, status: 'refused', grantedKw: null };
    const r = demandGuardResult.safeParse(outcome.reply.result);
    return { requestId, status: 'ok', grantedKw: r.success ? r.data.dischargeKw : null };
  };
}

/** Builds the sink and adds it to the ingest's rule sinks (after the alarm engine, before the telemetry module starts). */
export function startDemandSink(ctx: AppContext): void {
  if (!ctx.config.roles.has('ingest')) return;
  const sink = new DemandSink(ctx.database, deviceRegistryOf(ctx), ctx.log.child({ part: 'demand' }), () => alarmEngineOf(ctx), guardSender(ctx));
  sinks.set(ctx, sink);
  addIngestRules(ctx, sink);
}
