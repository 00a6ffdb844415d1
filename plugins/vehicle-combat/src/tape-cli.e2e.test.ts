// `keyframe tape record` and `tape play` as a plugin author runs them, on this integration, which reads
// the player's name from the game's client log outside its feeds: the log is kept beside the tape, so
// the tape alone replays to the bookmarks of the live run; and `--game-paths` gives a tape without it one.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loggedInSession, writeClog } from './clog-fixtures.js';
import { HUD_PORT } from './vehicle-combat-integration.js';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.resolve('@keyframe/core'))), 'main.js');
const DATA = fileURLToPath(new URL('../test/data/', import.meta.url));
const LOGS = ['WarThunder', '.game_logs'];

/** A `keyframe tape …` child process; `output` grows as it prints. */
function tapeCommand(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [MAIN, 'tape', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code))).finally(() => clearTimeout(killer));
  const printed = async (pattern: RegExp) => {
    for (let waited = 0; !pattern.test(output.stdout); waited += 20) {
      if (waited > 10_000 || child.exitCode !== null) throw new Error(`never printed ${pattern}:\n${output.stdout}\n${output.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { child, output, exited, printed };
}

/** The bookmark lines `tape record` and `tape play` print: `<seconds> s  <type>`. */
const bookmarkLines = (stdout: string) =>
  [...stdout.matchAll(/^ +(\d+\.\d{3}) s {2}(\w+)/gm)].map(([, time, type]) => ({ time: Number(time), type }));

/** `/hudmsg` as the game serves it: every message with an id above `lastDmg`. */
function hudServer(messages: { id: number; msg: string; time: number }[]): Promise<Server> {
  const server = createServer((request, response) => {
    const lastDmg = Number(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('lastDmg') ?? 0);
    const damage = messages.filter(({ id }) => id > lastDmg).map((message) => ({ ...message, sender: '', enemy: false, mode: '' }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ events: [], damage }));
  });
  return new Promise((resolve, reject) => server.once('error', reject).listen(HUD_PORT, '127.0.0.1', () => resolve(server)));
}

describe('vehicle-combat with keyframe tape (command line)', function () {
  this.timeout(40_000);
  let temp: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'vehicle-combat-tape-cli-'));
    env = {
      KEYFRAME_LOCAL_APPDATA: path.join(temp, 'machine', 'local'),
      KEYFRAME_ROAMING_APPDATA: path.join(temp, 'machine', 'roaming'),
      KEYFRAME_GAME_HOME: path.join(temp, 'machine', 'home'),
      KEYFRAME_STEAM_LIBRARIES: path.join(temp, 'machine', 'steam'),
    };
  });
  afterEach(() => rm(temp, { recursive: true, force: true }));

  it('a tape recorded live keeps the client log it read, and replays from it alone to the same bookmarks', async () => {
    await writeClog(path.join(env.KEYFRAME_LOCAL_APPDATA!, ...LOGS), 'session.clog', loggedInSession('TestPilot'));
    const messages: { id: number; msg: string; time: number }[] = [];
    const server = await hudServer(messages);
    const out = path.join(temp, 'tapes', 'battle.tape.jsonl');
    const record = tapeCommand(['record', 'vehicleCombat', '--out', out, '--data-dir', path.join(temp, 'data')], env);
    try {
      await record.printed(/Play; press Ctrl\+C to finish\./);
      await new Promise((resolve) => setTimeout(resolve, 1200)); // the first answers: the baseline
      messages.push({ id: 1, msg: '=KFT= TestPilot (F-16C) shot down -AB- Early (MiG-29)', time: 100 });
      await record.printed(/Kill/);
      messages.push({ id: 2, msg: '-AB- Early (MiG-29) shot down =KFT= TestPilot (F-16C)', time: 101 });
      await record.printed(/Death/);
    } finally {
      record.child.kill('SIGINT');
      await record.exited;
      await new Promise((resolve) => server.close(resolve));
    }
    const live = bookmarkLines(record.output.stdout);
    expect(
      live.map(({ type }) => type),
      record.output.stdout,
    ).to.deep.equal(['Kill', 'Death']);
    const copy = path.join(temp, 'tapes', 'battle.files', '@game', 'local', ...LOGS, 'session.clog');
    expect(await readFile(copy)).to.deep.equal(await readFile(path.join(env.KEYFRAME_LOCAL_APPDATA!, ...LOGS, 'session.clog')));

    // Played on a machine without the log (GamePaths point nowhere): the tape's copy is what it reads.
    await rm(path.join(temp, 'machine'), { recursive: true });
    const play = tapeCommand(['play', out, '--data-dir', path.join(temp, 'data')], {});
    expect(await play.exited, play.output.stderr).to.equal(0);
    const replayed = bookmarkLines(play.output.stdout);
    expect(
      replayed.map(({ type }) => type),
      play.output.stdout,
    ).to.deep.equal(['Kill', 'Death']);
    replayed.forEach(({ time }, index) => expect(time, `bookmark ${index + 1}`).to.be.closeTo(live[index]!.time, 0.1));
    expect(play.output.stdout).to.not.include('degraded');
  });

  it('tape play --game-paths: a tape without the log reads it from home/, roaming/, local/ and steam/<n>/ of that folder', async () => {
    const tape = path.join(DATA, 'live-match.tape.jsonl');
    const expected = JSON.parse(await readFile(path.join(DATA, 'live-match.expected.json'), 'utf8')) as { bookmarks: { type: string }[] };
    const without = tapeCommand(['play', tape, '--data-dir', path.join(temp, 'data')], {});
    expect(await without.exited, without.output.stderr).to.equal(0);
    expect(bookmarkLines(without.output.stdout), 'nobody to recognise without the log').to.deep.equal([]);

    const folder = path.join(temp, 'game-paths');
    await writeClog(path.join(folder, 'local', ...LOGS), 'session.clog', await readFile(path.join(DATA, 'live-match.clog.txt'), 'utf8'));
    const played = tapeCommand(['play', tape, '--data-dir', path.join(temp, 'data'), '--game-paths', folder], {});
    expect(await played.exited, played.output.stderr).to.equal(0);
    expect(bookmarkLines(played.output.stdout).map(({ type }) => type)).to.deep.equal(expected.bookmarks.map(({ type }) => type));
  });
});
