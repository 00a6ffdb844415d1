// @keyframe/plugin-survival-game: Rust deaths from the client's output_log.txt.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export { SurvivalGameIntegration as default, SurvivalGameIntegration } from './survival-game-integration.js';
export { isDeathLine } from './death-line.js';
export { OUTPUT_LOG_NAME, STEAM_INSTALL_FOLDER, outputLogCandidates } from './output-log-locations.js';
