// `keyframe tape play` and `keyframe tape record`, run as a user runs them: `node core/dist/main.js tape …`.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isFeedEntry, readTape, type FeedEntry } from '@keyframe/core/tapes';
import { createTempFolder, postAsGame, readPushToken, type TempFolder, withPushToken } from '@keyframe/integration-testkit';

// The compiled test runs from test/dist/e2e/.
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = path.join(REPO, 'core', 'dist', 'main.js');
const DATA = path.join(REPO, 'plugins', 'tactical-shooter', 'test', 'data');
const GSI_PORT = 1340;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A `keyframe tape …` process with its output so far. */
class TapeProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Finished>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly child: ChildProcess,
    timeoutMs: number,
  ) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    // A hung process must not hang the suite: it is killed and its output shown.
    this.timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    this.exited = new Promise((resolve) =>
      child.once('close', (code, signal) => {
        clearTimeout(this.timer);
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      }),
    );
  }

  static start(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 8000): TapeProcess {
    return new TapeProcess(
      spawn(process.execPath, [MAIN, 'tape', ...args], {
        cwd: REPO,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      timeoutMs,
    );
  }

  /** Resolves once stdout matches `pattern`; rejects with the output if the process ends or takes too long first. */
  async printed(pattern: RegExp, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.exited.then(() => {
      ended = true;
    });
    while (!pattern.test(this.stdout)) {
      if (ended || Date.now() > deadline) {
        throw new Error(
          `${ended ? 'exited' : `nothing after ${timeoutMs} ms`} before printing ${pattern}:\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const describeRun = (run: Finished) => `exit ${run.code ?? run.signal}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;

/** The bookmark lines `tape play` prints: `<seconds> s  <type>`. */
function bookmarkLines(stdout: string): { time: number; type: string }[] {
  return [...stdout.matchAll(/^ +(\d+\.\d{3}) s {2}(\w+)/gm)].map((match) => ({ time: Number(match[1]), type: match[2]! }));
}

/** A Game State Integration push of the local player in a live match, like those in the plugin's tapes. */
function gsiBody(kills: number, second: number): string {
  const steamid = '76561198000000001';
  return JSON.stringify({
    provider: { name: 'Counter-Strike: Global Offensive', appid: 730, version: 14120, steamid, timestamp: 1763800000 + second },
    map: { mode: 'competitive', name: 'de_mirage', phase: 'live', round: 1, team_ct: { score: 0 }, team_t: { score: 0 } },
    player: {
      steamid,
      name: 'Me',
      observer_slot: 1,
      team: 'CT',
      activity: 'playing',
      match_stats: { kills, assists: 0, deaths: 0, mvps: 0, score: kills * 2 },
    },
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A third party's package, plain JavaScript, inside the repository (so that `@keyframe/core` and
 * tsyringe resolve): a kill for each console line that says so (tcp) and for each `lap` datagram (udp).
 */
async function writeSocketsPlugin(folder: string, ports: { tcp: number; udp: number }): Promise<void> {
  await mkdir(folder, { recursive: true });
  const manifest = {
    apiVersion: 1,
    integration: {
      key: 'socketsGame',
      displayName: 'Sockets game',
      events: ['Kill'],
      games: [{ name: 'Sockets game', executables: ['sockets-game.exe'] }],
      feeds: [`udp:${ports.udp}`, 'tcp'],
    },
  };
  await writeFile(
    path.join(folder, 'package.json'),
    JSON.stringify({ name: 'keyframe-plugin-sockets-game', version: '1.0.0', type: 'module', main: 'index.js', keyframe: manifest }),
  );
  await writeFile(
    path.join(folder, 'index.js'),
    `import 'reflect-metadata';
import { inject, injectable } from 'tsyringe';
import { Bookmarks, Feeds } from '@keyframe/core';

class SocketsGame {
  constructor(feeds, bookmarks) {
    this.feeds = feeds;
    this.bookmarks = bookmarks;
  }
  async activate() {
    const telemetry = this.feeds.udp('telemetry', { port: ${ports.udp} });
    telemetry.onInput((input) => (input.message === 'lap' ? this.bookmarks.add({ type: 'Kill' }) : undefined));
    await telemetry.ready;
    this.feeds
      .tcp('console', { port: ${ports.tcp}, reconnect: { initialDelayMs: 20 } })
      .onInput((input) => ('line' in input && input.line.includes('killed') ? this.bookmarks.add({ type: 'Kill' }) : undefined));
  }
  async deactivate() {}
}
inject(Feeds)(SocketsGame, undefined, 0);
inject(Bookmarks)(SocketsGame, undefined, 1);
injectable()(SocketsGame);
export default SocketsGame;
`,
  );
}

describe('keyframe tape (command line)', function () {
  this.timeout(20_000);
  let temp: TempFolder;
  let running: TapeProcess | undefined;

  beforeEach(async () => {
    temp = await createTempFolder('keyframe-tape-cli-');
  });
  afterEach(async () => {
    // Only a process this test started, and only when a failed test left it running.
    if (running && running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
    await running?.exited;
    running = undefined;
    await temp.remove();
  });

  const play = async (tape: string) => {
    running = TapeProcess.start(['play', tape, '--data-dir', path.join(temp.path, 'data')]);
    return running.exited;
  };

  it('play: replays the live-match tape into the installed integration and prints its bookmarks', async () => {
    const tape = path.join(DATA, 'live-match.tape.jsonl');
    const run = await play(tape);
    expect(run.code, describeRun(run)).to.equal(0);
    const expected = JSON.parse(await readFile(path.join(DATA, 'live-match.expected.json'), 'utf8')) as {
      tolerance?: number;
      bookmarks: { type: string; time: number }[];
    };
    expect(expected.bookmarks).to.have.length(6);
    const printed = bookmarkLines(run.stdout);
    expect(
      printed.map(({ type }) => type),
      run.stdout,
    ).to.deep.equal(expected.bookmarks.map(({ type }) => type));
    printed.forEach(({ time }, index) => {
      expect(time, `time of bookmark ${index + 1}`).to.be.closeTo(expected.bookmarks[index]!.time, expected.tolerance ?? 0.5);
    });
    const entries = (await readTape(tape)).entries.length;
    expect(run.stdout.split('\n')[0]).to.equal(`live-match.tape.jsonl: ${entries} entries, 6 bookmarks`);
    expect(run.stderr).to.equal('');
  });

  it("play: a tape that names the game's executable writes the data folder's token into its config, never a replay token", async () => {
    // A tape recorded on this machine: its header names the running game, whose folder holds the config.
    const game = path.join(temp.path, 'cs2', 'game');
    await mkdir(path.join(game, 'csgo'), { recursive: true });
    const [header, ...entries] = (await readFile(path.join(DATA, 'live-match.tape.jsonl'), 'utf8')).split('\n');
    const tape = path.join(temp.path, 'here.tape.jsonl');
    const named = {
      ...(JSON.parse(header!) as Record<string, unknown>),
      game: { name: 'Counter-Strike 2', executablePath: path.join(game, 'bin', 'linuxsteamrt64', 'cs2') },
    };
    await writeFile(tape, [JSON.stringify(named), ...entries].join('\n'));
    const run = await play(tape);
    expect(run.code, describeRun(run)).to.equal(0);
    const config = await readFile(path.join(game, 'csgo', 'cfg', 'gamestate_integration_keyframe.cfg'), 'utf8');
    expect(config).to.include(`"token"\t"${await readPushToken(path.join(temp.path, 'data'))}"`);
  });

  describe('record', () => {
    before(async function () {
      if (!(await portIsFree(GSI_PORT))) {
        throw new Error(
          `port ${GSI_PORT} on 127.0.0.1 is in use by another program (a running Keyframe or Counter-Strike tool?); ` +
            'tape record listens there: stop that program and run the test again',
        );
      }
    });

    it('writes every push to a tape until Ctrl+C, and the tape plays back the same kills', async () => {
      const out = path.join(temp.path, 'tapes', 'x.tape.jsonl');
      const steam = path.join(temp.path, 'steam');
      await mkdir(steam); // no Steam library with the game: no config is written anywhere
      running = TapeProcess.start(['record', 'tacticalShooter', '--out', out, '--data-dir', path.join(temp.path, 'data')], {
        KEYFRAME_STEAM_LIBRARIES: steam,
      });
      await running.printed(/Recording tacticalShooter \(.+\) to .+ Play; press Ctrl\+C to finish\./);

      const bodies = [gsiBody(0, 0), gsiBody(1, 1), gsiBody(2, 2)];
      // The token of the data folder, which the game's config would carry.
      const token = await readPushToken(path.join(temp.path, 'data'));
      for (const [index, body] of bodies.entries()) {
        expect(await postAsGame(GSI_PORT, withPushToken(body, token)), `push ${index + 1}`).to.equal(200);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      // The integration counts while recording: the first push is the baseline, then one kill per push.
      await running.printed(/Kill[\s\S]*Kill/);
      running.child.kill('SIGINT');
      const run = await running.exited;
      expect(run.code, describeRun(run)).to.equal(0);
      expect(run.stdout).to.include(`3 inputs written to ${out}`);
      expect(bookmarkLines(run.stdout).map(({ type }) => type)).to.deep.equal(['Kill', 'Kill']);
      expect(await readdir(steam), 'nothing written into the Steam library').to.deep.equal([]);

      const tape = await readTape(out);
      expect(tape.header).to.include({ tape: 1, integration: 'tacticalShooter' });
      expect(tape.header.game?.name).to.equal('Counter-Strike 2');
      expect(new Date(tape.header.recordedAt).getTime()).to.be.closeTo(Date.now(), 20_000);
      expect(tape.entries.every(isFeedEntry)).to.equal(true);
      const entries = tape.entries as FeedEntry<'httpPush'>[];
      expect(
        entries.map(({ feed, kind, input }) => ({
          feed,
          kind,
          method: input.method,
          path: input.path,
          body: input.body,
          userAgent: input.userAgent,
        })),
      ).to.deep.equal(
        bodies.map((body) => ({
          feed: 'gsi',
          kind: 'httpPush',
          method: 'POST',
          path: '/',
          body: withPushToken(body, 'REDACTED'),
          userAgent: 'Valve/Steam HTTP Client 1.0 (730)',
        })),
      );
      expect(await readFile(out, 'utf8'), 'the tape never holds the token').to.not.include(token);
      expect(entries[1]!.t).to.be.above(entries[0]!.t);
      expect(entries[2]!.t).to.be.above(entries[1]!.t);

      const replay = await play(out);
      expect(replay.code, describeRun(replay)).to.equal(0);
      expect(replay.stdout.split('\n')[0]).to.equal('x.tape.jsonl: 3 entries, 2 bookmarks');
      expect(bookmarkLines(replay.stdout)).to.deep.equal([
        { time: Number((entries[1]!.t / 1000).toFixed(3)), type: 'Kill' },
        { time: Number((entries[2]!.t / 1000).toFixed(3)), type: 'Kill' },
      ]);
    });
  });

  it("record: a third party's tcp and udp feeds are taped live, and the tape plays back the same kills", async () => {
    const plugins = path.join(REPO, '.test-plugins', `tape-sockets-${randomBytes(4).toString('hex')}`);
    const consoleSockets: Socket[] = [];
    const gameConsole = createServer((socket) => consoleSockets.push(socket));
    const sender = createSocket('udp4');
    try {
      await new Promise<void>((resolve) => gameConsole.listen(0, '127.0.0.1', resolve));
      const udp = await new Promise<number>((resolve) => {
        const probe = createSocket('udp4');
        probe.bind(0, '127.0.0.1', () => {
          const { port } = probe.address();
          probe.close(() => resolve(port));
        });
      });
      await writeSocketsPlugin(path.join(plugins, 'keyframe-plugin-sockets-game'), {
        tcp: (gameConsole.address() as AddressInfo).port,
        udp,
      });
      const env = { KEYFRAME_PLUGIN_DIRS: plugins };
      const out = path.join(temp.path, 'sockets.tape.jsonl');
      const data = path.join(temp.path, 'data');
      running = TapeProcess.start(['record', 'socketsGame', '--out', out, '--data-dir', data], env);
      await running.printed(/Recording socketsGame .* Play; press Ctrl\+C to finish\./);
      const deadline = Date.now() + 5000;
      while (consoleSockets.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(consoleSockets, 'the tcp feed connected to the game console').to.have.length(1);

      consoleSockets[0]!.write('Player killed Bot\n');
      await running.printed(/Kill/);
      await new Promise<void>((resolve) => sender.send('lap', udp, '127.0.0.1', () => resolve()));
      await running.printed(/Kill[\s\S]*Kill/);
      running.child.kill('SIGINT');
      const run = await running.exited;
      expect(run.code, describeRun(run)).to.equal(0);
      const recorded = bookmarkLines(run.stdout);

      const tape = await readTape(out);
      expect(tape.entries.filter(isFeedEntry).map(({ feed, kind, input }) => ({ feed, kind, input }))).to.deep.equal([
        { feed: 'console', kind: 'tcp', input: { connection: 'opened' } },
        { feed: 'console', kind: 'tcp', input: { line: 'Player killed Bot' } },
        { feed: 'telemetry', kind: 'udp', input: { message: 'lap', from: `127.0.0.1:${sender.address().port}` } },
      ]);

      running = TapeProcess.start(['play', out, '--data-dir', data], env);
      const replay = await running.exited;
      expect(replay.code, describeRun(replay)).to.equal(0);
      expect(replay.stdout.split('\n')[0]).to.equal('sockets.tape.jsonl: 3 entries, 2 bookmarks');
      expect(bookmarkLines(replay.stdout).map(({ type }) => type)).to.deep.equal(recorded.map(({ type }) => type));
      expect(bookmarkLines(replay.stdout).map(({ time }) => time)).to.deep.equal(
        tape.entries
          .filter(isFeedEntry)
          .slice(1)
          .map(({ t }) => Number((t / 1000).toFixed(3))),
      );
    } finally {
      for (const socket of consoleSockets) socket.destroy();
      await new Promise((resolve) => gameConsole.close(resolve));
      sender.close();
      await rm(plugins, { recursive: true, force: true });
    }
  });

  describe('play refuses', () => {
    it('a tape that does not exist, naming it', async () => {
      const missing = path.join(temp.path, 'nowhere.tape.jsonl');
      const run = await play(missing);
      expect(run.code, describeRun(run)).to.not.equal(0);
      expect(run.stderr)
        .to.include(missing)
        .and.match(/no such tape/i);
      expect(bookmarkLines(run.stdout)).to.deep.equal([]);
    });

    it('a tape of an integration that is not installed, saying which are', async () => {
      const tape = path.join(temp.path, 'other.tape.jsonl');
      await writeFile(
        tape,
        [
          JSON.stringify({ tape: 1, integration: 'noSuchGame', recordedAt: '2026-01-01T00:00:00.000Z' }),
          JSON.stringify({ t: 0, feed: 'gsi', kind: 'httpPush', method: 'POST', path: '/', body: '{}' }),
          '',
        ].join('\n'),
      );
      const run = await play(tape);
      expect(run.code, describeRun(run)).to.not.equal(0);
      expect(run.stderr).to.match(/no integration with key noSuchGame is installed \(found: [^)]*tacticalShooter/);
      expect(run.stdout).to.equal('');
    });

    it('a broken tape, with file:line', async () => {
      const tape = path.join(temp.path, 'broken.tape.jsonl');
      await writeFile(
        tape,
        `${JSON.stringify({ tape: 1, integration: 'tacticalShooter', recordedAt: '2026-01-01T00:00:00.000Z' })}\n{"t": 0,\n`,
      );
      const run = await play(tape);
      expect(run.code, describeRun(run)).to.not.equal(0);
      expect(run.stderr).to.include(`${tape}:2: not JSON`);
    });
  });

  describe('a handler that throws', () => {
    const KEY = 'throwingGame';
    // A plugin a developer keeps in a folder of their own (KEYFRAME_PLUGIN_DIRS).
    const writeThrowingPlugin = async () => {
      const plugins = path.join(temp.path, 'dev-plugins');
      const folder = path.join(plugins, 'keyframe-plugin-throwing-game');
      // The repo's SDK and DI container where Node looks from the plugin's folder up (not bundled in the package).
      const modules = path.join(temp.path, 'node_modules');
      await mkdir(path.join(modules, '@keyframe'), { recursive: true });
      await symlink(path.join(REPO, 'core'), path.join(modules, '@keyframe', 'core'), 'dir');
      await symlink(path.join(REPO, 'node_modules', 'tsyringe'), path.join(modules, 'tsyringe'), 'dir');
      await mkdir(folder, { recursive: true });
      const integration = {
        key: KEY,
        displayName: 'Throwing game',
        events: ['Kill'],
        games: [{ name: 'Throwing game', executables: ['throwing-game'] }],
      };
      await writeFile(
        path.join(folder, 'package.json'),
        JSON.stringify({
          name: 'keyframe-plugin-throwing-game',
          version: '1.0.0',
          type: 'module',
          main: 'index.js',
          keyframe: { apiVersion: 1, integration: { ...integration, feeds: ['poll'] } },
        }),
      );
      await writeFile(
        path.join(folder, 'index.js'),
        [
          "import { Feeds } from '@keyframe/core';",
          "import { inject, injectable } from 'tsyringe';",
          'class ThrowingGame {',
          '  constructor(feeds) { this.feeds = feeds; }',
          '  async activate() {',
          '    const url = `http://127.0.0.1:${process.env.THROWING_GAME_PORT ?? 1}/score`;',
          "    this.feeds.poll('scores', { url, intervalMs: 200 }).onInput((input) => { readScore(input); });",
          '  }',
          '  async deactivate() {}',
          '}',
          'function readScore(input) {',
          '  return JSON.parse(input.body).score.value;',
          '}',
          'inject(Feeds)(ThrowingGame, undefined, 0);',
          'injectable()(ThrowingGame);',
          'export default ThrowingGame;',
          '',
        ].join('\n'),
      );
      return { KEYFRAME_PLUGIN_DIRS: plugins };
    };
    const PLUGIN_FRAME = /^ {4}at readScore \(.*keyframe-plugin-throwing-game\/index\.js:12:\d+\)$/m;

    it('play: prints the tape line, its feed and t, and the stack inside the plugin, and exits non-zero', async () => {
      const env = await writeThrowingPlugin();
      const tape = path.join(temp.path, 'throws.tape.jsonl');
      const poll = (t: number, body: string) => JSON.stringify({ t, feed: 'scores', kind: 'poll', status: 200, body });
      await writeFile(
        tape,
        [
          JSON.stringify({ tape: 1, integration: KEY, recordedAt: '2026-01-01T00:00:00.000Z' }),
          poll(500, '{"score": {"value": 1}}'),
          '',
          poll(8000, '{}'),
          '',
        ].join('\n'),
      );
      running = TapeProcess.start(['play', tape, '--data-dir', path.join(temp.path, 'data')], env);
      const run = await running.exited;
      expect(run.code, describeRun(run)).to.equal(1);
      expect(run.stderr).to.include("line 4 (feed scores, t=8.000): TypeError: Cannot read properties of undefined (reading 'value')\n");
      expect(run.stderr).to.match(PLUGIN_FRAME);
      expect(run.stderr, "Node's and the host's frames are left out").to.not.match(/node:internal|core\/dist/);
    });

    it('record: prints the stack of the handler that threw, and goes on recording', async () => {
      const env = await writeThrowingPlugin();
      const server = createHttpServer((_request, response) => response.end('{}'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const out = path.join(temp.path, 'throws.tape.jsonl');
        const port = String((server.address() as AddressInfo).port);
        running = TapeProcess.start(['record', KEY, '--out', out, '--data-dir', path.join(temp.path, 'data')], {
          ...env,
          THROWING_GAME_PORT: port,
        });
        await running.printed(/Play; press Ctrl\+C to finish\./);
        for (let waited = 0; !PLUGIN_FRAME.test(running.stderr) && waited < 5000; waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50));
        running.child.kill('SIGINT');
        const run = await running.exited;
        expect(run.code, describeRun(run)).to.equal(0);
        expect(run.stderr).to.include(`[${KEY}] error: feed "scores": the integration failed to handle an input`);
        expect(run.stderr).to.include("TypeError: Cannot read properties of undefined (reading 'value')");
        expect(run.stderr).to.match(PLUGIN_FRAME);
        expect((await readTape(out)).entries.length, 'the inputs are on the tape all the same').to.be.above(0);
      } finally {
        server.close();
      }
    });
  });
});
