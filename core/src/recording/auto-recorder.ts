// Records games without being asked: when a game to record is detected and the recorder is idle, a
// recording of it starts; when that game exits, the recording stops. Recordings it did not start
// (manual ones) are never stopped by detection.
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { Logger } from '../support/logger.js';
import { findGameSetting } from '../games/game-catalog.js';
import { GameDetector, type RunningGame } from '../games/game-detector.js';
import { RecorderService, type StartRequest } from './recorder-service.js';
import { SettingsStore } from '../settings/settings-store.js';

/** What the auto-recorder needs of the recorder; recordings are told apart by identity only. */
export interface RecordingControl {
  readonly current: object | undefined;
  /** Throws `CommandError` `NotAllowed` while another recording runs or starts. */
  start(request: StartRequest): Promise<void>;
  stop(): Promise<unknown>;
  onStopped(listener: (recording: object) => void): () => void;
}

/** The recording this auto-recorder started (or is starting) for one game process. */
interface Claim {
  readonly game: RunningGame;
  /** Set once the recorder runs it; a recording is only ever stopped if it is this very object. */
  recording?: object;
  exited: boolean;
  stopping: boolean;
}

@injectable()
export class AutoRecorder {
  private claim: Claim | undefined;
  /** Processes (by pid) that already had their automatic start: stopping a recording by hand is not undone. */
  private readonly handled = new Set<number>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly logger: Logger;

  constructor(
    private readonly detector: GameDetector,
    @inject(RecorderService) private readonly recorder: RecordingControl,
    private readonly settings: SettingsStore,
    logger: Logger,
  ) {
    this.logger = logger.child('auto-recorder');
  }

  /** Follows the detector, the recorder and the settings (a game switched to `record: true` while it runs starts at once). */
  start(): void {
    if (this.unsubscribe.length > 0) return;
    this.unsubscribe.push(
      this.detector.onChange(() => this.reconcile()),
      this.recorder.onStopped((recording) => this.recordingStopped(recording)),
      this.settings.onChange(() => this.reconcile()),
    );
    this.reconcile();
  }

  /** Stops following; at shutdown this comes first, so saving the last recording starts nothing new. */
  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  private get active(): boolean {
    return this.unsubscribe.length > 0;
  }

  private reconcile(): void {
    if (!this.active) return;
    const running = this.detector.current;
    const pids = new Set(running.map((game) => game.pid));
    for (const pid of this.handled) if (!pids.has(pid)) this.handled.delete(pid);

    const claim = this.claim;
    if (claim && !claim.exited && !pids.has(claim.game.pid)) {
      claim.exited = true;
      this.logger.info('recorded game exited', { game: claim.game.name, pid: claim.game.pid });
      void this.stopClaimed(claim);
    }
    // Busy: one recording at a time; a game that starts now is picked up when the recorder is idle again.
    if (this.claim || this.recorder.current) return;
    const next = this.nextGame(running);
    if (next) void this.record(next);
  }

  /**
   * The first running game to record that had no automatic start yet. Games without a user entry
   * are recorded; `record: false` games are not (they still count as running for integrations).
   * When one process matches several catalog games, the user's entry for it names the recording.
   */
  private nextGame(running: readonly RunningGame[]): RunningGame | undefined {
    const { games } = this.settings.current;
    for (const game of running) {
      if (this.handled.has(game.pid)) continue;
      const entry = findGameSetting(games, game);
      if (entry?.record === false) continue;
      const sameProcess = running.filter((other) => other.pid === game.pid);
      return sameProcess.find((other) => entry && other.name.toLowerCase() === entry.name.toLowerCase()) ?? game;
    }
    return undefined;
  }

  private async record(game: RunningGame): Promise<void> {
    const claim: Claim = { game, exited: false, stopping: false };
    this.claim = claim;
    this.handled.add(game.pid);
    const requestedAt = Date.now();
    this.logger.info('game detected: starting a recording', { game: game.name, executable: game.executablePath, pid: game.pid });
    try {
      await this.recorder.start({ game: game.name, exePath: game.executablePath, pid: game.pid });
    } catch (error) {
      if (this.claim === claim) this.claim = undefined;
      if (error instanceof CommandError && error.code === 'NotAllowed') {
        // A manual recording got there first: this game gets its turn when that one ends.
        this.handled.delete(game.pid);
        this.logger.info('recorder busy: game not recorded for now', { game: game.name, reason: error.message });
      } else {
        // The recorder has told the user; no retry for this process, or every poll would repeat the failure.
        this.logger.warn('automatic recording could not start', {
          game: game.name,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return;
    }
    claim.recording = this.recorder.current;
    if (this.claim !== claim || !claim.recording) {
      // Ended while starting (ffmpeg failed at once): recordingStopped has already let go.
      if (this.claim === claim) this.claim = undefined;
      return;
    }
    this.logger.info('automatic recording started', { game: game.name, afterMs: Date.now() - requestedAt });
    if (claim.exited || !pidsOf(this.detector.current).has(game.pid)) {
      claim.exited = true;
      await this.stopClaimed(claim);
    }
  }

  private async stopClaimed(claim: Claim): Promise<void> {
    // Still starting: `record` stops it once it runs.
    if (!claim.recording || claim.stopping) return;
    if (this.recorder.current !== claim.recording) {
      if (this.claim === claim) this.claim = undefined;
      return;
    }
    claim.stopping = true;
    try {
      await this.recorder.stop();
      this.logger.info('game exited: recording stopped', { game: claim.game.name });
    } catch (error) {
      this.logger.warn('could not stop the recording of an exited game', {
        game: claim.game.name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    // Normally `recordingStopped` has let go already; if the recorder never reported a stop, do it here.
    if (this.claim === claim && this.recorder.current !== claim.recording) {
      this.claim = undefined;
      this.reconcile();
    }
  }

  private recordingStopped(recording: object): void {
    const claim = this.claim;
    // While our start is pending the recorder runs nothing else, so a stop then is ours too.
    if (claim && (claim.recording === recording || claim.recording === undefined)) this.claim = undefined;
    this.reconcile();
  }
}

const pidsOf = (games: readonly RunningGame[]) => new Set(games.map((game) => game.pid));
