import { and, asc, count, eq, inArray, isNotNull } from 'drizzle-orm';
import { device, productEvent, productProperty } from '../../db/schema/device.ts';
import { iotConfig, iotDevice, iotEvent, iotProduct, iotProperty, iotRelateEvent, iotRelateProperty, iotSync } from '../../db/schema/iot.ts';
import { appUser, company } from '../../db/schema/system.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import type { SeedContext } from '../../platform/module.ts';
import { perApp } from '../../platform/module.ts';
import { secretBox } from '../../platform/secrets.ts';
import { IOT_PASSWORD, sessionOf } from './config.service.ts';
import { nudgeLive } from './live/live.service.ts';
import { relateAdd } from './relate.service.ts';
import { approve, syncFull } from './sync.service.ts';
import { serviceUser } from '../system/index.ts';

/**
 * The IoT demo (SEED_DEMO; decision 0055). Seed, once (no application yet): one ThingsBoard
 * application of the group company pointing at the platform the station simulator plays for
 * station BE01 when `npm start` runs it (127.0.0.1:8629; IOT_DEMO_PLATFORM_URL overrides), with
 * ThingsBoard's documented demo tenant (tenant@thingsboard.org / tenant), the password sealed
 * like every other. Then, once the demo plays the stations (demo/index.ts), its first sync: as the administrator, a full
 * sync planned and approved (the platform's devices are named by the console's device codes, so
 * the sync binds them), and product-level relations for every platform key that is a property
 * of the bound devices' console product and every alarm type that is one of its fault codes
 * (ACTIVE raises, CLEARED clears). Until the platform answers it tries again (5 s, doubling to a
 * minute); the console starts and runs without it. Once an applied sync exists it does nothing.
 */
export const DEMO_IOT_PLATFORM_URL = 'http://127.0.0.1:8629';
export const DEMO_IOT_NAME = '演示平台 · ThingsBoard（站点模拟器）';
export const DEMO_IOT_USER = 'tenant@thingsboard.org';
const DEMO_IOT_PASSWORD = 'tenant';
const RETRY_MIN_MS = 5000;
const RETRY_MAX_MS = 60_000;

/** ThingsBoard alarm state → the console fault (the live adapter's event data `state`). */
export const DEMO_ALARM_VALUE_MAP = [
  { platformValue: 'ACTIVE', status: 1, label: '告警', colour: '#f5222d' },
  { platformValue: 'CLEARED', status: 0, label: '已恢复', colour: '#52c41a' },
];

export async function seedIotDemo({ config, db }: Pick<SeedContext, 'config' | 'db'>): Promise<void> {
  if (!config.seedDemo) return;
  const [any] = await db.select({ id: iotConfig.id }).from(iotConfig).limit(1);
  if (any) return;
  const [group] = await db.select({ id: company.id }).from(company).orderBy(asc(company.id)).limit(1);
  if (!group) return;
  const [admin] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.username, 'admin'));
  await db.insert(iotConfig).values({
    companyId: group.id, name: DEMO_IOT_NAME, platform: 'thingsboard', baseUrl: process.env.IOT_DEMO_PLATFORM_URL ?? DEMO_IOT_PLATFORM_URL,
    username: DEMO_IOT_USER, passwordEnc: secretBox(config.secretKey).seal(DEMO_IOT_PASSWORD, IOT_PASSWORD), requireApproval: true, enabled: true,
    remark: 'npm start：站点模拟器在 8629 端口扮演 ThingsBoard，柏林站（BE01）的设备经它上报', createdBy: admin?.id ?? null,
  });
}

/** Relates, per platform product, what matches the bound devices' console product by identifier. */
async function relateDemo(ctx: AppContext, user: AuthUser, configId: number): Promise<number> {
  const { db } = ctx;
  let made = 0;
  for (const p of await db.select({ id: iotProduct.id }).from(iotProduct).where(eq(iotProduct.configId, configId))) {
    const bound = await db
      .selectDistinct({ productId: device.productId })
      .from(iotDevice)
      .innerJoin(device, eq(device.id, iotDevice.deviceId))
      .where(and(eq(iotDevice.iotProductId, p.id), isNotNull(iotDevice.deviceId)));
    if (bound.length !== 1) continue;
    const productId = bound[0]!.productId;
    const level = { iotProductId: p.id, iotDeviceId: null, productId, active: true, remark: '演示：按标识自动关联' };
    const props = await db.select({ id: iotProperty.id, identifier: iotProperty.identifier }).from(iotProperty).where(eq(iotProperty.iotProductId, p.id));
    const known = new Set((await db.select({ identifier: productProperty.identifier }).from(productProperty).where(eq(productProperty.productId, productId))).map((r) => r.identifier));
    const relatedProps = new Set((await db.select({ id: iotRelateProperty.iotPropertyId }).from(iotRelateProperty).where(eq(iotRelateProperty.iotProductId, p.id))).map((r) => r.id));
    for (const prop of props) {
      if (!known.has(prop.identifier) || relatedProps.has(prop.id)) continue;
      await relateAdd('property', ctx, user, { ...level, iotPropertyId: prop.id, identifier: prop.identifier, scale: 1, offset: 0, valueMap: [] });
      made++;
    }
    const events = await db.select({ id: iotEvent.id, identifier: iotEvent.identifier }).from(iotEvent).where(eq(iotEvent.iotProductId, p.id));
    const codes = events.length
      ? new Set((await db.select({ identifier: productEvent.identifier }).from(productEvent).where(and(eq(productEvent.productId, productId), inArray(productEvent.identifier, events.map((e) => e.identifier))))).map((r) => r.identifier))
      : new Set<string>();
    const relatedEvents = new Set((await db.select({ id: iotRelateEvent.iotEventId }).from(iotRelateEvent).where(eq(iotRelateEvent.iotProductId, p.id))).map((r) => r.id));
    for (const ev of events) {
      if (!codes.has(ev.identifier) || relatedEvents.has(ev.id)) continue;
      await relateAdd('event', ctx, user, { ...level, iotEventId: ev.id, identifier: ev.identifier, valueMap: DEMO_ALARM_VALUE_MAP });
      made++;
    }
  }
  return made;
}

/**
 * One attempt at the demo's first sync: done (true) when the demo application is gone, disabled
 * or synced already, or once this sync and its relations are made; throws when the platform does
 * not answer (the caller tries again; nothing is recorded then).
 */
export async function firstDemoSync(ctx: AppContext): Promise<boolean> {
  const [c] = await ctx.db.select({ id: iotConfig.id, enabled: iotConfig.enabled }).from(iotConfig).where(and(eq(iotConfig.name, DEMO_IOT_NAME), eq(iotConfig.username, DEMO_IOT_USER)));
  if (!c?.enabled) return true;
  const [applied] = await ctx.db.select({ n: count() }).from(iotSync).where(and(eq(iotSync.configId, c.id), eq(iotSync.state, 'applied')));
  if ((applied?.n ?? 0) > 0) return true;
  const user = await serviceUser(ctx, { username: 'admin' });
  if (!user) return true;
  // Signed in first: while the platform does not answer, no failed run is recorded at each try.
  const [stored] = await ctx.db.select().from(iotConfig).where(eq(iotConfig.id, c.id));
  await (await sessionOf(ctx, stored!)).whoami();
  const run = await syncFull(ctx, user, c.id);
  if (run.state === 'planned') await approve(ctx, user, run.id);
  const made = await relateDemo(ctx, user, c.id);
  await nudgeLive(ctx);
  ctx.log.info({ configId: c.id, devices: run.added, relations: made }, 'iot demo: first sync applied and related');
  return true;
}

const tasks = perApp<{ stop: () => Promise<void> }>('iot demo sync');

/** Runs firstDemoSync in the background until it is done (SEED_DEMO only; stopped with the iot module). */
export function startIotDemo(ctx: AppContext): void {
  if (!ctx.config.seedDemo) return;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let waitMs = RETRY_MIN_MS;
  let told = false;
  const later = (ms: number) => {
    timer = setTimeout(attempt, ms);
    timer.unref();
  };
  const attempt = () => {
    timer = null;
    if (stopped) return;
    running = firstDemoSync(ctx).then(
      () => undefined,
      (err: unknown) => {
        if (stopped) return;
        // Said once: the demo platform is the simulator's (npm start); without it the console runs as ever.
        if (!told) ctx.log.info({ reason: (err as Error).message }, 'iot demo: the demo platform does not answer yet; trying again');
        told = true;
        later(waitMs);
        waitMs = Math.min(waitMs * 2, RETRY_MAX_MS);
      },
    );
  };
  tasks.set(ctx, {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  });
  later(1000);
}

export async function stopIotDemo(ctx: AppContext): Promise<void> {
  await tasks.get(ctx)?.stop();
  tasks.delete(ctx);
}
