import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GamePaths } from './game-integration.js';
import { GameConfigFile } from './game-config-file.js';

const GAME = ['steamapps', 'common', 'Some Game', 'game'];

const config = new GameConfigFile({
  fileName: 'game_keyframe.cfg',
  body: '"keyframe"\n{\n\t"uri"\t"http://127.0.0.1:1399/"\n}\n',
  lineComment: '//',
  gameFolderInLibrary: GAME,
  executableDepth: 2,
  configFolderInGame: ['mod', 'cfg'],
});

function gamePaths(libraries: () => Promise<string[]>): GamePaths {
  return { steamLibraries: libraries, roamingAppData: () => '', localAppData: () => '', home: () => '' };
}

describe('GameConfigFile', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-game-config-file-'));
  });
  afterEach(async () => {
    await rm(temp, { recursive: true, force: true });
  });

  /** A Steam library where the game is installed (its `mod` folder exists, `cfg` not yet). */
  async function libraryWithGame(name: string): Promise<string> {
    const library = path.join(temp, name);
    await mkdir(path.join(library, ...GAME, 'mod'), { recursive: true });
    return library;
  }

  describe('text', () => {
    it("is a marker line in the game's comment syntax, the hash of the body, then the body", () => {
      const lines = config.text.split('\n');
      expect(lines[0]).to.equal('// Written by Keyframe - edit freely; Keyframe will not overwrite a file you changed.');
      expect(lines[1]).to.match(/^\/\/ keyframe-sha256 [0-9a-f]{64}$/);
      expect(lines.slice(2).join('\n')).to.equal('"keyframe"\n{\n\t"uri"\t"http://127.0.0.1:1399/"\n}\n');
      const hashComment = new GameConfigFile({
        fileName: 'a.ini',
        body: 'a=1\n',
        lineComment: '#',
        gameFolderInLibrary: [],
        executableDepth: 0,
        configFolderInGame: ['x'],
      });
      expect(hashComment.text.startsWith('# Written by Keyframe')).to.equal(true);
    });

    it('tells an untouched file of ours from a changed one', () => {
      expect(config.isUntouched(config.text)).to.equal(true);
      expect(config.isUntouched(config.text.replace(/\n/g, '\r\n')), 'CRLF').to.equal(true);
      expect(config.isUntouched(config.stamp('older body\n')), 'an older text of ours').to.equal(true);
      expect(config.isUntouched(config.text.replace('1399', '1398'))).to.equal(false);
      expect(config.isUntouched(config.text.split('\n').slice(1).join('\n'))).to.equal(false);
      expect(config.isUntouched('')).to.equal(false);
    });
  });

  describe('install', () => {
    const folder = () => path.join(temp, 'cfg');
    const file = () => path.join(folder(), 'game_keyframe.cfg');

    it('writes a missing file, creating its folder and leaving no temp file', async () => {
      expect(await config.install(folder())).to.equal('written');
      expect(await readFile(file(), 'utf8')).to.equal(config.text);
      expect(await readdir(folder())).to.deep.equal(['game_keyframe.cfg']);
    });

    it('leaves our current text alone, CRLF line ends included', async () => {
      await config.install(folder());
      expect(await config.install(folder())).to.equal('unchanged');
      await writeFile(file(), config.text.replace(/\n/g, '\r\n'));
      expect(await config.install(folder())).to.equal('unchanged');
    });

    it('updates an older text of ours that nobody changed', async () => {
      await mkdir(folder());
      await writeFile(file(), config.stamp('"keyframe"\n{\n}\n'));
      expect(await config.install(folder())).to.equal('written');
      expect(await readFile(file(), 'utf8')).to.equal(config.text);
    });

    it('keeps a file the user edited, and one Keyframe did not write', async () => {
      await mkdir(folder());
      for (const kept of [config.text.replace('1399', '1398'), '"keyframe" { }\n']) {
        await writeFile(file(), kept);
        expect(await config.install(folder())).to.equal('kept-user-edit');
        expect(await readFile(file(), 'utf8')).to.equal(kept);
      }
    });

    it("fails with the file system's error when the folder cannot be created", async () => {
      await writeFile(path.join(temp, 'not-a-folder'), '');
      const failure = await config.install(path.join(temp, 'not-a-folder', 'cfg')).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).to.be.instanceOf(Error);
      expect(await readdir(temp)).to.deep.equal(['not-a-folder']);
    });
  });

  describe('folders', () => {
    it('finds the config folder in each library that has the game, once per library', async () => {
      const withGame = await libraryWithGame('steam');
      await mkdir(path.join(temp, 'empty', 'steamapps', 'common'), { recursive: true });
      expect(
        await config.foldersInLibraries([withGame, path.join(temp, 'empty'), path.join(temp, 'missing'), `${withGame}${path.sep}`]),
      ).to.deep.equal([path.join(withGame, ...GAME, 'mod', 'cfg')]);
      expect(await config.foldersInLibraries([])).to.deep.equal([]);
    });

    it('goes from the executable up to the game folder, when the game is there', async () => {
      const game = path.join(temp, 'Some Game', 'game');
      await mkdir(path.join(game, 'mod'), { recursive: true });
      expect(await config.folderOfExecutable(path.join(game, 'bin', 'win64', 'game.exe'))).to.equal(path.join(game, 'mod', 'cfg'));
      expect(await config.folderOfExecutable(path.join(temp, 'elsewhere', 'bin', 'game'))).to.equal(undefined);
    });
  });

  describe('installForGame', () => {
    it('installs in every library with the game and beside the running executable, once per folder', async () => {
      const first = await libraryWithGame('steam');
      const second = await libraryWithGame('games');
      const executable = path.join(first, ...GAME, 'bin', 'linux64', 'game');
      const report = await config.installForGame(
        gamePaths(async () => [first, second]),
        executable,
      );
      const folders = [path.join(first, ...GAME, 'mod', 'cfg'), path.join(second, ...GAME, 'mod', 'cfg')];
      expect(report).to.deep.equal({ folders, written: folders, keptUserEdits: [], keptStaleUserEdits: [], failed: [] });
      const again = await config.installForGame(gamePaths(async () => [first, second]));
      expect(again).to.deep.equal({ folders, written: [], keptUserEdits: [], keptStaleUserEdits: [], failed: [] });
    });

    it('reports kept and failed folders, and libraries it could not list, without throwing', async () => {
      const kept = await libraryWithGame('steam');
      await mkdir(path.join(kept, ...GAME, 'mod', 'cfg'));
      await writeFile(path.join(kept, ...GAME, 'mod', 'cfg', 'game_keyframe.cfg'), 'mine\n');
      const broken = await libraryWithGame('broken');
      await writeFile(path.join(broken, ...GAME, 'mod', 'cfg'), ''); // a file where the folder should be
      const report = await config.installForGame(gamePaths(async () => [kept, broken]));
      expect(report.keptUserEdits).to.deep.equal([path.join(kept, ...GAME, 'mod', 'cfg')]);
      expect(report.failed.map(({ folder }) => folder)).to.deep.equal([path.join(broken, ...GAME, 'mod', 'cfg')]);
      expect(report.failed[0]!.error).to.be.instanceOf(Error);

      const game = path.join(temp, 'elsewhere', 'game');
      await mkdir(path.join(game, 'mod'), { recursive: true });
      const unlisted = await config.installForGame(
        gamePaths(async () => {
          throw new Error('libraryfolders.vdf is unreadable');
        }),
        path.join(game, 'bin', 'x64', 'game'),
      );
      expect(unlisted.librariesError?.message).to.equal('libraryfolders.vdf is unreadable');
      expect(unlisted.written).to.deep.equal([path.join(game, 'mod', 'cfg')]);
    });

    it('reports a kept file without the required text as stale, and says what to do without quoting that text', async () => {
      const required = 'Secret0123456789';
      const withToken = new GameConfigFile({
        fileName: 'game_keyframe.cfg',
        body: `"keyframe"\n{\n\t"token"\t"${required}"\n}\n`,
        lineComment: '//',
        gameFolderInLibrary: GAME,
        executableDepth: 2,
        configFolderInGame: ['mod', 'cfg'],
        required,
      });
      const stale = await libraryWithGame('stale');
      const fine = await libraryWithGame('fine');
      for (const [library, text] of [
        [stale, 'mine\n'],
        [fine, `mine, with ${required}\n`],
      ] as const) {
        await mkdir(path.join(library, ...GAME, 'mod', 'cfg'));
        await writeFile(path.join(library, ...GAME, 'mod', 'cfg', 'game_keyframe.cfg'), text);
      }
      const report = await withToken.installForGame(gamePaths(async () => [stale, fine]));
      expect(report.keptUserEdits).to.deep.equal([stale, fine].map((library) => path.join(library, ...GAME, 'mod', 'cfg')));
      expect(report.keptStaleUserEdits).to.deep.equal([path.join(stale, ...GAME, 'mod', 'cfg')]);
      expect(await readFile(path.join(stale, ...GAME, 'mod', 'cfg', 'game_keyframe.cfg'), 'utf8')).to.equal('mine\n');
      const lines: { level: string; message: string }[] = [];
      const logger = {
        debug: () => undefined,
        info: () => undefined,
        warn: (message: string) => lines.push({ level: 'warn', message }),
        error: () => undefined,
      };
      withToken.logReport(report, 'Some Game', logger);
      expect(lines.map(({ message }) => message)).to.deep.equal([
        'Kept the game_keyframe.cfg that is already there, but it lacks what this version of Keyframe needs: delete game_keyframe.cfg so that Keyframe writes it again (then copy your own changes into the new file), and restart Some Game.',
      ]);
    });
  });
});
