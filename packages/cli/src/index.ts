export * from './lib/config-store.js';
export * from './lib/exit-codes.js';
export * from './program.js';
