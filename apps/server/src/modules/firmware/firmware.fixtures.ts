import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { connect } from 'mqtt';
import { parseDeviceTopic } from '@ess/contract';
import { firmwarePackage, firmwareSetting } from '../../db/schema/firmware.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import { firmwareDir } from './setting.service.ts';

/**
 * Test fixtures of the rollout tests: a released package stored as the package side stores it
 * (the file under <dataDir>/firmware, its SHA-256), firmware settings for fast tests, and a
 * listener that counts the OTA commands the server publishes.
 */
export async function storedPackage(ctx: AppContext, o: { siteCode: string; deviceType: string; name: string; version: string; bytes?: number }) {
  const [s] = await ctx.db.select({ companyId: site.companyId }).from(site).where(eq(site.code, o.siteCode));
  const body = randomBytes(o.bytes ?? 4096);
  const storageKey = `${randomBytes(12).toString('hex')}.bin`;
  await mkdir(firmwareDir(ctx), { recursive: true });
  await writeFile(join(firmwareDir(ctx), storageKey), body);
  const [p] = await ctx.db
    .insert(firmwarePackage)
    .values({
      companyId: s!.companyId, deviceType: o.deviceType, name: o.name, version: o.version, fileName: `${o.name}-${o.version}.bin`, storageKey, size: body.length,
      sha256: createHash('sha256').update(body).digest('hex'), createdBy: 1,
    })
    .returning({ id: firmwarePackage.id, companyId: firmwarePackage.companyId });
  return p!;
}

export async function fastSettings(ctx: AppContext, o: Partial<typeof firmwareSetting.$inferInsert> = {}) {
  await ctx.db.update(firmwareSetting).set({ commandTimeoutSeconds: 5, downloadTimeoutMinutes: 2, flashTimeoutMinutes: 2, logTimeoutMinutes: 1, ...o }).where(eq(firmwareSetting.id, 1));
}

/** Counts the OTA commands published on the broker, by command and task. */
export async function commandTap(url: string) {
  const client = connect(url, { clientId: `tap-${randomBytes(4).toString('hex')}`, clean: true });
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  await client.subscribeAsync('ess/+/+/command', { qos: 1 });
  const seen: { command: string; device: string; requestId: string; params: Record<string, unknown> }[] = [];
  client.on('message', (topic, payload) => {
    const t = parseDeviceTopic(topic);
    if (t?.kind !== 'command') return;
    const body = JSON.parse(payload.toString()) as { command: string; requestId: string; params: Record<string, unknown> };
    seen.push({ command: body.command, device: t.deviceCode, requestId: body.requestId, params: body.params });
  });
  const of = (command: string, taskId?: number) => seen.filter((s) => s.command === command && (taskId === undefined || s.params.taskId === taskId));
  return {
    seen,
    /** The commands sent (each requestId once: QoS 1 may deliver one twice, which is not a second command). */
    count: (command: string, taskId?: number) => new Set(of(command, taskId).map((s) => s.requestId)).size,
    close: () => client.endAsync(true),
  };
}
