// @keyframe/plugin-arena-game-b: Dota 2 kills, deaths and assists from Game State Integration.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export { ArenaGameBIntegration as default, ArenaGameBIntegration } from './arena-game-b-integration.js';
export {
  COUNTED_GAME_STATES,
  DOTA_APP_ID,
  GsiMatchTracker,
  type GsiBaseline,
  type GsiEvent,
  type GsiEventType,
  type GsiOutcome,
  type GsiUpdate,
} from './gsi-match-tracker.js';
export { GSI_CONFIG_FILE_NAME, GSI_LAUNCH_OPTION, gsiConfig, gsiConfigBody } from './gsi-config.js';
