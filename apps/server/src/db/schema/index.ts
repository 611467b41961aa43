export * from './system.ts';
export * from './site.ts';
export * from './files.ts';
