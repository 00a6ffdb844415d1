// The wire protocol: schemas of every command, event and model, and the types derived from them.
export * from './models.js';
export * from './settings.js';
export * from './commands.js';
export * from './events.js';
export * from './validation.js';
export * from './wire-format.js';
export * from './wire-dialect.js';
export * from './json-patch.js';
