import 'reflect-metadata';
import { expect } from 'chai';
import { CommandError } from '../protocol/refusal.js';
import type { GameSetting } from '../protocol/index.js';
import type { RunningProcess } from '../platform/process-list.js';
import { Logger, type LogSink } from '../support/logger.js';
import { AutoRecorder, type RecordingControl } from './auto-recorder.js';
import { GameDetector, PROCESS_LISTER, type ProcessLister } from '../games/game-detector.js';
import { RecorderService, type StartRequest } from './recorder-service.js';
import { SettingsStore } from '../settings/settings-store.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/** The recorder's contract as the auto-recorder sees it: one recording at a time, `NotAllowed` otherwise. */
class FakeRecorder implements RecordingControl {
  current: { game: string; exePath?: string } | undefined;
  readonly starts: StartRequest[] = [];
  stops = 0;
  failNextStart: Error | undefined;
  /** While set, a start waits for it (ffmpeg's first frame). */
  gate: Promise<void> | undefined;
  private starting = false;
  private readonly listeners = new Set<(recording: object) => void>();

  async start(request: StartRequest = {}): Promise<void> {
    if (this.current || this.starting) throw new CommandError('NotAllowed', 'A recording is already in progress');
    this.starting = true;
    this.starts.push(request);
    try {
      await this.gate;
      if (this.failNextStart) {
        const error = this.failNextStart;
        this.failNextStart = undefined;
        throw error;
      }
      this.current = { game: request.game ?? 'Manual Recording', ...(request.exePath ? { exePath: request.exePath } : {}) };
    } finally {
      this.starting = false;
    }
  }

  async stop(): Promise<undefined> {
    const recording = this.current;
    if (!recording) throw new CommandError('NotAllowed', 'No recording is in progress.');
    this.stops += 1;
    await Promise.resolve();
    this.current = undefined;
    for (const listener of this.listeners) listener(recording);
    return undefined;
  }

  onStopped(listener: (recording: object) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

// The service injects the real recorder: the compiler checks here that it keeps fitting the contract.
void ((recorder: RecorderService): RecordingControl => recorder);

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('AutoRecorder', () => {
  let app: TestApp;
  let settings: SettingsStore;
  let processes: RunningProcess[];
  let detector: GameDetector;
  let recorder: FakeRecorder;
  let auto: AutoRecorder;
  let logged: { level: string; message: string }[];

  const poll = async () => {
    await detector.detect();
    await settle();
    await settle();
  };
  const setGames = (games: GameSetting[]) => settings.replace({ ...settings.current, games });
  const launch = (pid: number, executable: string) => processes.push({ pid, executable });
  const exit = (pid: number) => {
    processes = processes.filter((process) => process.pid !== pid);
  };

  beforeEach(async () => {
    logged = [];
    const sink: LogSink = {
      write: (record) => {
        logged.push({ level: record.level, message: record.message });
      },
      close: () => undefined,
    };
    processes = [];
    const listProcesses: ProcessLister = async () => processes;
    recorder = new FakeRecorder();
    app = await createTestApp({
      settings: {},
      overrides: [
        [Logger, new Logger([sink])],
        [PROCESS_LISTER, listProcesses],
        [RecorderService, recorder as unknown as RecorderService],
      ],
    });
    settings = app.resolve(SettingsStore);
    detector = app.resolve(GameDetector);
    auto = app.resolve(AutoRecorder);
    auto.start();
  });
  afterEach(async () => {
    auto.stop();
    await app.dispose();
  });

  it('records a catalog game without a user entry while it runs', async () => {
    launch(100, '/steam/dota 2 beta/game/bin/linuxsteamrt64/dota2');
    await poll();
    expect(recorder.starts).to.deep.equal([{ game: 'Dota 2', exePath: '/steam/dota 2 beta/game/bin/linuxsteamrt64/dota2', pid: 100 }]);
    expect(recorder.current?.game).to.equal('Dota 2');

    exit(100);
    await poll();
    expect(recorder.stops).to.equal(1);
    expect(recorder.current).to.equal(undefined);
  });

  it("records a game the user added, under the user's name, and never one marked record: false", async () => {
    setGames([
      { name: 'Test Game', paths: ['keyframe-test-game'], record: true },
      { name: 'Dota 2', paths: [], record: false },
    ]);
    launch(1, '/games/dota2');
    await poll();
    expect(recorder.starts, 'record: false').to.deep.equal([]);

    launch(2, '/tmp/bin/keyframe-test-game');
    await poll();
    expect(recorder.starts).to.deep.equal([{ game: 'Test Game', exePath: '/tmp/bin/keyframe-test-game', pid: 2 }]);
    exit(1);
    await poll();
    expect(recorder.stops, 'a record: false game exiting stops nothing').to.equal(0);
  });

  it("prefers the user's entry for a process that matches several catalog games", async () => {
    setGames([{ name: 'My CS', paths: ['/opt/cs2/cs2'], record: true }]);
    launch(3, '/opt/cs2/cs2');
    await poll();
    expect(detector.current.map((game) => game.name).sort()).to.deep.equal(['Counter-Strike 2', 'My CS']);
    expect(recorder.starts).to.deep.equal([{ game: 'My CS', exePath: '/opt/cs2/cs2', pid: 3 }]);
    setGames([{ name: 'My CS', paths: ['/opt/cs2/cs2'], record: false }]);
    exit(3);
    await poll();
    expect(recorder.stops).to.equal(1);
  });

  it('never stops a manual recording when a game exits, and records a game still running once it ends', async () => {
    await recorder.start();
    launch(4, 'C:\\Games\\Rocket League\\Binaries\\Win64\\RocketLeague.exe');
    await poll();
    expect(recorder.starts).to.have.length(1);
    exit(4);
    await poll();
    expect(recorder.stops).to.equal(0);
    expect(recorder.current?.game).to.equal('Manual Recording');

    launch(5, '/games/factorio');
    await poll();
    await recorder.stop();
    await settle();
    expect(recorder.starts.at(-1)).to.deep.equal({ game: 'Factorio', exePath: '/games/factorio', pid: 5 });
  });

  it('does nothing when a second game starts during a recording; hands over when the first exits', async () => {
    launch(6, '/games/dota2');
    await poll();
    launch(7, '/games/factorio');
    await poll();
    expect(recorder.starts.map((start) => start.game)).to.deep.equal(['Dota 2']);
    exit(6);
    await poll();
    expect(recorder.stops).to.equal(1);
    expect(recorder.starts.map((start) => start.game)).to.deep.equal(['Dota 2', 'Factorio']);
    exit(7);
    await poll();
    expect(recorder.stops).to.equal(2);
  });

  it("does not restart a game's recording that the user stopped, until the game is launched again", async () => {
    launch(8, '/games/dota2');
    await poll();
    await recorder.stop();
    await poll();
    expect(recorder.starts).to.have.length(1);
    exit(8);
    await poll();
    launch(9, '/games/dota2');
    await poll();
    expect(recorder.starts.map((start) => start.pid)).to.deep.equal([8, 9]);
  });

  it('stops a recording whose game exited while it was starting, as soon as it runs', async () => {
    let open!: () => void;
    recorder.gate = new Promise((resolve) => {
      open = resolve;
    });
    launch(10, '/games/dota2');
    await poll();
    exit(10);
    await poll();
    expect(recorder.stops).to.equal(0);
    open();
    await settle();
    await settle();
    expect(recorder.stops).to.equal(1);
    expect(recorder.current).to.equal(undefined);
  });

  it('logs a failed start instead of throwing, and does not retry it for the same process', async () => {
    recorder.failNextStart = new CommandError('Failed', 'ffmpeg missing');
    launch(11, '/games/dota2');
    await poll();
    expect(recorder.current).to.equal(undefined);
    expect(logged.some((line) => line.level === 'warn' && /could not start/.test(line.message))).to.equal(true);
    setGames([]);
    await poll();
    expect(recorder.starts).to.have.length(1);
  });

  it('starts a running game at once when the user switches it to record: true', async () => {
    setGames([{ name: 'Dota 2', paths: [], record: false }]);
    launch(12, '/games/dota2');
    await poll();
    expect(recorder.starts).to.deep.equal([]);
    setGames([{ name: 'Dota 2', paths: [], record: true }]);
    await settle();
    expect(recorder.starts.map((start) => start.game)).to.deep.equal(['Dota 2']);
  });

  it('follows nothing once stopped', async () => {
    auto.stop();
    launch(13, '/games/dota2');
    await poll();
    expect(recorder.starts).to.deep.equal([]);
  });
});
