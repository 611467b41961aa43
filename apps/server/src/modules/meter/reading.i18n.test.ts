import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { literals, serverPack } from '../../../test/packs.ts';
import {
  DEFAULT_LOCALE, LOCALES, QUALITY_FLAG_LABELS, READING_SUBSYSTEMS, READING_SUBSYSTEM_LABELS, REMETER_ACCEPTED, REMETER_HINT, REMETER_OCCUPIED,
  REMETER_STATE_LABELS, TIMING_KIND_LABELS,
} from '@ess/contract';
import { SOURCE_LANGUAGE } from '../../platform/xlsx/xlsx.ts';
import { periodColumns, timingColumns, zeroColumns } from './reading.routes.ts';
import { DEFAULT_TIMING_NAME } from './timing-reading.service.ts';

const FILES = ['zero-reading.service.ts', 'timing-reading.service.ts', 'period-reading.service.ts', 'period-energy.ts', 'reading.routes.ts'];

const pack = serverPack;

/** What the readings can show: refusals, export headers, sheet and file names, labels, the re-meter messages. */
function readingTexts(): string[] {
  const out = new Set<string>([
    REMETER_ACCEPTED, REMETER_OCCUPIED, REMETER_HINT, DEFAULT_TIMING_NAME, '日期范围过长：最多366天',
    ...Object.values(QUALITY_FLAG_LABELS), ...Object.values(TIMING_KIND_LABELS), ...Object.values(REMETER_STATE_LABELS),
    ...[...zeroColumns(), ...timingColumns(), ...periodColumns()].map((c) => c.header),
    '零点数据', '零点数据-$1', '定时抄表', '定时抄表-$1',
    ...READING_SUBSYSTEMS.flatMap((s) => [`${READING_SUBSYSTEM_LABELS[s]}抄表`, `${READING_SUBSYSTEM_LABELS[s]}抄表-$1`]),
  ]);
  for (const name of FILES) {
    const src = readFileSync(join(import.meta.dirname, name), 'utf8');
    for (const s of literals(src, /AppError\('\w+', '([^'`]+)'\)/g)) out.add(s);
    for (const s of literals(src, /error: '([^']+)'/g)) out.add(s);
  }
  return [...out];
}

describe.each(LOCALES.filter((l) => l !== DEFAULT_LOCALE))('%s pack for meter readings', (locale) => {
  it('translates the refusals, export headers, file names, labels and messages', () => {
    const texts = readingTexts();
    expect(texts.length).toBeGreaterThan(60);
    const p = pack(locale);
    expect(texts.filter((s) => !p[s])).toEqual([]);
  });
});

it('the source language keeps the headers as they are', () => {
  expect(SOURCE_LANGUAGE.t('数据质量')).toBe('数据质量');
});
