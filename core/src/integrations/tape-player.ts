// Replays a tape into an integration under a virtual clock, with a simulated recording, and
// collects the bookmarks it adds. The plugin code is the same that runs against the live game.
import { readFile } from 'node:fs/promises';
import type { ClosableFeeds } from '../sdk/feed-observer.js';
import type { Feed, FeedInputs, FeedKind, ScreenTextInput, ScreenTextOptions } from '../sdk/feed-types.js';
import { decodePng } from '../feeds/screen-text/png.js';
import { ScreenTextHealth } from '../feeds/screen-text/screen-text-health.js';
import { ScreenTextReader } from '../feeds/screen-text/screen-text-reader.js';
import { SharedTextRecognizer, type RecognizerLease } from '../feeds/screen-text/text-recognizer.js';
import type {
  BookmarkRequest, Bookmarks, DetectedGame, GamePaths, HealthReporter, PluginLogger, RecorderView, RecordingInfo,
} from '../sdk/game-integration.js';
import { instantiateIntegration } from './plugin-container.js';
import type { IntegrationClass } from './plugin-loader.js';
import { isFeedEntry, readTape, type Tape, type TapedFrame } from '../feeds/tape/tape-format.js';

export interface PlayedBookmark {
  type: BookmarkRequest['type'];
  /** Seconds from the start of the recording it belongs to. */
  time: number;
  subtype?: string;
  /** Which simulated recording (0-based) it belongs to. */
  recording: number;
}

export interface TapePlayback {
  tape: Tape;
  bookmarks: PlayedBookmark[];
  /** Bookmarks asked for when no recording covered their time. */
  dropped: BookmarkRequest[];
  /** Feed entries for a feed the integration never opened. */
  unconsumed: number;
  degradedReasons: string[];
  notifications: string[];
  log: string[];
}

export interface PlayOptions {
  integrationClass: IntegrationClass;
  key: string;
  /** The game passed to activate() when the tape's header names none. */
  defaultGame: DetectedGame;
  gamePaths?: GamePaths;
  /**
   * The token integrations write into game configs during the replay: the data folder's, so that a
   * replay of a tape that names the running game's executable leaves its config as the service wrote
   * it. Default: a fixed one (taped pushes are not checked again).
   */
  pushToken?: () => Promise<string>;
  /** The port of the manifest's `httpPush:<port>` feed (`declaredPushPort`), handed to the integration as the host does. */
  port?: number;
}

class VirtualClock {
  private currentMs: number;
  constructor(startMs: number) { this.currentMs = startMs; }
  now = (): Date => new Date(this.currentMs);
  set(ms: number): void { this.currentMs = ms; }
}

/** A feed fed from tape lines; `convert` turns a line's input into what the integration gets (undefined: nothing). */
class TapeFeed<T, Taped> implements Feed<T> {
  private handler: ((input: T) => void | Promise<void>) | undefined;
  readonly ready = Promise.resolve();
  closed = false;

  constructor(
    private readonly convert: (taped: Taped) => Promise<T | undefined>,
    private readonly onClose: () => Promise<void> = async () => undefined,
  ) {}

  onInput(handler: (input: T) => void | Promise<void>): void { this.handler = handler; }
  async deliver(taped: Taped): Promise<boolean> {
    if (!this.handler || this.closed) return false;
    const input = await this.convert(taped);
    if (input !== undefined) await this.handler(input);
    return true;
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.onClose();
  }
}

class TapeFeeds implements ClosableFeeds {
  readonly open = new Map<string, TapeFeed<unknown, unknown>>();

  constructor(
    private readonly recognizer: SharedTextRecognizer,
    private readonly health: HealthReporter,
    readonly pushToken: () => Promise<string>,
  ) {}

  private openFeed<T, Taped>(id: string, feed: TapeFeed<T, Taped>): Feed<T> {
    if (this.open.has(id) && !this.open.get(id)!.closed) throw new Error(`feed id ${id} is already open`);
    this.open.set(id, feed as TapeFeed<unknown, unknown>);
    return feed;
  }
  /** The line's input is the input. */
  private plainFeed<K extends Exclude<FeedKind, 'screenText'>>(id: string): Feed<FeedInputs[K]> {
    return this.openFeed(id, new TapeFeed<FeedInputs[K], FeedInputs[K]>(async (input) => input));
  }
  httpPush(id: string) { return this.plainFeed<'httpPush'>(id); }
  poll(id: string) { return this.plainFeed<'poll'>(id); }
  tail(id: string) { return this.plainFeed<'tail'>(id); }
  watchFolder(id: string) { return this.plainFeed<'watchFolder'>(id); }
  /** Each taped frame is read again, with real OCR, as the live feed would have read it. */
  screenText(id: string, options: ScreenTextOptions) {
    const lease: RecognizerLease = this.recognizer.lease();
    const reader = new ScreenTextReader(id, options, lease);
    const health = new ScreenTextHealth(id, (reason) => this.health.degraded(reason));
    const read = async ({ absolutePath, frameTimeMs }: TapedFrame): Promise<ScreenTextInput | undefined> => {
      const image = decodePng(await readFile(absolutePath));
      const reading = await reader.read({ ...image, timeMs: frameTimeMs });
      health.onReading(reading, frameTimeMs);
      return reading.kind === 'read' ? reading.input : undefined;
    };
    return this.openFeed(id, new TapeFeed(read, () => lease.release()));
  }
  async closeAll(): Promise<void> {
    for (const feed of this.open.values()) await feed.close();
  }
}

/** The simulated recorder: recordings start and stop where the tape says (by default, one for the whole tape). */
class SimulatedRecorder implements RecorderView {
  readonly recordings: { startedAt: Date; stoppedAt?: Date }[] = [];
  private readonly started = new Set<(recording: RecordingInfo) => void>();
  private readonly stopped = new Set<(recording: RecordingInfo) => void>();
  constructor(private readonly game: string) {}

  get current(): RecordingInfo | undefined {
    const last = this.recordings.at(-1);
    return last && !last.stoppedAt ? { startedAt: last.startedAt, game: this.game } : undefined;
  }
  onStarted(listener: (recording: RecordingInfo) => void) { this.started.add(listener); return () => this.started.delete(listener); }
  onStopped(listener: (recording: RecordingInfo) => void) { this.stopped.add(listener); return () => this.stopped.delete(listener); }
  start(at: Date): void {
    this.recordings.push({ startedAt: at });
    for (const listener of this.started) listener({ startedAt: at, game: this.game });
  }
  stop(at: Date): void {
    const current = this.current;
    if (!current) return;
    this.recordings.at(-1)!.stoppedAt = at;
    for (const listener of this.stopped) listener(current);
  }
  /** The recording whose time span holds `at`. */
  covering(at: Date): number {
    return this.recordings.findIndex((recording) => recording.startedAt <= at && (!recording.stoppedAt || at <= recording.stoppedAt));
  }
}

const noGamePaths: GamePaths = {
  steamLibraries: async () => [],
  roamingAppData: () => '/nonexistent/roaming',
  localAppData: () => '/nonexistent/local',
  home: () => '/nonexistent/home',
};

export async function playTape(tapeFile: string, options: PlayOptions): Promise<TapePlayback> {
  const tape = await readTape(tapeFile);
  if (tape.header.integration !== options.key) throw new Error(`${tapeFile} is a tape of ${tape.header.integration}, not ${options.key}`);
  const startMs = new Date(tape.header.recordedAt).getTime();
  const clock = new VirtualClock(startMs);
  const game: DetectedGame = tape.header.game ?? options.defaultGame;
  const recorder = new SimulatedRecorder(game.name);
  const playback: TapePlayback = { tape, bookmarks: [], dropped: [], unconsumed: 0, degradedReasons: [], notifications: [], log: [] };

  const bookmarks: Bookmarks = {
    add: async (request) => {
      const at = request.at ?? clock.now();
      const index = recorder.covering(at);
      if (index < 0) {
        playback.dropped.push(request);
        return false;
      }
      const time = (at.getTime() - recorder.recordings[index]!.startedAt.getTime()) / 1000;
      playback.bookmarks.push({ type: request.type, time, recording: index, ...(request.subtype ? { subtype: request.subtype } : {}) });
      return true;
    },
  };
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    playback.log.push(`${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  };
  const logger: PluginLogger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const health: HealthReporter = {
    degraded: (reason) => { if (reason) playback.degradedReasons.push(reason); },
    notify: (title) => { playback.notifications.push(title); },
    // A replay takes milliseconds of real time: no gap in it is a silence worth a warning.
    expectData: () => undefined,
  };
  // Taped pushes passed the live feed's token check when they were recorded; none is checked again.
  const feeds = new TapeFeeds(new SharedTextRecognizer(), health, options.pushToken ?? (async () => 'TapeReplayPushToken'));
  const { instance } = instantiateIntegration(options.integrationClass, {
    bookmarks, recorder, settings: { key: options.key, enabled: true, ...(options.port === undefined ? {} : { port: options.port }) }, feeds, clock, logger,
    gamePaths: options.gamePaths ?? noGamePaths, health,
  });

  // As the host does: enabled first; active while a recording runs.
  await instance.enable?.();
  const setActive = async (active: boolean) => {
    if (active) await instance.activate(game);
    else {
      await instance.deactivate();
      await feeds.closeAll();
    }
  };
  const controlsRecording = tape.entries.some((entry) => !isFeedEntry(entry));
  if (!controlsRecording) {
    recorder.start(clock.now());
    await setActive(true);
  }
  for (const entry of tape.entries) {
    clock.set(startMs + entry.t);
    if (isFeedEntry(entry)) {
      const feed = feeds.open.get(entry.feed);
      if (!feed || !(await feed.deliver(entry.input))) playback.unconsumed += 1;
    } else if (entry.recording === 'started' && !recorder.current) {
      recorder.start(clock.now());
      await setActive(true);
    } else if (entry.recording === 'stopped' && recorder.current) {
      await setActive(false);
      recorder.stop(clock.now());
    }
  }
  if (recorder.current) {
    await setActive(false);
    recorder.stop(clock.now());
  }
  await instance.disable?.();
  return playback;
}
