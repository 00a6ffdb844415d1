// Game files on tapes: what an integration read while `tape record` ran is kept beside the tape, and a
// replay serves it at the same place under the replay's own GamePaths, version by version.
import 'reflect-metadata';
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Feeds as FeedsService } from '../../sdk/feed-types.js';
import type { GameIntegration } from '../../sdk/game-integration.js';
import { DiskGameFiles, type GameFiles as GameFilesService } from '../../sdk/game-files.js';
import type { Bookmarks as BookmarksService, GamePaths as GamePathsService } from '../../sdk/game-integration.js';
import { Bookmarks, Feeds, GameFiles, GamePaths } from '../../sdk/tokens.js';
import { playTape, TapeHandlerError } from '../../integrations/tape-player.js';
import { GameFileLocations, gamePathsIn } from './game-file-locations.js';
import { RecordedGameFiles } from './recorded-game-files.js';
import { ReplayedGameFiles } from './replayed-game-files.js';
import { isGameFileEntry, readTape, type GameFileTapeEntry } from './tape-format.js';
import { TapeWriter } from './tape-writer.js';
import { SteamInstallation } from '../../sdk/steam/steam-installation.js';
import { write } from '../../sdk/steam/steam-installation.test.js';
import { APP_MANIFEST, LOGIN_USERS } from '../../sdk/steam/vdf.test.js';

const KEY = 'sideFiles';
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('resolved'),
    (error: NodeJS.ErrnoException) => error,
  );

describe('game files on tapes', () => {
  let temp: string;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'keyframe-game-files-'));
  });
  afterEach(() => rm(temp, { recursive: true, force: true }));

  it('names a file by the innermost GamePaths folder holding it, the n-th Steam library by its number, else by its absolute path', async () => {
    const locations = await GameFileLocations.of({
      home: () => '/h',
      localAppData: () => '/h/.local/share',
      roamingAppData: () => '/h/.config',
      steamLibraries: async () => ['/games/a', '/games/b'],
    });
    expect(locations.locate('/h/.local/share/Game/log.txt')).to.equal('local/Game/log.txt');
    expect(locations.locate('/h/notes.txt')).to.equal('home/notes.txt');
    expect(locations.locate('/games/b/steamapps/appmanifest_1.acf')).to.equal('steam/1/steamapps/appmanifest_1.acf');
    expect(locations.locate('/hx/file')).to.equal('/hx/file');
  });

  it('records each read once per content (a copy, a listing, or "not there") and replays them at the same places elsewhere', async () => {
    const machine = gamePathsIn(path.join(temp, 'machine'));
    const folder = path.join(machine.localAppData(), 'Game');
    const config = path.join(folder, 'player.cfg');
    await mkdir(folder, { recursive: true });
    await writeFile(config, 'name=Ace');
    const tapeFile = path.join(temp, 'tapes', 'x.tape.jsonl');
    const writer = new TapeWriter(tapeFile, { integration: KEY });
    const recorded = new RecordedGameFiles(new DiskGameFiles(), await GameFileLocations.of(machine), writer);

    expect(await recorded.readText(config)).to.equal('name=Ace');
    expect(await recorded.readText(config), 'read again, unchanged: no new line').to.equal('name=Ace');
    expect(await recorded.exists(config), 'there, and already copied: no new line').to.equal(true);
    const listing = await recorded.list(folder);
    const missing = await rejection(recorded.read(path.join(folder, 'absent.cfg')));
    await writeFile(config, 'name=Bee');
    expect(await recorded.readText(config)).to.equal('name=Bee');

    const tape = await readTape(tapeFile);
    const lines = tape.entries.filter(isGameFileEntry);
    expect(
      lines.map(({ gameFile, state }) => ({ gameFile, ...('absolutePath' in state ? { snapshot: state.snapshot } : state) })),
    ).to.deep.equal([
      { gameFile: 'local/Game/player.cfg', snapshot: 'local/Game/player.cfg' },
      { gameFile: 'local/Game', entries: listing },
      { gameFile: 'local/Game/absent.cfg', exists: false },
      { gameFile: 'local/Game/player.cfg', snapshot: 'local/Game/player.cfg#2' },
    ]);
    expect(await readFile(path.join(temp, 'tapes', 'x.files', '@game', 'local', 'Game', 'player.cfg'), 'utf8')).to.equal('name=Ace');

    // Replayed where GamePaths point elsewhere: the same places read the same, as far as the replay has come.
    const elsewhere = gamePathsIn(path.join(temp, 'elsewhere'));
    const replayed = new ReplayedGameFiles(await GameFileLocations.of(elsewhere));
    const there = path.join(elsewhere.localAppData(), 'Game');
    const apply = (count: number) => lines.slice(0, count).forEach((line: GameFileTapeEntry) => replayed.apply(line));
    apply(3);
    expect(await replayed.readText(path.join(there, 'player.cfg'))).to.equal('name=Ace');
    expect(await replayed.list(there)).to.deep.equal(listing);
    expect(await replayed.exists(path.join(there, 'player.cfg'))).to.equal(true);
    expect(await replayed.exists(path.join(there, 'absent.cfg'))).to.equal(false);
    const replayedMissing = await rejection(replayed.read(path.join(there, 'absent.cfg')));
    expect({ code: replayedMissing.code, syscall: replayedMissing.syscall }).to.deep.equal({
      code: missing.code,
      syscall: missing.syscall,
    });
    const never = await rejection(replayed.read(path.join(there, 'never-read.cfg')));
    expect(never.code, 'a file the tape did not capture is missing').to.equal('ENOENT');
    expect(never.message).to.equal(`ENOENT: no such file or directory, open '${path.join(there, 'never-read.cfg')}'`);
    apply(4);
    expect(await replayed.readText(path.join(there, 'player.cfg'))).to.equal('name=Bee');
  });

  it('the Steam helper reads through GameFiles: a tape recorded on one machine tells the same user and game folder on another', async () => {
    const paths = gamePathsIn(path.join(temp, 'machine'));
    const root = path.join(paths.home(), '.steam', 'steam');
    await write(path.join(root, 'config', 'loginusers.vdf'), LOGIN_USERS);
    await mkdir(path.join(root, 'steamapps'), { recursive: true });
    await write(path.join(temp, 'machine', 'steam', '0', 'steamapps', 'appmanifest_730.acf'), APP_MANIFEST);
    const tapeFile = path.join(temp, 'tapes', 'steam.tape.jsonl');
    const recording = new RecordedGameFiles(
      new DiskGameFiles(),
      await GameFileLocations.of(paths),
      new TapeWriter(tapeFile, { integration: KEY }),
    );
    const live = new SteamInstallation(paths, recording, { platform: 'linux' });
    const user = await live.activeUser();
    expect(user?.accountName).to.equal('ace_pilot');
    await live.gameFolder(730);

    const elsewhere = gamePathsIn(path.join(temp, 'elsewhere'));
    await mkdir(path.join(temp, 'elsewhere', 'steam', '0'), { recursive: true });
    const replayed = new ReplayedGameFiles(await GameFileLocations.of(elsewhere));
    for (const entry of (await readTape(tapeFile)).entries.filter(isGameFileEntry)) replayed.apply(entry);
    const again = new SteamInstallation(elsewhere, replayed, { platform: 'linux' });
    expect(await again.activeUser()).to.deep.equal(user);
    expect(await again.gameFolder(730)).to.equal(
      path.join(temp, 'elsewhere', 'steam', '0', 'steamapps', 'common', 'Counter-Strike Global Offensive'),
    );
  });

  it('playTape: a handler reads the version its tape line was read with, and the files read in activate()', async () => {
    @injectable()
    class ReadingIntegration implements GameIntegration {
      constructor(
        @inject(Feeds) private readonly feeds: FeedsService,
        @inject(Bookmarks) private readonly bookmarks: BookmarksService,
        @inject(GamePaths) private readonly paths: GamePathsService,
        @inject(GameFiles) private readonly files: GameFilesService,
      ) {}
      async activate(): Promise<void> {
        const file = path.join(this.paths.home(), 'profile.txt');
        const profile = await this.files.readText(file);
        this.feeds.poll('api', { url: 'http://127.0.0.1:1/', intervalMs: 1000 }).onInput(async () => {
          const score = await this.files.readText(path.join(this.paths.localAppData(), 'score.txt'));
          await this.bookmarks.add({ type: 'Kill', subtype: `${profile} ${score}` });
        });
      }
      async deactivate(): Promise<void> {}
    }
    const tapeFile = path.join(temp, 'read.tape.jsonl');
    await mkdir(path.join(temp, 'read.files', '@game', 'local'), { recursive: true });
    await mkdir(path.join(temp, 'read.files', '@game', 'home'), { recursive: true });
    await writeFile(path.join(temp, 'read.files', '@game', 'home', 'profile.txt'), 'Ace');
    await writeFile(path.join(temp, 'read.files', '@game', 'local', 'score.txt'), '1');
    await writeFile(path.join(temp, 'read.files', '@game', 'local', 'score.txt#2'), '2');
    const poll = (t: number) => ({ t, feed: 'api', kind: 'poll', status: 200, body: '{}' });
    await writeFile(
      tapeFile,
      [
        { tape: 1, integration: KEY, recordedAt: '2026-01-01T00:00:00.000Z' },
        { t: 0, gameFile: 'home/profile.txt', snapshot: 'home/profile.txt' },
        poll(1000),
        { t: 1001, gameFile: 'local/score.txt', snapshot: 'local/score.txt' },
        poll(2000),
        { t: 2002, gameFile: 'local/score.txt', snapshot: 'local/score.txt#2' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const playback = await playTape(tapeFile, { integrationClass: ReadingIntegration, key: KEY, defaultGame: { name: 'Game' } });
    expect(playback.bookmarks.map(({ time, subtype }) => ({ time, subtype }))).to.deep.equal([
      { time: 1, subtype: 'Ace 1' },
      { time: 2, subtype: 'Ace 2' },
    ]);
  });

  it('playTape: a handler that throws fails the replay naming the tape line, the feed and t, with the stack', async () => {
    @injectable()
    class ThrowingIntegration implements GameIntegration {
      constructor(@inject(Feeds) private readonly feeds: FeedsService) {}
      async activate(): Promise<void> {
        this.feeds.poll('api', { url: 'http://127.0.0.1:1/', intervalMs: 1000 }).onInput((input) => {
          readScore(input);
        });
      }
      async deactivate(): Promise<void> {}
    }
    const tapeFile = path.join(temp, 'throw.tape.jsonl');
    await writeFile(
      tapeFile,
      [
        JSON.stringify({ tape: 1, integration: KEY, recordedAt: '2026-01-01T00:00:00.000Z' }),
        JSON.stringify({ t: 500, feed: 'api', kind: 'poll', status: 200, body: '{}' }),
        '',
        JSON.stringify({ t: 8000, feed: 'api', kind: 'poll', status: 200, body: 'null' }),
      ].join('\n'),
    );
    const error = await rejection(playTape(tapeFile, { integrationClass: ThrowingIntegration, key: KEY, defaultGame: { name: 'Game' } }));
    expect(error).to.be.instanceOf(TapeHandlerError);
    const [first, ...frames] = error.message.split('\n');
    expect(first).to.match(/^line 4 \(feed api, t=8\.000\): TypeError: Cannot read properties of null/);
    expect(frames[0]).to.match(/^ +at readScore \(.*game-files-tape\.test\.js:\d+:\d+\)$/);
    expect(frames.join('\n')).to.not.include('node:internal');
  });
});

function readScore(input: unknown): number {
  return (JSON.parse((input as { body: string }).body) as { score: number }).score;
}
