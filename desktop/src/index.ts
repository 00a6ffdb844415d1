// @keyframe/desktop: the thin desktop layer around the service and the web UI (issue 25). `keyframe --app`
// loads it by name (core/src/app/desktop-app.ts).
export { createDesktopApp } from './desktop-app.js';
export { findAppBrowser, type AppBrowser, type BrowserMachine } from './window/browser-discovery.js';
