// Windows' Game Mode, turned off and back on for the `disableWindowsGameMode` setting. Game Mode is the
// per-user switch of Settings > Gaming > Game Mode: the DWORD `AutoGameModeEnabled` under
// HKCU\Software\Microsoft\GameBar, and `AllowAutoGameMode` beside it on older builds (source: the
// TrayTrigger wiki page "Windows Game Mode", github.com/stephenh678/TrayTrigger/wiki/Windows-Game-Mode;
// no administrator rights or restart needed). What to write is planned by a pure function; one adapter
// runs `reg.exe`, on win32 only.
import { systemCommandRunner, type CommandRunner } from './system-commands.js';

export const GAME_BAR_KEY = 'HKCU\\Software\\Microsoft\\GameBar';
export const GAME_MODE_VALUES = ['AutoGameModeEnabled', 'AllowAutoGameMode'] as const;
export type GameModeValueName = (typeof GAME_MODE_VALUES)[number];

/** Each value as a DWORD, or null where it does not exist. */
export type GameModeValues = Record<GameModeValueName, number | null>;

/** Set `name` to `value`; a null value deletes it (it did not exist before Keyframe wrote it). */
export interface GameModeChange {
  name: GameModeValueName;
  value: number | null;
}

export interface GameModePlan {
  changes: GameModeChange[];
  /** The user's own values to keep in the data folder from now on; undefined: nothing to keep. */
  remembered: GameModeValues | undefined;
}

/** The value Keyframe writes to turn Game Mode off. */
const OFF = 0;

/**
 * What to write for the setting, given the values in the registry now and the user's values remembered
 * when Keyframe turned Game Mode off (undefined when it did not). Turning off remembers the user's values
 * once (a repeated "off" keeps the first ones) and writes 0: `AutoGameModeEnabled` always (absent means on),
 * `AllowAutoGameMode` only where the build has it. Turning back on restores the remembered values, but only
 * where the registry still holds Keyframe's 0: a value the user changed since is theirs and stays.
 */
export function planGameMode(disable: boolean, current: GameModeValues, remembered: GameModeValues | undefined): GameModePlan {
  if (disable) {
    const changes = GAME_MODE_VALUES.filter(
      (name) => (name === 'AutoGameModeEnabled' || current[name] !== null) && current[name] !== OFF,
    ).map((name) => ({ name, value: OFF }));
    return { changes, remembered: remembered ?? current };
  }
  if (!remembered) return { changes: [], remembered: undefined };
  const changes = GAME_MODE_VALUES.filter((name) => current[name] === OFF && remembered[name] !== OFF).map((name) => ({
    name,
    value: remembered[name],
  }));
  return { changes, remembered: undefined };
}

/** `reg.exe` arguments that read one value. */
export const queryArguments = (name: GameModeValueName): string[] => ['query', GAME_BAR_KEY, '/v', name];

/** `reg.exe` arguments that carry out one change. */
export function changeArguments({ name, value }: GameModeChange): string[] {
  return value === null
    ? ['delete', GAME_BAR_KEY, '/v', name, '/f']
    : ['add', GAME_BAR_KEY, '/v', name, '/t', 'REG_DWORD', '/d', String(value), '/f'];
}

/** The DWORD `reg query` printed for `name` (`    AutoGameModeEnabled    REG_DWORD    0x1`), or null. */
export function parseDword(output: string, name: GameModeValueName): number | null {
  const match = new RegExp(`^\\s*${name}\\s+REG_DWORD\\s+0x([0-9a-f]+)\\s*$`, 'im').exec(output);
  return match ? parseInt(match[1]!, 16) : null;
}

export interface GameModeRegistry {
  read(): Promise<GameModeValues>;
  apply(changes: readonly GameModeChange[]): Promise<void>;
}

/** Where Game Mode is switched on this machine: the registry through `reg.exe` on Windows, `none` elsewhere. */
export const systemGameModeRegistry = (platform: NodeJS.Platform = process.platform): GameModeRegistry | 'none' =>
  platform === 'win32' ? regExeGameModeRegistry() : 'none';

/** The registry through `reg.exe` (`reg query` exits with 1 for a value that does not exist). */
export function regExeGameModeRegistry(run: CommandRunner = systemCommandRunner()): GameModeRegistry {
  return {
    async read() {
      const values: GameModeValues = { AutoGameModeEnabled: null, AllowAutoGameMode: null };
      for (const name of GAME_MODE_VALUES) {
        const result = await run('reg.exe', queryArguments(name));
        if (!result) throw new Error('reg.exe could not be run');
        values[name] = result.code === 0 ? parseDword(result.stdout, name) : null;
      }
      return values;
    },
    async apply(changes) {
      for (const change of changes) {
        const result = await run('reg.exe', changeArguments(change));
        if (result?.code !== 0)
          throw new Error(`reg.exe could not ${change.value === null ? 'delete' : 'set'} ${GAME_BAR_KEY}\\${change.name}`);
      }
    },
  };
}
