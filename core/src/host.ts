// For programs that embed the service (a desktop shell): start it in-process and hand it command strings from a
// bridge such as `window.external.sendMessage`. Only the embedding API: the bench's way in is `@keyframe/core/internal`.
import 'reflect-metadata';
export { KeyframeService, type StartOptions } from './app/keyframe-service.js';
export { ServiceOptions, DEFAULT_PORT, DEFAULT_LEGACY_PORT } from './service-options.js';
// Named by StartOptions.
export type { DesktopWindow } from './platform/desktop-window.js';
// What `keyframe --app` loads from @keyframe/desktop.
export type { CreateDesktopApp, DesktopApp, DesktopAppControls, DesktopAppLog, DesktopAppOptions } from './app/desktop-app.js';
export type { LogLevel } from './support/logger.js';
export type { ServiceEvent } from './protocol/index.js';
