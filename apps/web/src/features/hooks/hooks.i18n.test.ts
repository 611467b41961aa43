// @vitest-environment node
import { DEFAULT_LOCALE, LOCALES } from '@ess/contract/constants';
import {
  HOOK_BACKOFF_RANGE, HOOK_CIRCUIT_STATE_LABELS, HOOK_EVENT_LABELS, HOOK_HEADERS_TOO_LARGE, HOOK_PARAM_KIND_LABELS, HOOK_RECORD_ORIGIN_LABELS,
  HOOK_RECORD_STATE_LABELS, HOOK_RETRIES_RANGE, HOOK_SCRIPT_ERROR, HOOK_TIMEOUT_RANGE, HOOK_TRIGGER_STATUS_LABELS,
} from '@ess/contract/hooks';
import { describe, expect, it } from 'vitest';
import { chineseLiterals, contractTexts, resourceTexts, screenTexts } from '../../test/i18n-coverage.ts';
import { packGaps, readPack } from '../../test/packs.ts';
import { paramResource } from './param.resource.tsx';
import { recordResource } from './record.resource.tsx';
import { hookResource } from './relate.resource.tsx';
import { triggerResource } from './trigger.resource.tsx';

/**
 * Every source text the hook screens show: t() literals and the other Chinese literals of the
 * folder (labels in tables of their own), the resources' declarations, the contract's labels,
 * payload field descriptions and rules (also the messages it builds from its limits).
 */
export function hookScreenTexts(): string[] {
  return [...new Set([
    ...screenTexts(import.meta.dirname),
    ...chineseLiterals(import.meta.dirname),
    ...resourceTexts([triggerResource, hookResource, paramResource, recordResource]),
    ...[HOOK_EVENT_LABELS, HOOK_TRIGGER_STATUS_LABELS, HOOK_CIRCUIT_STATE_LABELS, HOOK_RECORD_STATE_LABELS, HOOK_RECORD_ORIGIN_LABELS, HOOK_PARAM_KIND_LABELS]
      .flatMap<string>((labels) => Object.values(labels)),
    HOOK_SCRIPT_ERROR, HOOK_HEADERS_TOO_LARGE, HOOK_TIMEOUT_RANGE, HOOK_RETRIES_RANGE, HOOK_BACKOFF_RANGE,
    ...contractTexts('hooks.ts'),
  ])];
}

/** zh-CN is the source text; every other shipped locale translates every text of the screens. */
describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for the hook screens', (locale) => {
  const pack = readPack(locale);

  it('translates every text the screens show, keeping the placeholders', () => {
    const texts = hookScreenTexts();
    expect(texts.length).toBeGreaterThan(150);
    expect(packGaps(pack, texts)).toEqual({ missing: [], placeholders: [] });
  });
});
