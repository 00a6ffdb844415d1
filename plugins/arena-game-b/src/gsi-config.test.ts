import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GSI_CONFIG_FILE_NAME, gsiConfig, gsiConfigBody } from './gsi-config.js';
import { GsiMatchTracker } from './gsi-match-tracker.js';
import { readLobbyToPostgameBodies, recordedData } from './recorded-payloads.js';

const GAME = ['steamapps', 'common', 'dota 2 beta', 'game'];
const CONFIG = ['dota', 'cfg', 'gamestate_integration'];
const TOKEN = 'TestPushToken0123456789';
const GSI_CONFIG = gsiConfig(TOKEN, 1341);
const GSI_CONFIG_TEXT = GSI_CONFIG.text;
const AUTH_LINES = `\t"auth"\n\t{\n\t\t"token"\t"${TOKEN}"\n\t}\n`;
/** The file versions before the push token wrote, untouched since. */
const BEFORE_THE_TOKEN = GSI_CONFIG.stamp(gsiConfigBody(TOKEN, 1341).replace(AUTH_LINES, ''));

/** Every `"key"` or `"key" "value"` line of a KeyValues text as `[depth, key, value]`. */
function keyValueLines(text: string): Array<[number, string, string | undefined]> {
  return [...text.matchAll(/^(\t*)"([^"]+)"(?:\s+"([^"]*)")?$/gm)].map(([, tabs, key, value]) => [tabs!.length, key!, value]);
}

describe('Dota 2 GSI config', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-arena-game-b-'));
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  describe('text', () => {
    it('is one "keyframe" block pushing to 127.0.0.1:1341 with the provider, map and player blocks', () => {
      expect(GSI_CONFIG_FILE_NAME).to.equal('gamestate_integration_keyframe.cfg');
      expect(keyValueLines(GSI_CONFIG_TEXT)).to.deep.equal([
        [0, 'keyframe', undefined],
        [1, 'uri', 'http://127.0.0.1:1341/'],
        [1, 'timeout', '5.0'],
        [1, 'buffer', '0.1'],
        [1, 'throttle', '0.1'],
        [1, 'heartbeat', '10.0'],
        [1, 'auth', undefined],
        [2, 'token', TOKEN],
        [1, 'data', undefined],
        [2, 'provider', '1'],
        [2, 'map', '1'],
        [2, 'player', '1'],
      ]);
    });

    it('is balanced, LF-only and ASCII, and names the launch option the game needs', () => {
      const body = GSI_CONFIG_TEXT.split('\n').filter((line) => !line.startsWith('//') && line !== '');
      expect(body[0]).to.equal('"keyframe"');
      expect(body.filter((line) => line.trim() === '{')).to.have.length(3);
      expect(body.filter((line) => line.trim() === '}')).to.have.length(3);
      expect(GSI_CONFIG_TEXT).to.not.include('\r');
      expect(/^[\x09\x0a\x20-\x7e]*$/.test(GSI_CONFIG_TEXT), 'ASCII only').to.equal(true);
      expect(GSI_CONFIG_TEXT).to.include('-gamestateintegration');
    });

    it('asks for every block the recorded payloads show the tracker needs', function () {
      recordedData.skipIfAbsent(this);
      const requested = new Set(
        keyValueLines(GSI_CONFIG_TEXT)
          .filter(([depth, key]) => depth === 2 && key !== 'token')
          .map(([, key]) => key),
      );
      const inProgress = JSON.parse(readLobbyToPostgameBodies()[10]!) as Record<string, unknown>;
      const trimmed = Object.fromEntries(Object.entries(inProgress).filter(([block]) => requested.has(block)));
      expect(new GsiMatchTracker().update(trimmed).outcome).to.equal('baseline');
    });
  });

  describe('install', () => {
    const folder = () => path.join(temp, ...CONFIG);
    const file = () => path.join(folder(), GSI_CONFIG_FILE_NAME);

    it('writes the file when it is missing, creating the gamestate_integration folder', async () => {
      expect(await GSI_CONFIG.install(folder())).to.equal('written');
      expect(await readFile(file(), 'utf8')).to.equal(GSI_CONFIG_TEXT);
      expect(await readdir(folder()), 'no temp file left').to.deep.equal([GSI_CONFIG_FILE_NAME]);
    });

    it('does nothing when the file is already ours, CRLF line ends included', async () => {
      await GSI_CONFIG.install(folder());
      expect(await GSI_CONFIG.install(folder())).to.equal('unchanged');
      await writeFile(file(), GSI_CONFIG_TEXT.replace(/\n/g, '\r\n'));
      expect(await GSI_CONFIG.install(folder())).to.equal('unchanged');
    });

    it('keeps a different file with our name as it is', async () => {
      await mkdir(folder(), { recursive: true });
      const edited = GSI_CONFIG_TEXT.replace('"heartbeat"\t"10.0"', '"heartbeat"\t"30.0"');
      await writeFile(file(), edited);
      expect(await GSI_CONFIG.install(folder())).to.equal('kept-user-edit');
      expect(await readFile(file(), 'utf8')).to.equal(edited);
    });

    it("keeps the unstamped text the first version wrote (it cannot be told from a user's file), reporting it stale: it has no token", async () => {
      await mkdir(folder(), { recursive: true });
      const firstVersion = BEFORE_THE_TOKEN.split('\n')
        .slice(2)
        .join('\n')
        .replace('// Dota 2 sends', '// Written by Keyframe: Dota 2 sends');
      await writeFile(file(), firstVersion);
      expect(await GSI_CONFIG.install(folder())).to.equal('kept-stale-user-edit');
      expect(await readFile(file(), 'utf8')).to.equal(firstVersion);
    });

    it('updates the untouched file of the versions before the push token, adding the token', async () => {
      expect(createHash('sha256').update(BEFORE_THE_TOKEN, 'utf8').digest('hex'), 'the text those versions wrote').to.equal(
        'd4318c1f6873afb2c1deaa2f8595d0c9c9c6d14caeba181cfbdcfea3912aaf49',
      );
      await mkdir(folder(), { recursive: true });
      await writeFile(file(), BEFORE_THE_TOKEN);
      expect(await GSI_CONFIG.install(folder())).to.equal('written');
      expect(await readFile(file(), 'utf8')).to.equal(GSI_CONFIG_TEXT);
    });

    it('updates an older text of ours that nobody changed', async () => {
      await mkdir(folder(), { recursive: true });
      await writeFile(file(), GSI_CONFIG.stamp('"keyframe"\n{\n\t"uri"\t\t"http://127.0.0.1:1341/"\n}\n'));
      expect(await GSI_CONFIG.install(folder())).to.equal('written');
      expect(await readFile(file(), 'utf8')).to.equal(GSI_CONFIG_TEXT);
    });

    it("fails with the file system's error when the folder cannot be created", async () => {
      await writeFile(path.join(temp, 'not-a-folder'), '');
      let error: unknown;
      try {
        await GSI_CONFIG.install(path.join(temp, 'not-a-folder', 'gamestate_integration'));
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(Error);
    });
  });

  describe('foldersInLibraries', () => {
    it('finds game/dota/cfg/gamestate_integration in each library that has the game', async () => {
      const withGame = path.join(temp, 'steam');
      const without = path.join(temp, 'empty');
      await mkdir(path.join(withGame, ...GAME, 'dota'), { recursive: true });
      await mkdir(path.join(without, 'steamapps', 'common'), { recursive: true });
      expect(await GSI_CONFIG.foldersInLibraries([withGame, without, path.join(temp, 'missing'), `${withGame}${path.sep}`])).to.deep.equal([
        path.join(withGame, ...GAME, ...CONFIG),
      ]);
    });

    it('finds nothing without libraries', async () => {
      expect(await GSI_CONFIG.foldersInLibraries([])).to.deep.equal([]);
    });
  });

  describe('folderOfExecutable', () => {
    it('goes from game/bin/<platform>/dota2(.exe) to game/dota/cfg/gamestate_integration when the game folder is there', async () => {
      const game = path.join(temp, 'dota 2 beta', 'game');
      await mkdir(path.join(game, 'dota'), { recursive: true });
      for (const exe of [path.join(game, 'bin', 'win64', 'dota2.exe'), path.join(game, 'bin', 'linuxsteamrt64', 'dota2')]) {
        expect(await GSI_CONFIG.folderOfExecutable(exe)).to.equal(path.join(game, ...CONFIG));
      }
      expect(await GSI_CONFIG.folderOfExecutable(path.join(temp, 'elsewhere', 'bin', 'dota2'))).to.equal(undefined);
    });
  });
});
