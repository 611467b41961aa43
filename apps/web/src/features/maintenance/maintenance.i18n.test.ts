// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import {
  CHECK_TYPE_LABELS, COUNT_FROM_LABELS, DEFECT_STATE_LABELS, ITEM_RESULT_LABELS, MAINT_LEVEL_LABELS, PLAN_ACTION_LABELS, PLAN_STATE_LABELS,
  REPAIR_ACTION_LABELS, REPAIR_SOURCE_LABELS, REPAIR_STATE_LABELS, SCHEDULE_KIND_LABELS, SOURCE_ACTION_LABELS, WEEKDAY_LABELS,
  WORK_ORDER_ACTION_LABELS, WORK_ORDER_ORIGIN_LABELS, WORK_ORDER_STATE_LABELS,
} from '@ess/contract/maintenance';
import { pluralForms } from '@ess/contract/pack-text';
import { describe, expect, it } from 'vitest';
import { contractTexts, resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { readPack } from '../../test/packs.ts';
import { defectResource } from './defect.resource.tsx';
import { ITEM_TARGET_OPTIONS, itemResource } from './item.resource.tsx';
import { BOOLEAN_OVERDUE } from './maintenance.options.ts';
import { orderResource } from './order.resource.tsx';
import { planResource } from './plan.resource.tsx';
import { repairResource } from './repair.resource.tsx';

/** Every source text the maintenance screens show: t() literals, resource declarations, the contract's labels and rules. */
export function maintenanceScreenTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...resourceTexts([itemResource, planResource, orderResource, defectResource, repairResource], [...ITEM_TARGET_OPTIONS, ...BOOLEAN_OVERDUE]),
    ...[
      CHECK_TYPE_LABELS, COUNT_FROM_LABELS, DEFECT_STATE_LABELS, ITEM_RESULT_LABELS, MAINT_LEVEL_LABELS, PLAN_ACTION_LABELS, PLAN_STATE_LABELS,
      REPAIR_ACTION_LABELS, REPAIR_SOURCE_LABELS, REPAIR_STATE_LABELS, SCHEDULE_KIND_LABELS, SOURCE_ACTION_LABELS, WORK_ORDER_ACTION_LABELS,
      WORK_ORDER_ORIGIN_LABELS, WORK_ORDER_STATE_LABELS,
    ].flatMap<string>((labels) => Object.values(labels)),
    ...WEEKDAY_LABELS,
    // The contract's rules the forms check before sending (zod messages, refusals named in the contract).
    ...contractTexts('maintenance.ts'),
  ])];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the maintenance screens', (locale) => {
  const pack = readPack(locale);
  const placeholders = (s: string) => ((pluralForms(s)?.other ?? s).match(/\$\d+/g) ?? []).sort().join();

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = maintenanceScreenTexts();
    expect(texts.length).toBeGreaterThan(200);
    expect(texts.filter((s) => !pack[s])).toEqual([]);
    expect(texts.filter((s) => placeholders(pack[s] ?? '') !== placeholders(s))).toEqual([]);
  });
});
