export * from './fleet.ts';
export * from './state.ts';
export * from './step.ts';
export * from './readings.ts';
export * from './commands.ts';
export * from './clock.ts';
export * from './broker.ts';
export * from './agent.ts';
export * from './persist.ts';
export * from './incidents.ts';
export { currentFirmware, downloadPackage, parseOtaFaults, renderDeviceLog } from './ota.ts';
export * from './soc.ts';
export * from './storage-mode.ts';
export { DEMO_PLATFORM_PASSWORD, DEMO_PLATFORM_PORT, DEMO_PLATFORM_STATION, DEMO_PLATFORM_USER, platformId, startThingsBoardPlatform } from './thingsboard.ts';
export type { PlatformSource, ThingsBoardPlatform } from './thingsboard.ts';
// The EMS's strategy (the demo history runs the stations under their synchronised strategy).
export { applyStrategy, strategyControls } from './strategy.ts';
// Station-local time is the contract's (time.ts); re-exported for the simulator's users.
export { localTime, periodAt, utcOffsetMinutes } from '@ess/contract';
export type { LocalTime, PricePeriod, TouSegment } from '@ess/contract';
export { solarElevation, clearSkyIrradiance } from './solar.ts';
export { ocv, CELL_MAX_V, CELL_MIN_V } from './battery.ts';
