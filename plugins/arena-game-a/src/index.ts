// @keyframe/plugin-arena-game-a: League of Legends kills, deaths and assists from the Live Client Data API.
// The default export is the integration the host loads; the rest is the pure logic, for reuse and tests.
export {
  ArenaGameAIntegration as default,
  ArenaGameAIntegration,
  ALL_GAME_DATA_URL,
  FEED_ID,
  POLL_INTERVAL_MS,
} from './arena-game-a-integration.js';
export { readAllGameData, type AllGameDataReading, type ChampionKill, type GameSnapshot, type Scores } from './live-client-data.js';
export { EVENT_SLACK_SECONDS, MatchTracker, type PlayerEvent, type PlayerEventType, type TrackerUpdate } from './match-tracker.js';
export {
  FeedHealth,
  SILENCE_LIMIT_MS,
  SPECTATING_MESSAGE,
  UNREADABLE_LIMIT_MS,
  silenceMessage,
  unreadableMessage,
  type PollOutcome,
} from './feed-health.js';
