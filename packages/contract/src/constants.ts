/** Business constants and limits of product-spec §9, shared by server and console. */
export const TOAST_DURATION_MS = 3000;
export const LOADING_DELAY_MS = 1000;
export const LOADING_SPINNER_SIZE = 32;
export const HTTP_TIMEOUT_MS = 0;
export const SSE_HEARTBEAT_TIMEOUT_MS = 60_000;
export const SSE_CHECK_INTERVAL_MS = 65_000;
export const SSE_MAX_RECONNECTS = 3;
export const SSE_RETRY_MS = 1000;
/** Server side: how often the stream sends a heartbeat event. */
export const SSE_HEARTBEAT_INTERVAL_MS = 30_000;
export const DEFAULT_LOCALE = 'zh-CN';
export const LOCALES = [
  'zh-CN', 'zh-TW', 'en-US', 'es-ES', 'ja-JP', 'id-ID', 'fr-FR', 'pt-PT',
  'de-DE', 'ko-KR', 'it-IT', 'th-TH', 'vi-VN', 'ms-MY', 'km-KH', 'ar-EG',
] as const;
export type Locale = (typeof LOCALES)[number];
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_MAX_FILES = 20;
export const NOTE_MAX_LENGTH = 200;
export const NOTIFICATION_CONTENT_MAX = 5000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const QUERY_RANGE_LIMIT_MS = 24 * 3600 * 1000;
export const ALARM_LEVELS = [1, 2, 3, 4, 5] as const;
export const PRICE_PERIODS = ['tip', 'peak', 'flat', 'valley', 'deepValley'] as const;
export const MAX_PAGE_SIZE = 500;
export const API_BASE = '/api/manager';
export const TOKEN_STORAGE_KEY = 'Token';
export const LOCALE_STORAGE_KEY = 'locale';
export const IMAGE_CODE_STORAGE_KEY = 'X-Image-Code';
