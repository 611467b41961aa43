import type { Locale } from '@ess/contract/constants';
import type { Locale as AntdLocale } from 'antd/es/locale';

/** Each UI locale with its own name (not translated: a user must recognise their language). */
export const LOCALE_NAMES: Record<Locale, string> = {
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  'en-US': 'English',
  'es-ES': 'Español',
  'ja-JP': '日本語',
  'id-ID': 'Bahasa Indonesia',
  'fr-FR': 'Français',
  'pt-PT': 'Português',
  'de-DE': 'Deutsch',
  'ko-KR': '한국어',
  'it-IT': 'Italiano',
  'th-TH': 'ไทย',
  'vi-VN': 'Tiếng Việt',
  'ms-MY': 'Bahasa Melayu',
  'km-KH': 'ខ្មែរ',
  'ar-EG': 'العربية',
};

export const RTL_LOCALES: readonly Locale[] = ['ar-EG'];
export const directionOf = (locale: Locale): 'rtl' | 'ltr' => (RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr');

type Loader<T> = () => Promise<{ default: T }>;

/** antd's own locale for each UI locale, loaded on demand (one chunk each). */
export const ANTD_LOCALES: Record<Locale, Loader<AntdLocale>> = {
  'zh-CN': () => import('antd/es/locale/zh_CN'),
  'zh-TW': () => import('antd/es/locale/zh_TW'),
  'en-US': () => import('antd/es/locale/en_US'),
  'es-ES': () => import('antd/es/locale/es_ES'),
  'ja-JP': () => import('antd/es/locale/ja_JP'),
  'id-ID': () => import('antd/es/locale/id_ID'),
  'fr-FR': () => import('antd/es/locale/fr_FR'),
  'pt-PT': () => import('antd/es/locale/pt_PT'),
  'de-DE': () => import('antd/es/locale/de_DE'),
  'ko-KR': () => import('antd/es/locale/ko_KR'),
  'it-IT': () => import('antd/es/locale/it_IT'),
  'th-TH': () => import('antd/es/locale/th_TH'),
  'vi-VN': () => import('antd/es/locale/vi_VN'),
  'ms-MY': () => import('antd/es/locale/ms_MY'),
  'km-KH': () => import('antd/es/locale/km_KH'),
  'ar-EG': () => import('antd/es/locale/ar_EG'),
};

/** dayjs locale names; the modules register themselves when loaded. */
export const DAYJS_LOCALES: Record<Locale, [string, () => Promise<unknown>]> = {
  'zh-CN': ['zh-cn', () => import('dayjs/locale/zh-cn')],
  'zh-TW': ['zh-tw', () => import('dayjs/locale/zh-tw')],
  'en-US': ['en', () => Promise.resolve()],
  'es-ES': ['es', () => import('dayjs/locale/es')],
  'ja-JP': ['ja', () => import('dayjs/locale/ja')],
  'id-ID': ['id', () => import('dayjs/locale/id')],
  'fr-FR': ['fr', () => import('dayjs/locale/fr')],
  'pt-PT': ['pt', () => import('dayjs/locale/pt')],
  'de-DE': ['de', () => import('dayjs/locale/de')],
  'ko-KR': ['ko', () => import('dayjs/locale/ko')],
  'it-IT': ['it', () => import('dayjs/locale/it')],
  'th-TH': ['th', () => import('dayjs/locale/th')],
  'vi-VN': ['vi', () => import('dayjs/locale/vi')],
  'ms-MY': ['ms', () => import('dayjs/locale/ms')],
  'km-KH': ['km', () => import('dayjs/locale/km')],
  'ar-EG': ['ar', () => import('dayjs/locale/ar')],
};
