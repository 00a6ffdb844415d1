// @keyframe/plugin-vehicle-combat: War Thunder kills and deaths from the game's HUD messages.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export {
  VehicleCombatIntegration as default,
  VehicleCombatIntegration,
  HUD_PORT,
  POLL_INTERVAL_MS,
  hudMessagesUrl,
} from './vehicle-combat-integration.js';
export { readHudMessage, namesPlayer, type HudOutcome } from './hud-message-reader.js';
export { HudMessageTracker, type HudCursor, type HudMessage, type HudUpdate } from './hud-message-tracker.js';
export { BattleClock } from './battle-clock.js';
export { decodeCombatLog, nicknameInCombatLog } from './combat-log.js';
export { logFolderCandidates, readLocalNickname, type NicknameLookup } from './local-nickname.js';
