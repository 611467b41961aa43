/** Query keys of the device registry and replacement screens: all under ['equipment'] (the resources' root too). */
export const deviceKeys = {
  all: ['equipment'] as const,
  stationDevices: (siteId: number) => ['equipment', 'station-devices', siteId] as const,
  liveStatus: () => ['equipment', 'live-status'] as const,
  changeProducts: (siteId: number | undefined) => ['equipment', 'change-products', siteId] as const,
  changeDevices: (siteId: number | undefined, productId: number | undefined) => ['equipment', 'change-devices', siteId, productId] as const,
};
