import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { CommandReply } from '@ess/contract';
import { IOT_ERRORS, type IotValueMap } from '@ess/contract/iot';
import { device } from '../../../db/schema/device.ts';
import { iotCommand, iotConfig, iotDevice, iotParam, iotProduct, iotRelateCommand, iotRelateParam } from '../../../db/schema/iot.ts';
import type { AppContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/http/errors.ts';
import { sessionOf } from '../config.service.ts';

/** How a command sent through a platform ended, as the monitor module's channel reports it for MQTT. */
export type PlatformCommandOutcome =
  | { kind: 'reply'; reply: CommandReply; durationMs: number }
  | { kind: 'timeout'; durationMs: number };

/** A console parameter's value as the platform's input: the value map backwards (status → platform value), else value × scale + offset. */
function toPlatform(rule: { scale: number; offset: number; valueMap: IotValueMap }, v: unknown): unknown {
  const hit = rule.valueMap.find((e) => e.status === v || (typeof v === 'boolean' && e.status === (v ? 1 : 0)));
  if (hit) return hit.platformValue;
  return typeof v === 'number' ? Math.round((v * rule.scale + rule.offset) * 1e9) / 1e9 : v;
}

/**
 * A remote-control command for a console device fed by an IoT platform (decision 0051): null when
 * the device is not bound to a device of an enabled application (the command goes over MQTT).
 * Else the command relation (the device's own, else its product's) names the platform's
 * function and its parameter relations map the console's request parameters to the platform's
 * inputs; ThingsBoard, which declares no RPC methods, takes an unrelated command as an RPC of
 * the same name with the console's parameters. The device's answer or the platform's timeout
 * comes back as a reply would over MQTT. Throws when the platform cannot be reached.
 */
export async function platformCommand(
  ctx: AppContext, deviceId: number, command: string, params: Record<string, unknown>, timeoutMs: number,
): Promise<{ requestId: string; outcome: PlatformCommandOutcome } | null> {
  const [d] = await ctx.db
    .select({ id: iotDevice.id, externalId: iotDevice.externalId, iotProductId: iotDevice.iotProductId, configId: iotDevice.configId, productExternalId: iotProduct.externalId, productId: device.productId })
    .from(iotDevice)
    .innerJoin(iotConfig, eq(iotConfig.id, iotDevice.configId))
    .innerJoin(iotProduct, eq(iotProduct.id, iotDevice.iotProductId))
    .innerJoin(device, eq(device.id, iotDevice.deviceId))
    .where(and(eq(iotDevice.deviceId, deviceId), eq(iotConfig.enabled, true)))
    .orderBy(desc(iotDevice.id))
    .limit(1);
  if (!d) return null;
  const [config] = await ctx.db.select().from(iotConfig).where(eq(iotConfig.id, d.configId));
  if (!config) return null;
  const [relation] = await ctx.db
    .select({ id: iotRelateCommand.id, method: iotCommand.identifier })
    .from(iotRelateCommand)
    .innerJoin(iotCommand, eq(iotCommand.id, iotRelateCommand.iotCommandId))
    .where(and(
      eq(iotRelateCommand.iotProductId, d.iotProductId), eq(iotRelateCommand.productId, d.productId), eq(iotRelateCommand.identifier, command), eq(iotRelateCommand.active, true),
      or(isNull(iotRelateCommand.iotDeviceId), eq(iotRelateCommand.iotDeviceId, d.id)),
    ))
    .orderBy(sql`${iotRelateCommand.iotDeviceId} is null`)
    .limit(1);
  let method = command;
  let input: Record<string, unknown> = params;
  if (relation) {
    method = relation.method;
    input = {};
    const rules = await ctx.db
      .select({ input: iotParam.identifier, identifier: iotRelateParam.identifier, scale: iotRelateParam.scale, offset: iotRelateParam.offset, valueMap: iotRelateParam.valueMap })
      .from(iotRelateParam)
      .innerJoin(iotParam, eq(iotParam.id, iotRelateParam.iotParamId))
      .where(eq(iotRelateParam.relateCommandId, relation.id));
    for (const r of rules) if (params[r.identifier] !== undefined) input[r.input] = toPlatform(r, params[r.identifier]);
  } else if (config.platform !== 'thingsboard') {
    throw new AppError('RULE_VIOLATION', IOT_ERRORS.commandNotRelated);
  }
  const session = await sessionOf(ctx, config);
  const requestId = randomUUID();
  const t0 = Date.now();
  const answer = await session.invoke({ externalId: d.externalId, productExternalId: d.productExternalId }, method, input, timeoutMs);
  const durationMs = Date.now() - t0;
  if (answer.kind === 'timeout') return { requestId, outcome: { kind: 'timeout', durationMs } };
  const reply: CommandReply = answer.ok ? { requestId, ok: true, result: answer.result } : { requestId, ok: false, error: answer.error.slice(0, 500) };
  return { requestId, outcome: { kind: 'reply', reply, durationMs } };
}
