import type { EngineKind } from '@ess/contract/i18n';
import { baidu } from './baidu.ts';
import { deepl } from './deepl.ts';
import type { TranslationEngine } from './engine.ts';
import { google } from './google.ts';
import { googleV3 } from './google-v3.ts';
import { libre } from './libre.ts';

export const engines: Record<EngineKind, TranslationEngine> = { deepl, google, 'google-v3': googleV3, baidu, libre };
