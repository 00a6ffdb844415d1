// arena-game-a end to end: the real service detects "League of Legends.exe", activates during a
// synthetic recording and polls a stand-in for the game's Live Client Data API (HTTPS on
// 127.0.0.1:2999, a certificate made for this run). The stand-in serves the recorded answer of a real
// match and plays five more of the player's fights on a game clock; their bookmarks land in `State`
// at the fights' game times and end in the finished session's metadata.
import 'reflect-metadata';
import { createTempFolder, ProtocolClient, ServiceProcess, type TempFolder } from '@keyframe/test';
import { expect } from 'chai';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, readlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { PLAYING_FILE, readGameDataText, skipWithoutGameData } from './recorded-game-data.js';

const run = promisify(execFile);
const PLAYER = 'mikehpoo';

interface RecordedAnswer {
  allPlayers: Array<{ summonerName: string; scores: Record<string, number> }>;
  events: { Events: Array<Record<string, unknown>> };
  gameData: { gameTime: number };
}

/** The player's fights after the recorded answer, in seconds after the game resumes. */
const FIGHTS = [
  { after: 1.0, type: 'Kill', killer: PLAYER, victim: 'Japudi', assisters: [] },
  { after: 2.0, type: 'Death', killer: 'GhostBig', victim: PLAYER, assisters: ['KubiK651'] },
  { after: 2.6, type: 'Assist', killer: 'wezznco', victim: 'MoRice651', assisters: [PLAYER] },
  { after: 3.4, type: 'Kill', killer: PLAYER, victim: 'GrantReaper', assisters: ['piperx'] },
  { after: 3.5, type: 'Kill', killer: PLAYER, victim: 'KubiK651', assisters: [] },
] as const;

/**
 * The stand-in for League of Legends' local API: `404` while loading, then the recorded answer with
 * the game clock running and FIGHTS added as they happen. Can answer one poll slowly or cut off.
 */
class FakeLiveClientData {
  readonly pollStarts: number[] = [];
  mostPollsAtOnce = 0;
  malformedAnswers = 0;
  #inFlight = 0;
  #resumedAt: number | undefined;
  #slowNextMs = 0;
  #cutNext = false;

  private constructor(private readonly server: Server, private readonly recorded: RecordedAnswer) {}

  /**
   * `isOurs` tells the polls of the service under test from those of any other Keyframe on this
   * machine (its game detection sees our stand-in process too): those get a plain answer and are
   * left out of every count.
   */
  static async start(key: string, cert: string, recorded: RecordedAnswer, isOurs: (socket: Socket) => Promise<boolean>): Promise<FakeLiveClientData> {
    const server = createServer({ key, cert });
    const game = new FakeLiveClientData(server, recorded);
    const owners = new WeakMap<Socket, Promise<boolean>>();
    server.on('secureConnection', (socket) => owners.set(socket, isOurs(socket).catch(() => false)));
    server.on('request', (request, response) => {
      if (request.url !== '/liveclientdata/allgamedata') return void response.writeHead(404).end();
      void (owners.get(request.socket) ?? Promise.resolve(false))
        .then((ours) => ours ? game.answer() : game.plainAnswer())
        .then(({ status, body }) => response.writeHead(status, { 'Content-Type': 'application/json' }).end(body));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(2999, '127.0.0.1', resolve);
    });
    return game;
  }

  /** The match has loaded: the game clock runs from the recorded answer's game time. */
  resume(): number {
    this.#resumedAt = Date.now();
    return this.#resumedAt;
  }

  answerNextSlowly(ms: number): void { this.#slowNextMs = ms; }
  cutNextAnswer(): void { this.#cutNext = true; }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async plainAnswer(): Promise<{ status: number; body: string }> {
    return { status: 404, body: '{"errorCode":"RESOURCE_NOT_FOUND","httpStatus":404,"message":"not in a game"}' };
  }

  private async answer(): Promise<{ status: number; body: string }> {
    this.pollStarts.push(performance.now());
    this.mostPollsAtOnce = Math.max(this.mostPollsAtOnce, ++this.#inFlight);
    try {
      const slow = this.#slowNextMs;
      this.#slowNextMs = 0;
      if (slow > 0) await delay(slow);
      if (this.#resumedAt === undefined) return this.plainAnswer();
      const body = JSON.stringify(this.stateAt((Date.now() - this.#resumedAt) / 1000));
      if (!this.#cutNext) return { status: 200, body };
      this.#cutNext = false;
      this.malformedAnswers++;
      return { status: 200, body: body.slice(0, body.length / 2) };
    } finally {
      this.#inFlight--;
    }
  }

  private stateAt(elapsed: number): RecordedAnswer {
    const resumedGameTime = this.recorded.gameData.gameTime;
    const happened = FIGHTS.filter((fight) => fight.after <= elapsed);
    const count = (type: string) => happened.filter((fight) => fight.type === type).length;
    let nextId = this.recorded.events.Events.length;
    const events = happened.map((fight) => ({
      EventID: nextId++, EventName: 'ChampionKill', EventTime: resumedGameTime + fight.after,
      KillerName: fight.killer, VictimName: fight.victim, Assisters: fight.assisters,
    }));
    const allPlayers = this.recorded.allPlayers.map((player) => player.summonerName !== PLAYER ? player : {
      ...player,
      scores: {
        ...player.scores,
        kills: player.scores.kills! + count('Kill'), deaths: player.scores.deaths! + count('Death'), assists: player.scores.assists! + count('Assist'),
      },
    });
    return {
      ...this.recorded, allPlayers,
      events: { Events: [...this.recorded.events.Events, ...events] },
      gameData: { ...this.recorded.gameData, gameTime: resumedGameTime + elapsed },
    };
  }
}

/** `hh:mm:ss.fffffff` → seconds. */
function seconds(duration: string): number {
  const [hours, minutes, rest] = duration.split(':');
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(rest);
}

/** Whether the client end of `socket` (a loopback TCP connection) belongs to process `pid` (Linux: /proc). */
async function connectionOfProcess(pid: number, socket: Socket): Promise<boolean> {
  const port = socket.remotePort?.toString(16).toUpperCase().padStart(4, '0');
  const table = await readFile('/proc/net/tcp', 'utf8');
  const inode = table.split('\n').map((line) => line.trim().split(/\s+/)).find((columns) => columns[1]?.endsWith(`:${port}`))?.[9];
  if (inode === undefined) return false;
  const descriptors = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const links = await Promise.all(descriptors.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return links.includes(`socket:[${inode}]`);
}

async function selfSignedCertificate(folder: string): Promise<{ key: string; cert: string }> {
  const key = path.join(folder, 'key.pem');
  const cert = path.join(folder, 'cert.pem');
  await run('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert,
  ]);
  return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
}

/**
 * Switches every other integration off, so that stand-in games of other tests running on this machine
 * at the same time (game detection sees every process) add no bookmarks here. Switching is refused
 * during a recording, and detection may have started one for such a game: stop it and try again.
 */
async function enableOnlyThisIntegration(client: ProtocolClient): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    if (client.latest('State')?.recording) {
      client.send('StopRecording');
      await client.until('State', (state) => state.recording === null, 30_000);
    }
    const keys = Object.keys(client.latest('Settings')!.gameIntegrations);
    client.send('UpdateSettings', { gameIntegrations: Object.fromEntries(keys.map((key) => [key, { enabled: key === 'arenaGameA' }])) });
    const onlyThis = (settings: { gameIntegrations: Record<string, { enabled: boolean }> }) =>
      keys.every((key) => settings.gameIntegrations[key]?.enabled === (key === 'arenaGameA'));
    try {
      await client.next('Settings', onlyThis, 3000);
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

describe('arena-game-a end to end', function () {
  this.timeout(90_000);
  let temp: TempFolder | undefined;
  let fakeGame: FakeLiveClientData | undefined;
  let service: ServiceProcess | undefined;
  let client: ProtocolClient | undefined;
  let gameProcess: ChildProcess | undefined;

  before(async function () {
    skipWithoutGameData(this);
    if (process.platform !== 'linux') {
      this.test!.parent!.title += ' (skipped: the stand-in game process and the connection check need Linux)';
      this.skip();
    }
    if (await run('openssl', ['version']).then(() => false, () => true)) {
      this.test!.parent!.title += ' (skipped: the openssl command, needed for a self-signed certificate, is not installed)';
      this.skip();
    }
    temp = await createTempFolder('keyframe-arena-game-a-');
    const { key, cert } = await selfSignedCertificate(temp.path);
    service = await ServiceProcess.start({ dataFolder: path.join(temp.path, 'data'), env: { KEYFRAME_CAPTURE: 'synthetic' } });
    const servicePid = service.child.pid!;
    fakeGame = await FakeLiveClientData.start(key, cert, JSON.parse(readGameDataText(PLAYING_FILE)) as RecordedAnswer,
      (socket) => connectionOfProcess(servicePid, socket));
    client = await ProtocolClient.connect(service.url);
    await client.handshake();
    client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: path.join(temp.path, 'videos') });
    await client.next('Settings');
    await enableOnlyThisIntegration(client);
  });
  after(async () => {
    gameProcess?.kill('SIGKILL');
    await client?.close();
    await service?.stop();
    await fakeGame?.close();
    await temp?.remove();
  });

  it('bookmarks the player\'s fights at their game times while the game is polled without overlap', async () => {
    const game = fakeGame!;
    const protocol = client!;
    // A stand-in for the game process: any program whose executable is named like the catalog's.
    const executable = path.join(temp!.path, 'Riot Games', 'League of Legends', 'Game', 'League of Legends.exe');
    await mkdir(path.dirname(executable), { recursive: true });
    await copyFile('/bin/sleep', executable);
    gameProcess = spawn(executable, ['120'], { stdio: 'ignore' });
    // Detection starts a recording by itself (the catalog records League of Legends); otherwise start one.
    const detected = await protocol.next('State', (state) => state.recording !== null || /is running/.test(state.integrations.arenaGameA?.message ?? ''), 15_000);
    if (detected.recording === null) {
      expect(detected.integrations.arenaGameA!.status).to.equal('idle');
      protocol.send('StartRecording');
    }
    const recording = (await protocol.until('State', (state) => state.recording !== null, 30_000)).recording!;
    await protocol.until('State', (state) => state.integrations.arenaGameA?.status === 'active', 15_000);

    // Loading screen: the game answers 404; that is idle, not a problem.
    const pollsBefore = game.pollStarts.length;
    await delay(1000);
    expect(game.pollStarts.length - pollsBefore).to.be.within(3, 5);
    expect(protocol.latest('State')!.integrations.arenaGameA!.status).to.equal('active');

    const resumedAt = game.resume();
    const resumedPoll = game.pollStarts.length;
    await delay(1400);
    game.answerNextSlowly(700); // a slow answer between the kill and the death
    await delay(900);
    game.cutNextAnswer(); // a broken answer between the death and the assist

    const withBookmarks = await protocol.until('State', (state) => (state.recording?.bookmarks.length ?? 0) >= FIGHTS.length, 10_000);
    const bookmarks = withBookmarks.recording!.bookmarks;
    expect(bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(FIGHTS.map((fight) => fight.type));
    // Where each fight happened in the recording, by the wall clock of the stand-in game.
    const recordingStart = Date.parse(recording.startTime);
    const errors = bookmarks.map((bookmark, index) => seconds(bookmark.time) - (resumedAt + FIGHTS[index]!.after * 1000 - recordingStart) / 1000);
    for (const error of errors) expect(Math.abs(error)).to.be.below(0.5);

    // The game's answers, from resuming until the last bookmark: one poll at a time, and never more than the interval allows.
    const starts = game.pollStarts.slice(resumedPoll);
    const gaps = starts.slice(1).map((start, index) => start - starts[index]!);
    const matchMs = starts.at(-1)! - starts[0]!;
    expect(game.mostPollsAtOnce, 'polls in flight at once').to.equal(1);
    expect(starts.length, `polls in ${matchMs.toFixed(0)} ms`).to.be.at.most(Math.floor(matchMs / 250) + 2);
    expect(Math.max(...gaps), 'the slow answer delays the next poll').to.be.at.least(650);
    expect(game.malformedAnswers).to.equal(1);
    const sorted = [...gaps].sort((first, second) => first - second);
    console.log(`      arena-game-a e2e: ${starts.length} polls in ${matchMs.toFixed(0)} ms, gaps ${sorted[0]!.toFixed(0)}–${sorted.at(-1)!.toFixed(0)} ms ` +
      `(median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms), at most ${game.mostPollsAtOnce} in flight; ` +
      `bookmark − fight: ${errors.map((error) => error.toFixed(3)).join(', ')} s`);

    protocol.send('StopRecording');
    const stopped = await protocol.next('State', (state) => state.recording === null && state.content.length > 0, 30_000);
    const session = stopped.content[0]!;
    expect(session.bookmarks.map((bookmark) => bookmark.type)).to.deep.equal(FIGHTS.map((fight) => fight.type));
    // …and in the session's metadata sidecar on disk (`<cache>/metadata/<type folder>/<id>.json`).
    const metadataFolder = path.join(protocol.latest('Settings')!.cacheFolder, 'metadata');
    const sidecar = (await readdir(metadataFolder, { recursive: true })).find((file) => path.basename(file) === `${session.id}.json`);
    expect(sidecar, `metadata of ${session.id} in ${metadataFolder}`).to.not.equal(undefined);
    const metadata = JSON.parse(await readFile(path.join(metadataFolder, sidecar!), 'utf8')) as { bookmarks: Array<{ type: string; time: string }> };
    expect(metadata.bookmarks.map((bookmark) => [bookmark.type, bookmark.time])).to.deep.equal(bookmarks.map((bookmark) => [bookmark.type, bookmark.time]));
    await protocol.until('State', (state) => state.integrations.arenaGameA?.status === 'idle', 10_000);
    expect(protocol.schemaViolations).to.deep.equal([]);
  });
});
