// The real Minecraft Java Edition client logs in the game data folder block-sandbox (see its
// SOURCES.md): what each of them shows. Found, read and skipped for by the test kit's gameData().
import { gameData } from '@keyframe/integration-testkit';

export const recordedData = gameData('block-sandbox', 'recorded Minecraft logs');

export interface RecordedLog {
  readonly file: string;
  /** The name in its `Setting user:` line. */
  readonly player: string;
  /** 1-based numbers of the lines where the local player dies, read off the file by hand. */
  readonly deathLines: readonly number[];
}

export const RECORDED_LOGS: readonly RecordedLog[] = [
  { file: 'vanilla-client-2020-latest.log', player: 'MrChozo', deathLines: [47] },
  {
    // Overcast Network (PGM) wordings; lines 169, 195 and 217 are kills by the player.
    file: 'vanilla-1.8-client-pvp-latest.log',
    player: 'majorawsoem',
    deathLines: [48, 52, 164, 165, 172, 178, 184, 190, 191, 199, 201, 206, 223, 303],
  },
  {
    // Other players' deaths (lines 323, 373, 483, …) and `[Binary131313: Killed …]` feedback give nothing.
    file: 'fabric-1.19-client-survival.log',
    player: 'Dialgatrainer069',
    deathLines: [254, 309, 312, 325, 342, 457, 475, 477, 481, 485, 489, 493, 564, 677, 712, 723, 735, 790],
  },
  { file: 'client-system-chat-self-killed.log', player: 'redskilz', deathLines: [31] },
  { file: 'client-system-chat-other-player-death.log', player: 'redskilz', deathLines: [] },
  {
    // GBK: `gele178被GLgele杀死了` (killed by) and `gele178掉出了这个世界` (fell out of the world);
    // `GLgele被gele178杀死了` (lines 119, 134, 302, 337) are kills by the player.
    file: 'zh_CN-gbk-client-1.16-pvp.log',
    player: 'gele178',
    deathLines: [38, 54, 67, 80, 92, 99, 114, 120, 160, 180, 201, 223, 246, 260, 274, 294, 306, 383],
  },
  { file: 'neoforge-1.21.3-client-startup.log', player: 'Aternos', deathLines: [] },
  { file: 'fabric-26.1-client-dev-startup.log', player: 'Player804', deathLines: [] },
];

/** The lines of a recorded log as the tail feed delivers them with `encoding: 'latin1'`: bytes as characters. */
export function readRecordedLines(file: string): string[] {
  return recordedData.lines(file, 'latin1');
}
