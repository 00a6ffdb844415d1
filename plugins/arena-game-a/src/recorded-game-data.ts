// The real Live Client Data answers in the game data folder arena-game-a (see its SOURCES.md): what
// each file is. Found, read and skipped for by the test kit's gameData().
import { gameData } from '@keyframe/integration-testkit';

export const recordedData = gameData('arena-game-a', 'recorded League of Legends answers');

/** A finished 5v5 game played as "mikehpoo" (Lux), older client: summoner names, no Riot IDs. */
export const PLAYING_FILE = 'lol-allgamedata-playing-lux-28min.json';
/** A zh-CN client spectating: `activePlayer` is the game's spectator error. */
export const SPECTATING_FILE = 'lol-allgamedata-spectating-zh-cn.json';
/** The `events` object of the playing file, as `/liveclientdata/eventdata` returns it. */
export const EVENT_DATA_FILE = 'lol-eventdata-from-playing-allgamedata.json';
