import { i18nEndpoints } from '@ess/contract/i18n';

/** The calls of one domain of the translation screen: UI texts or business data. */
export const DOMAIN_CALLS = {
  text: {
    page: i18nEndpoints.textPage, edit: i18nEndpoints.textEdit, export: i18nEndpoints.textExport, import: i18nEndpoints.textImport,
    completion: i18nEndpoints.textCompletion, completionOne: i18nEndpoints.textCompletionOne,
  },
  data: {
    page: i18nEndpoints.dataPage, edit: i18nEndpoints.dataEdit, export: i18nEndpoints.dataExport, import: i18nEndpoints.dataImport,
    completion: i18nEndpoints.dataCompletion, completionOne: i18nEndpoints.dataCompletionOne,
  },
} as const;
export type Domain = keyof typeof DOMAIN_CALLS;
