/** IANA time zones the browser knows (the contract checks any IANA name); a short list when Intl cannot list them. */
export const TIME_ZONES: string[] = (() => {
  const f = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
  const zones = f ? f('timeZone') : ['Asia/Shanghai', 'Europe/Berlin', 'America/Los_Angeles'];
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
})();
