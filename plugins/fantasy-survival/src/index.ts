// @keyframe/plugin-fantasy-survival: RuneScape: Dragonwilds deaths from the client log.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export { FantasySurvivalIntegration as default, FantasySurvivalIntegration } from './fantasy-survival-integration.js';
export { DEAD_MODE, InputModeTracker } from './input-mode-tracker.js';
export { CLIENT_LOG_NAME, clientLogPath } from './client-log-location.js';
