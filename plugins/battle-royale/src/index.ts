// @keyframe/plugin-battle-royale: PUBG kills and deaths from the replays the game saves after each match.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export { BattleRoyaleIntegration as default, BattleRoyaleIntegration } from './battle-royale-integration.js';
export { bookmarkTypeOf } from './bookmark-rule.js';
export { comparablePlayerName } from './player-name.js';
export { ReplayAssembler, type AcceptResult, type ReplayBookmark } from './replay-assembler.js';
export { parseReplayEvent, type ReplayEvent, type ReplayEventResult } from './replay-event.js';
export { parseReplayInfo, type ReplayInfo, type ReplayInfoResult } from './replay-info.js';
export { jsonInside, type JsonResult } from './replay-json.js';
export {
  demosFolderOf,
  replayFileOf,
  REPLAY_FILE_PATTERN,
  REPLAY_INFO_FILE,
  type EventFile,
  type InfoFile,
  type ReplayFile,
} from './replay-layout.js';
