import 'reflect-metadata';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunningProcess } from '../platform/process-list.js';
import { Logger } from '../support/logger.js';
import { GameCatalog } from './game-catalog.js';
import { GameDetector, matchGames, PROCESS_LISTER, systemProcessLister, type RunningGame } from './game-detector.js';
import { SettingsStore } from '../settings/settings-store.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

describe('GameDetector', () => {
  describe('matchGames', () => {
    const processes: RunningProcess[] = [
      { pid: 10, executable: '/usr/lib/systemd/systemd' },
      { pid: 20, executable: 'C:\\Games\\Satisfactory\\Engine\\FactoryGameSteam-Win64-Shipping.exe' },
      { pid: 30, executable: '/home/me/games/keyframe-test-game' },
    ];

    it('finds each known game once, by file name, wildcard or path', () => {
      const found = matchGames(processes, [
        { name: 'Satisfactory', executables: ['FactoryGame*-Win64-Shipping.exe'] },
        { name: 'Test Game', executables: ['/home/me/games/keyframe-test-game'] },
        { name: 'Same Test Game', executables: ['keyframe-test-game'] },
        { name: 'Not Running', executables: ['nope.exe'] },
      ]);
      expect(found).to.deep.equal([
        { name: 'Satisfactory', executablePath: 'C:\\Games\\Satisfactory\\Engine\\FactoryGameSteam-Win64-Shipping.exe', pid: 20 },
        { name: 'Test Game', executablePath: '/home/me/games/keyframe-test-game', pid: 30 },
        { name: 'Same Test Game', executablePath: '/home/me/games/keyframe-test-game', pid: 30 },
      ]);
    });
  });

  describe('with the catalog', () => {
    let app: TestApp;
    let settings: SettingsStore;
    let processes: RunningProcess[];
    let detector: GameDetector;
    let catalog: GameCatalog;

    beforeEach(async () => {
      processes = [];
      app = await createTestApp({ settings: {}, overrides: [[PROCESS_LISTER, async () => processes]] });
      settings = app.resolve(SettingsStore);
      catalog = app.resolve(GameCatalog);
      detector = app.resolve(GameDetector);
    });
    afterEach(async () => {
      detector.stop();
      await app.dispose();
    });

    it('watches bundled games, user games (record: false included) and integration games, which join the catalog', async () => {
      detector.addCatalog(() => [{ name: 'Plugin Game', executables: ['plugin-game.exe'] }]);
      settings.replace({ ...settings.current, games: [{ name: 'Never Recorded', paths: ['never'], record: false }] });
      expect(catalog.list().map((game) => game.name)).to.include.members(['Plugin Game', 'Never Recorded', 'Dota 2']);

      const changes: (readonly RunningGame[])[] = [];
      detector.onChange((running) => changes.push(running));
      processes = [
        { pid: 1, executable: 'C:/Steam/steamapps/common/dota 2 beta/game/bin/win64/dota2.exe' },
        { pid: 2, executable: '/opt/never' },
        { pid: 3, executable: 'Z:\\games\\plugin-game.exe' },
      ];
      const running = await detector.detect();
      expect(running.map((game) => `${game.name}:${game.pid}`).sort()).to.deep.equal(['Dota 2:1', 'Never Recorded:2', 'Plugin Game:3']);
      expect(changes).to.have.length(1);

      await detector.detect();
      expect(changes, 'no change, no event').to.have.length(1);
      processes = processes.slice(1);
      await detector.detect();
      expect(changes[1]!.map((game) => game.name).sort()).to.deep.equal(['Never Recorded', 'Plugin Game']);
    });

    it('keeps the last answer when the process list cannot be read', async () => {
      let failing = false;
      const flaky = new GameDetector(
        async () => {
          if (failing) throw new Error('no /proc');
          return [{ pid: 7, executable: '/games/cs2' }];
        },
        new Logger([]),
        catalog,
      );
      let changes = 0;
      flaky.onChange(() => {
        changes += 1;
      });
      await flaky.detect();
      failing = true;
      expect((await flaky.detect()).map((game) => game.name)).to.deep.equal(['Counter-Strike 2']);
      expect(changes, 'a failed listing is no exit').to.equal(1);
    });
  });

  it('without a catalog watches only the sources added to it', async () => {
    const detector = new GameDetector(
      async () => [
        { pid: 5, executable: '/games/dota2' },
        { pid: 6, executable: '/games/mine' },
      ],
      new Logger([]),
    );
    detector.addCatalog(() => [{ name: 'Mine', executables: ['mine'] }]);
    expect((await detector.detect()).map((game) => game.name)).to.deep.equal(['Mine']);
  });

  describe('systemProcessLister', () => {
    it('with KEYFRAME_GAME_PROCESS_ROOT lists only the processes whose executable is in that folder', async function () {
      if (process.platform !== 'linux') this.skip();
      const root = await mkdtemp(path.join(os.tmpdir(), 'keyframe-process-root-'));
      const executable = path.join(root, 'stand-in-game');
      await copyFile('/bin/sleep', executable);
      const game = spawn(executable, ['30'], { stdio: 'ignore' });
      try {
        await once(game, 'spawn');
        const inRoot = await systemProcessLister({ KEYFRAME_GAME_PROCESS_ROOT: root })();
        expect(inRoot.map((running) => running.pid)).to.deep.equal([game.pid]);
        const everything = await systemProcessLister({})();
        expect(everything.map((running) => running.pid)).to.include.members([game.pid, process.pid]);
      } finally {
        game.kill('SIGKILL');
        await rm(root, { recursive: true, force: true });
      }
    });
  });
});
