import 'reflect-metadata';
import { expect } from 'chai';
import type { GameSetting } from '../protocol/index.js';
import { executableMatch, findGameSetting, GameCatalog, loadBundledCatalog, mergeCatalog } from './game-catalog.js';
import { SettingsStore } from '../settings/settings-store.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

const userGame = (name: string, paths: string[], extra: Partial<GameSetting> = {}): GameSetting => ({
  name,
  paths,
  record: true,
  ...extra,
});

describe('game catalog', () => {
  describe('executableMatch', () => {
    it("matches a bare name against the file name, case-insensitively, on any platform's path", () => {
      expect(executableMatch('C:\\Games\\CS2\\game\\bin\\win64\\cs2.exe', 'CS2.EXE')).to.equal(1);
      expect(executableMatch('/home/me/.steam/steamapps/common/cs2/game/bin/linuxsteamrt64/cs2', 'cs2')).to.equal(1);
      expect(executableMatch('/usr/bin/cs2-helper', 'cs2')).to.equal(0);
      expect(executableMatch('League of Legends.exe', 'league of legends.exe')).to.equal(1);
    });

    it('matches a pattern with a folder against the end of the path, at a folder boundary', () => {
      expect(executableMatch('C:\\Games\\My Game\\game.exe', 'C:/Games/My Game/game.exe')).to.equal(2);
      expect(executableMatch('D:/Games/My Game/game.exe', 'My Game/game.exe')).to.equal(2);
      expect(executableMatch('D:/Games/Not My Game/game.exe', 'My Game/game.exe')).to.equal(0);
      expect(executableMatch('/opt/games/game', '/games/game')).to.equal(0);
      expect(executableMatch('/opt/games/game', '/opt/games/game')).to.equal(2);
    });

    it('matches the files under a folder pattern ending in a slash', () => {
      expect(executableMatch('C:/Games/Shooter/bin/shooter.exe', 'Games/Shooter/')).to.equal(2);
      expect(executableMatch('C:/Games/Shooter2/bin/shooter.exe', 'Games/Shooter/')).to.equal(0);
    });

    it('treats * as any text and every other character literally', () => {
      expect(executableMatch('FactoryGameSteam-Win64-Shipping.exe', 'FactoryGame*-Win64-Shipping.exe')).to.equal(1);
      expect(executableMatch('FiveM_GTAProcess.exe', 'FiveM_*GTAProcess.exe')).to.equal(1);
      expect(executableMatch('FiveM_b2944_GTAProcess.exe', 'FiveM_*GTAProcess.exe')).to.equal(1);
      expect(executableMatch('osu!.exe', 'osu!.exe')).to.equal(1);
      expect(executableMatch('Warframe.x64.exe', 'Warframe.x64.exe')).to.equal(1);
      expect(executableMatch('WarframeAx64.exe', 'Warframe.x64.exe')).to.equal(0);
      expect(executableMatch('game.exe', '')).to.equal(0);
    });
  });

  describe('mergeCatalog', () => {
    it('merges by name case-insensitively: the first spelling, ids and icons win, executables are the union', () => {
      const merged = mergeCatalog([
        [{ name: 'Counter-Strike 2', executables: ['cs2.exe', 'cs2'] }],
        [
          { name: 'counter-strike 2', executables: ['CS2.exe', 'cs2'], gameDatabaseId: 7, icon: 'bundled' },
          { name: 'Dota 2', executables: ['dota2.exe'] },
        ],
        [
          { name: 'COUNTER-STRIKE 2 ', executables: ['D:\\CS2\\cs2.exe'], gameDatabaseId: 9, icon: null },
          { name: 'Test Game', executables: ['keyframe-test-game'] },
        ],
      ]);
      expect(merged).to.deep.equal([
        { name: 'Counter-Strike 2', executables: ['cs2.exe', 'cs2', 'D:\\CS2\\cs2.exe'], gameDatabaseId: 7, icon: 'bundled' },
        { name: 'Dota 2', executables: ['dota2.exe'], gameDatabaseId: null, icon: null },
        { name: 'Test Game', executables: ['keyframe-test-game'], gameDatabaseId: null, icon: null },
      ]);
    });

    it('keeps a user game without paths, and drops blank names and executables', () => {
      const merged = mergeCatalog([
        [
          { name: 'Paths Later', executables: [' '] },
          { name: '  ', executables: ['x.exe'] },
        ],
      ]);
      expect(merged).to.deep.equal([{ name: 'Paths Later', executables: [], gameDatabaseId: null, icon: null }]);
    });
  });

  describe('findGameSetting', () => {
    const games = [
      userGame('Counter-Strike 2', ['D:/old/cs2.exe']),
      userGame('My CS', ['C:/Games/CS2/cs2.exe']),
      userGame('Anything named cs2', ['cs2.exe']),
    ];

    it('prefers the entry whose path matches the executable most closely', () => {
      expect(findGameSetting(games, { name: 'Counter-Strike 2', executablePath: 'C:\\Games\\CS2\\cs2.exe' })?.name).to.equal('My CS');
      expect(findGameSetting(games, { name: 'Counter-Strike 2', executablePath: 'E:/elsewhere/cs2.exe' })?.name).to.equal(
        'Anything named cs2',
      );
    });

    it('falls back to the name, case-insensitively', () => {
      expect(findGameSetting(games, { name: 'counter-strike 2', executablePath: '/usr/games/cs2-linux' })?.name).to.equal(
        'Counter-Strike 2',
      );
      expect(findGameSetting(games, { name: 'COUNTER-STRIKE 2' })?.name).to.equal('Counter-Strike 2');
      expect(findGameSetting(games, { name: 'Dota 2', executablePath: '/x/dota2' })).to.equal(undefined);
    });
  });

  describe('the bundled catalog', () => {
    const bundled = loadBundledCatalog();

    it('is valid, about forty games or more, each with executables and a unique name', () => {
      expect(bundled.length).to.be.greaterThanOrEqual(40);
      const names = bundled.map((game) => game.name.toLowerCase());
      expect(new Set(names).size).to.equal(names.length);
      for (const game of bundled) expect(game.executables, game.name).to.not.be.empty;
    });

    it('gives every executable to one game only', () => {
      const owners = new Map<string, string>();
      for (const game of bundled) {
        for (const executable of game.executables) {
          const key = executable.toLowerCase();
          expect(owners.get(key), `${executable} of ${game.name}`).to.equal(undefined);
          owners.set(key, game.name);
        }
      }
    });

    it('knows the games the integrations and the brief name, by their real executables', () => {
      const executablesOf = (name: string) => bundled.find((game) => game.name === name)?.executables;
      expect(executablesOf('Counter-Strike 2')).to.include.members(['cs2.exe', 'cs2']);
      expect(executablesOf('League of Legends')).to.include('League of Legends.exe');
      expect(executablesOf('PUBG: BATTLEGROUNDS')).to.include('TslGame.exe');
      expect(executablesOf('Rocket League')).to.include('RocketLeague.exe');
      expect(executablesOf('Rust')).to.include('RustClient.exe');
      expect(executablesOf('War Thunder')).to.include('aces.exe');
      expect(executablesOf('Grand Theft Auto V')).to.include('GTA5.exe');
      expect(executablesOf('VALORANT')).to.include('VALORANT-Win64-Shipping.exe');
      for (const name of ['Dota 2', 'Fortnite', 'Apex Legends', 'Overwatch 2', 'ELDEN RING', 'Cyberpunk 2077', "Baldur's Gate 3"]) {
        expect(executablesOf(name), name).to.not.be.empty;
      }
    });

    it('leaves Minecraft out: java.exe cannot be told apart from other Java programs', () => {
      expect(
        bundled.some((game) => /minecraft/i.test(game.name) || game.executables.some((executable) => /^javaw?(\.exe)?$/i.test(executable))),
      ).to.equal(false);
    });
  });

  describe('GameCatalog', () => {
    let app: TestApp;
    let settings: SettingsStore;
    let catalog: GameCatalog;

    beforeEach(async () => {
      app = await createTestApp({ settings: {} });
      settings = app.resolve(SettingsStore);
      catalog = app.resolve(GameCatalog);
    });
    afterEach(() => app.dispose());

    it('lists bundled, declared and user games merged by name, the declared spelling first', () => {
      catalog.addSource(() => [
        { name: 'Counter-Strike 2', executables: ['cs2.exe', 'cs2'] },
        { name: 'Plugin Game', executables: ['plugin-game'] },
      ]);
      settings.replace({
        ...settings.current,
        games: [
          userGame('counter-strike 2', ['/games/cs2/cs2'], { gameDatabaseId: 42 }),
          userGame('Test Game', ['keyframe-test-game'], { record: false }),
        ],
      });
      const list = catalog.list();
      const byName = (name: string) => list.filter((game) => game.name.toLowerCase() === name.toLowerCase());
      expect(byName('Counter-Strike 2')).to.deep.equal([
        { name: 'Counter-Strike 2', executables: ['cs2.exe', 'cs2', '/games/cs2/cs2'], gameDatabaseId: 42, icon: null },
      ]);
      expect(byName('Plugin Game')).to.have.length(1);
      expect(byName('Test Game')).to.deep.equal([
        { name: 'Test Game', executables: ['keyframe-test-game'], gameDatabaseId: null, icon: null },
      ]);
      expect(byName('Dota 2')).to.have.length(1);
      expect(list.map((game) => game.name)).to.deep.equal(
        [...list.map((game) => game.name)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
      );
    });

    it('reads its sources at every use, so new settings and plugins show at once', () => {
      let declared = [{ name: 'Late Game', executables: ['late.exe'] }];
      catalog.addSource(() => declared);
      expect(catalog.nameFor('/x/late.exe')).to.equal('Late Game');
      declared = [];
      expect(catalog.nameFor('/x/late.exe')).to.equal(undefined);
      settings.replace({ ...settings.current, games: [userGame('Later Game', ['late.exe'])] });
      expect(catalog.nameFor('/x/late.exe')).to.equal('Later Game');
    });

    it('names an executable by the closest match: a user path beats a bundled file name', () => {
      expect(catalog.nameFor('C:\\Program Files\\Riot Games\\League of Legends\\Game\\League of Legends.exe')).to.equal(
        'League of Legends',
      );
      settings.replace({ ...settings.current, games: [userGame('My Dota Build', ['/home/me/dota/dota2'])] });
      expect(catalog.nameFor('/home/me/dota/dota2')).to.equal('My Dota Build');
      expect(catalog.nameFor('/elsewhere/dota2')).to.equal('Dota 2');
      expect(catalog.nameFor('/bin/unknown-thing')).to.equal(undefined);
    });
  });
});
