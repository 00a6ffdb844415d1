import { expect } from 'chai';
import { changeArguments, planGameMode, queryArguments, regExeGameModeRegistry, type GameModeValues } from './windows-game-mode.js';
import type { CommandRunner } from './system-commands.js';

const values = (AutoGameModeEnabled: number | null, AllowAutoGameMode: number | null): GameModeValues => ({
  AutoGameModeEnabled,
  AllowAutoGameMode,
});

describe('windows game mode', () => {
  describe('planGameMode', () => {
    it('turning the setting on remembers the user’s values and writes 0 to the ones this build has', () => {
      expect(planGameMode(true, values(1, 1), undefined)).to.deep.equal({
        changes: [
          { name: 'AutoGameModeEnabled', value: 0 },
          { name: 'AllowAutoGameMode', value: 0 },
        ],
        remembered: values(1, 1),
      });
      // A current build without the legacy value: it is not created; AutoGameModeEnabled absent means on.
      expect(planGameMode(true, values(null, null), undefined)).to.deep.equal({
        changes: [{ name: 'AutoGameModeEnabled', value: 0 }],
        remembered: values(null, null),
      });
    });

    it('turning it off restores exactly the values the user had, deleting the ones that did not exist', () => {
      expect(planGameMode(false, values(0, 0), values(1, 1))).to.deep.equal({
        changes: [
          { name: 'AutoGameModeEnabled', value: 1 },
          { name: 'AllowAutoGameMode', value: 1 },
        ],
        remembered: undefined,
      });
      expect(planGameMode(false, values(0, null), values(null, null))).to.deep.equal({
        changes: [{ name: 'AutoGameModeEnabled', value: null }],
        remembered: undefined,
      });
    });

    it('a repeated "on" keeps the first values it remembered and writes only what is not 0', () => {
      expect(planGameMode(true, values(0, 0), values(1, 1))).to.deep.equal({ changes: [], remembered: values(1, 1) });
      // The user switched Game Mode on in Windows while the setting stayed on: off again at the next start.
      expect(planGameMode(true, values(1, 0), values(1, 1))).to.deep.equal({
        changes: [{ name: 'AutoGameModeEnabled', value: 0 }],
        remembered: values(1, 1),
      });
    });

    it('never overwrites a value Keyframe did not set', () => {
      // Setting off, never on: nothing to restore, nothing written.
      expect(planGameMode(false, values(1, null), undefined)).to.deep.equal({ changes: [], remembered: undefined });
      // The user turned Game Mode back on themselves: their 1 stays.
      expect(planGameMode(false, values(1, 0), values(null, 1))).to.deep.equal({
        changes: [{ name: 'AllowAutoGameMode', value: 1 }],
        remembered: undefined,
      });
      // The user already had Game Mode off: restoring writes nothing.
      expect(planGameMode(false, values(0, null), values(0, null))).to.deep.equal({ changes: [], remembered: undefined });
    });
  });

  describe('reg.exe adapter', () => {
    it('reads with `reg query` and treats exit code 1 as a value that does not exist', async () => {
      const calls: string[][] = [];
      const run: CommandRunner = (command, args) => {
        calls.push([command, ...args]);
        return Promise.resolve(
          args.includes('AutoGameModeEnabled')
            ? {
                code: 0,
                stderr: '',
                stdout: '\r\nHKEY_CURRENT_USER\\Software\\Microsoft\\GameBar\r\n    AutoGameModeEnabled    REG_DWORD    0x1\r\n\r\n',
              }
            : { code: 1, stderr: 'ERROR: The system was unable to find the specified registry key or value.', stdout: '' },
        );
      };
      expect(await regExeGameModeRegistry(run).read()).to.deep.equal(values(1, null));
      expect(calls).to.deep.equal([
        ['reg.exe', 'query', 'HKCU\\Software\\Microsoft\\GameBar', '/v', 'AutoGameModeEnabled'],
        ['reg.exe', 'query', 'HKCU\\Software\\Microsoft\\GameBar', '/v', 'AllowAutoGameMode'],
      ]);
      expect(queryArguments('AllowAutoGameMode')).to.deep.equal(calls[1]!.slice(1));
    });

    it('writes a DWORD with `reg add /f` and removes a value with `reg delete /f`; a failure is an error', async () => {
      const calls: string[][] = [];
      const run: CommandRunner = (command, args) => {
        calls.push([command, ...args]);
        return Promise.resolve({ code: 0, stdout: '', stderr: '' });
      };
      await regExeGameModeRegistry(run).apply([
        { name: 'AutoGameModeEnabled', value: 0 },
        { name: 'AllowAutoGameMode', value: null },
      ]);
      expect(calls).to.deep.equal([
        ['reg.exe', 'add', 'HKCU\\Software\\Microsoft\\GameBar', '/v', 'AutoGameModeEnabled', '/t', 'REG_DWORD', '/d', '0', '/f'],
        ['reg.exe', 'delete', 'HKCU\\Software\\Microsoft\\GameBar', '/v', 'AllowAutoGameMode', '/f'],
      ]);
      expect(changeArguments({ name: 'AutoGameModeEnabled', value: 1 })).to.include('1');
      const refused = regExeGameModeRegistry(() => Promise.resolve({ code: 1, stdout: '', stderr: 'ERROR: Access is denied.' }));
      const error = await refused.apply([{ name: 'AutoGameModeEnabled', value: 0 }]).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(Error);
      const missing = regExeGameModeRegistry(() => Promise.resolve(undefined));
      expect(await missing.read().catch((caught: unknown) => caught)).to.be.instanceOf(Error);
    });
  });
});
