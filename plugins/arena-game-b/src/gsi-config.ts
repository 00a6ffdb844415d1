// The Game State Integration config that makes Dota 2 push its state to us, and where the game reads
// it; installing it (never over a file the user edited) is the SDK's `GameConfigFile`.
import { GameConfigFile } from '@keyframe/core';

export const GSI_CONFIG_FILE_NAME = 'gamestate_integration_keyframe.cfg';
/** Dota 2 only reads the config folder when started with this option (Steam → Properties → Launch options). */
export const GSI_LAUNCH_OPTION = '-gamestateintegration';

// buffer + throttle bound how late a push arrives after the change (0.2 s: well inside ±0.5 s);
// the heartbeat keeps a menu that changes nothing from looking like a game that sends nothing.
// Only the blocks the tracker reads: every extra block is bytes parsed ten times a second.
// The auth block makes the game send `"auth": {"token": …}` in every push; the feed refuses pushes without it.
export const gsiConfigBody = (token: string, port: number) =>
  [
    '// Dota 2 sends its state to Keyframe so that kills, deaths and assists are bookmarked.',
    `// Dota 2 reads it only when started with the launch option ${GSI_LAUNCH_OPTION}.`,
    '"keyframe"',
    '{',
    `\t"uri"\t\t"http://127.0.0.1:${port}/"`,
    '\t"timeout"\t"5.0"',
    '\t"buffer"\t"0.1"',
    '\t"throttle"\t"0.1"',
    '\t"heartbeat"\t"10.0"',
    '\t"auth"',
    '\t{',
    `\t\t"token"\t"${token}"`,
    '\t}',
    '\t"data"',
    '\t{',
    '\t\t"provider"\t"1"',
    '\t\t"map"\t\t"1"',
    '\t\t"player"\t"1"',
    '\t}',
    '}',
    '',
  ].join('\n');

/**
 * The config carrying `token` (`Feeds.pushToken()`). Dota 2 reads `gamestate_integration_*.cfg` from
 * `…/dota 2 beta/game/dota/cfg/gamestate_integration`; its executable is `…/game/bin/win64/dota2.exe`
 * or `…/game/bin/linuxsteamrt64/dota2`. A file of the user's without the token is kept but reported stale.
 */
export function gsiConfig(token: string, port: number): GameConfigFile {
  return new GameConfigFile({
    fileName: GSI_CONFIG_FILE_NAME,
    body: gsiConfigBody(token, port),
    lineComment: '//',
    gameFolderInLibrary: ['steamapps', 'common', 'dota 2 beta', 'game'],
    executableDepth: 2,
    configFolderInGame: ['dota', 'cfg', 'gamestate_integration'],
    required: token,
  });
}
