export * from './errors.ts';
export * from './constants.ts';
export * from './events.ts';
export * from './menus.ts';
export * from './common.ts';
export * from './system.ts';
export * from './telemetry.ts';
export * from './device.ts';
