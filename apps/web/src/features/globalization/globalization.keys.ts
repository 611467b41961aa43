/**
 * Query keys of the globalization screens (/globalization/*): a change under ['globalization', area]
 * reads that area's lists again.
 */
export const globalizationKeys = {
  all: ['globalization'] as const,
  languages: ['globalization', 'language'] as const,
  /** The enabled languages (the language pickers of the translation screen). */
  enabled: ['globalization', 'language', 'enabled'] as const,
  texts: ['globalization', 'text'] as const,
  tip: ['globalization', 'text', 'tip'] as const,
  data: ['globalization', 'data'] as const,
  /** The business data's text nodes (the data fields the business-data tab filters by). */
  nodes: ['globalization', 'data', 'nodes'] as const,
  /** A page of a domain's originals (under texts or data). */
  originals: (domain: 'text' | 'data', filters: object, page: object) => ['globalization', domain, 'page', filters, page] as const,
  engines: ['globalization', 'engine'] as const,
  optionals: ['globalization', 'engine', 'optionals'] as const,
  enabledEngines: ['globalization', 'engine', 'enabled'] as const,
  supports: (id: number) => ['globalization', 'engine', 'supports', id] as const,
  currencies: ['globalization', 'currency'] as const,
  completion: (domain: string, id: number) => ['globalization', 'completion', domain, id] as const,
  /** The translate mode's lookup of one source text. */
  original: (languageId: string, source: string) => ['globalization', 'text', 'original', languageId, source] as const,
};
