import type { AppContext } from '../../platform/context.ts';
import { addFileReferences } from '../files/index.ts';
import { createAutomaticRepairs } from './repair.service.ts';

/** How often open alarms are checked against the automatic-repair rules. */
export const AUTO_REPAIR_EVERY_MS = 60_000;

/**
 * The photos of defects, results and repairs are uploads the records keep (the files sweep must
 * not remove them), and alarms that stay open long enough get their repair order.
 */
export function registerOrderJobs(ctx: AppContext): void {
  addFileReferences(ctx, {
    name: 'maintenance.photos',
    referenced: async (c, suffixes) => {
      const { rows } = await c.database.sql.query<{ suffix: string }>(
        `select p->>'suffix' as suffix from inspection_defect d, jsonb_array_elements(d.photos) p where p->>'suffix' = any($1::text[])
         union select p->>'suffix' from inspection_work_order_item i, jsonb_array_elements(i.photos) p where p->>'suffix' = any($1::text[])
         union select p->>'suffix' from repair_order r, jsonb_array_elements(r.photos) p where p->>'suffix' = any($1::text[])
         union select p->>'suffix' from repair_order r, jsonb_array_elements(r.handle_photos) p where p->>'suffix' = any($1::text[])`,
        [suffixes],
      );
      return rows.map((r) => r.suffix);
    },
  });
  ctx.jobs.every(AUTO_REPAIR_EVERY_MS, async () => {
    const made = await createAutomaticRepairs(ctx);
    if (made) ctx.log.info({ made }, 'automatic repair orders from alarms');
  });
}
