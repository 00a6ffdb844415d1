// The Game State Integration config that makes Counter-Strike 2 push its state to us, and where the
// game reads it; installing it (never over a file the user edited) is the SDK's `GameConfigFile`.
import { GameConfigFile } from '@keyframe/core';

/** The `<service_name>` of SPEC's "Shooter push configuration": block name and file name suffix. */
export const GSI_SERVICE_NAME = 'keyframe';
export const GSI_CONFIG_FILE_NAME = `gamestate_integration_${GSI_SERVICE_NAME}.cfg`;

/**
 * The block itself (SPEC values), in Valve KeyValues text, with the `auth` block SPEC lacks: the game
 * sends `"auth": {"token": …}` in every push, and the feed refuses pushes without it.
 */
export const gsiConfigBody = (token: string, port: number) =>
  [
    `"${GSI_SERVICE_NAME}"`,
    '{',
    `\t"uri"\t\t"http://localhost:${port}/"`,
    '\t"timeout"\t"5.0"',
    '\t"buffer"\t"0.1"',
    '\t"throttle"\t"0.2"',
    '\t"heartbeat"\t"2.0"',
    '\t"auth"',
    '\t{',
    `\t\t"token"\t"${token}"`,
    '\t}',
    '\t"data"',
    '\t{',
    '\t\t"player_id"\t\t\t"1"',
    '\t\t"provider"\t\t\t"1"',
    '\t\t"map"\t\t\t\t"1"',
    '\t\t"player_match_stats"\t"1"',
    '\t}',
    '}',
    '',
  ].join('\n');

/**
 * The config carrying `token` (`Feeds.pushToken()`). CS2 reads `gamestate_integration_*.cfg` from
 * `…/game/csgo/cfg`; its executable is `…/game/bin/win64/cs2.exe` or `…/game/bin/linuxsteamrt64/cs2`.
 * A library whose game folder has no `csgo` folder (an old CS:GO install) is not CS2. A file of the
 * user's without the token is kept but reported stale.
 */
export function gsiConfig(token: string, port: number): GameConfigFile {
  return new GameConfigFile({
    fileName: GSI_CONFIG_FILE_NAME,
    body: gsiConfigBody(token, port),
    lineComment: '//',
    gameFolderInLibrary: ['steamapps', 'common', 'Counter-Strike Global Offensive', 'game'],
    executableDepth: 2,
    configFolderInGame: ['csgo', 'cfg'],
    required: token,
  });
}
