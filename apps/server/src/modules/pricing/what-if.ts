import { eq } from 'drizzle-orm';
import { priceCycle } from '../../db/schema/pricing.ts';
import { site } from '../../db/schema/site.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/http/auth.ts';
import { AppError, found } from '../../platform/http/errors.ts';
import { toCycleRecord } from './pricing.records.ts';
import { resolveTariffs, type DayTariff } from './tariff.ts';
import { templateInScope } from './template.service.ts';

/**
 * What-if prices (issue 18 item 9): a station's days priced by a template the caller may see, as
 * if its configuration named that template for the whole range (no service fee, no feed-in: the
 * caller keeps or overrides the station's own). Nothing is saved.
 */
export async function templateTariffs(
  ctx: AppContext,
  user: AuthUser,
  siteId: number,
  templateId: number,
  from: string,
  to: string,
): Promise<{ template: { id: number; name: string }; days: DayTariff[] }> {
  const t = await templateInScope(ctx.db, user, templateId);
  const [s] = await ctx.db.select({ timeZone: site.timeZone, currency: site.currency }).from(site).where(eq(site.id, siteId));
  const station = found(s, '站点不存在');
  if (t.currency !== station.currency) throw new AppError('RULE_VIOLATION', '电价模板币种与站点币种不一致');
  const cycles = (await ctx.db.select().from(priceCycle).where(eq(priceCycle.templateId, t.id))).map(toCycleRecord);
  const days = resolveTariffs(
    {
      timeZone: station.timeZone,
      currency: station.currency,
      configs: [{ id: 0, startDate: from, endDate: to, serviceFee: null, template: { id: t.id, name: t.name, billingSystem: t.billingSystem, currency: t.currency, cycles } }],
      solar: [],
    },
    from,
    to,
  );
  return { template: { id: t.id, name: t.name }, days };
}
