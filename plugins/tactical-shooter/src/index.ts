// @keyframe/plugin-tactical-shooter: Counter-Strike 2 kills and deaths from Game State Integration.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export { TacticalShooterIntegration as default, TacticalShooterIntegration } from './tactical-shooter-integration.js';
export {
  COUNTED_MAP_PHASES,
  GsiMatchTracker,
  type GsiBaseline,
  type GsiEvent,
  type GsiEventType,
  type GsiOutcome,
  type GsiUpdate,
} from './gsi-match-tracker.js';
export { GSI_CONFIG_FILE_NAME, GSI_SERVICE_NAME, gsiConfig, gsiConfigBody } from './gsi-config.js';
