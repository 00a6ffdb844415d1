// @keyframe/plugin-block-sandbox: Minecraft Java Edition deaths from the client log.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export {
  BlockSandboxIntegration as default,
  BlockSandboxIntegration,
  BEDROCK_GAME_NAME,
  BEDROCK_UNSUPPORTED_MESSAGE,
} from './block-sandbox-integration.js';
export { blockSandboxSettings, type BlockSandboxSettings } from './block-sandbox-settings.js';
export { CURRENT_EN_US_DEATH_TEMPLATES, DEATH_TEMPLATES, type DeathTemplate } from './death-messages.js';
export { DeathMessageMatcher } from './death-message-matcher.js';
export { readLogLine, type LogLine } from './log-line.js';
export { readingsOfLine } from './log-text.js';
export { minecraftLogCandidates, prismLauncherFolders, vanillaGameFolders } from './minecraft-log-locations.js';
export { PlayerDeathTracker, type LineMeaning } from './player-death-tracker.js';
export { PLAYER_NAME_SCAN_BYTES, scanPlayerName } from './player-name-scan.js';
