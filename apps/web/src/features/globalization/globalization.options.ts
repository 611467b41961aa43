import { ENGINE_KINDS, TRANSLATION_STATE_LABELS, TRANSLATION_STATES, type EngineKind, type TranslationState } from '@ess/contract/i18n';
import type { EnumOption } from '../../components/crud/index.ts';
import type { Tone } from '../../components/ToneTag.tsx';

/** The five states of a translation with their labels (source text). */
export const STATE_OPTIONS: EnumOption[] = TRANSLATION_STATES.map((s) => ({ value: s, label: TRANSLATION_STATE_LABELS[s] }));

/** The tone each state is shown in: red missing, orange machine or outdated, blue translated, green reviewed. */
export const STATE_TONES: Record<TranslationState, Tone> = {
  untranslated: 'error',
  machine: 'warning',
  translated: 'processing',
  reviewed: 'success',
  outdated: 'warning',
};

/** The engines' kinds by their product names (names, not translated). */
export const ENGINE_KIND_NAMES: Record<EngineKind, string> = {
  deepl: 'DeepL',
  google: 'Google Cloud Translation (v2)',
  'google-v3': 'Google Cloud Translation (v3)',
  baidu: '百度翻译',
  libre: 'LibreTranslate',
};
export const ENGINE_KIND_OPTIONS: EnumOption[] = ENGINE_KINDS.map((k) => ({ value: k, label: ENGINE_KIND_NAMES[k], literal: k !== 'baidu' }));

export const ENABLED_OPTIONS: EnumOption[] = [
  { value: true, label: '启用', color: 'success' },
  { value: false, label: '停用', color: 'default' },
];

export const DIRECTION_OPTIONS: EnumOption[] = [
  { value: 'ltr', label: '从左到右' },
  { value: 'rtl', label: '从右到左' },
];
