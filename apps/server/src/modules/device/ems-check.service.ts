import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { connectAsync } from 'mqtt';
import { commandReplySchema, deviceTopic, type CommandPayload, type EmsCheckResult } from '@ess/contract';
import { device } from '../../db/schema/device.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError } from '../../platform/http/errors.ts';
import { assertSites } from '../../platform/http/scope.ts';
import { selectDevices, statusExpr } from './device.repository.ts';

/** How long the EMS has to answer the probe. */
export const EMS_PROBE_TIMEOUT_MS = 3000;

/**
 * The EMS check (docs/decisions/0008-device-change.md): is the station's EMS — its gateway, the
 * root EMS device — answering? Its last-seen status comes from the registry; then a probe goes
 * to it over MQTT and we wait for the reply. The probe is a `setProperty` without values: the
 * contract makes it a no-op that a live device refuses with an error reply ("no values"), so
 * any reply with our requestId proves the command path both ways without changing anything.
 */
export async function checkEms(ctx: AppContext, user: AuthUser, siteId: number): Promise<EmsCheckResult> {
  await assertSites(ctx.db, user, [siteId]);
  const status = statusExpr(Date.now(), ctx.config.deviceOfflineTimeoutMs);
  const [ems] = await selectDevices(ctx.db, status)
    .where(and(eq(device.siteId, siteId), eq(device.type, 'ems')))
    .orderBy(sql`${device.parentId} is not null`, asc(device.id))
    .limit(1);
  if (!ems) throw new AppError('RULE_VIOLATION', '该站点没有EMS设备');
  const [s] = await ctx.db.select({ code: site.code }).from(site).where(eq(site.id, siteId));
  const base = { siteId, deviceId: ems.id, deviceCode: ems.code, status: ems.status, lastSeenAt: ems.lastSeenAt?.toISOString() ?? null };
  if (ems.disabled) return { ...base, answered: false, latencyMs: null, online: false, message: '设备已禁用' };
  const probe = await probeDevice(ctx, s!.code, ems.code, EMS_PROBE_TIMEOUT_MS);
  return {
    ...base,
    answered: probe.answered,
    latencyMs: probe.latencyMs,
    online: probe.answered,
    message: probe.answered ? 'EMS应答正常' : probe.reason,
  };
}

interface Probe {
  answered: boolean;
  latencyMs: number | null;
  reason: string;
}

async function probeDevice(ctx: AppContext, siteCode: string, deviceCode: string, timeoutMs: number): Promise<Probe> {
  if (!ctx.mqtt.url) return { answered: false, latencyMs: null, reason: '未配置MQTT服务' };
  let client;
  try {
    client = await connectAsync(ctx.mqtt.url, {
      clientId: `ess-check-${randomUUID()}`.slice(0, 64),
      username: ctx.config.mqttUsername,
      password: ctx.config.mqttPassword,
      connectTimeout: timeoutMs,
      reconnectPeriod: 0,
      clean: true,
    });
  } catch {
    return { answered: false, latencyMs: null, reason: 'MQTT服务连接失败' };
  }
  try {
    const requestId = randomUUID();
    const replyTopic = deviceTopic(siteCode, deviceCode, 'command/reply');
    const answered = new Promise<number>((resolve) => {
      client.on('message', (topic, payload) => {
        if (topic !== replyTopic) return;
        try {
          const r = commandReplySchema.safeParse(JSON.parse(payload.toString('utf8')));
          if (r.success && r.data.requestId === requestId) resolve(Date.now());
        } catch {
          // not a reply of ours
        }
      });
    });
    await client.subscribeAsync(replyTopic, { qos: 1 });
    const command: CommandPayload = { requestId, command: 'setProperty', params: { values: {} }, ts: Date.now() };
    const t0 = Date.now();
    await client.publishAsync(deviceTopic(siteCode, deviceCode, 'command'), JSON.stringify(command), { qos: 1 });
    let timer: NodeJS.Timeout | undefined;
    const at = await Promise.race([answered, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)))]);
    clearTimeout(timer);
    return at === null
      ? { answered: false, latencyMs: null, reason: `EMS在${timeoutMs / 1000}秒内未应答` }
      : { answered: true, latencyMs: at - t0, reason: '' };
  } finally {
    await client.endAsync(true).catch(() => undefined);
  }
}
