export * from './system.ts';
export * from './site.ts';
export * from './files.ts';
export * from './device.ts';
export * from './telemetry.ts';
