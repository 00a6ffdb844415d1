// Replays a tape into an integration under a virtual clock, with a simulated recording, and
// collects the bookmarks it adds. The plugin code is the same that runs against the live game.
import { isError } from '../support/errors.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScreenTextOptions } from '../sdk/feed-types.js';
import { decodePng } from '../feeds/screen-text/png.js';
import { ScreenTextHealth } from '../feeds/screen-text/screen-text-health.js';
import { ScreenTextReader } from '../feeds/screen-text/screen-text-reader.js';
import { SharedTextRecognizer, type RecognizerLease } from '../feeds/screen-text/text-recognizer.js';
import type { BookmarkRequest, Bookmarks, DetectedGame, GamePaths, HealthReporter, PluginLogger } from '../sdk/game-integration.js';
import { DiskGameFiles } from '../sdk/game-files.js';
import { GameFileLocations } from '../feeds/tape/game-file-locations.js';
import { ReplayedGameFiles } from '../feeds/tape/replayed-game-files.js';
import { isFeedEntry, isGameFileEntry, readTape, type FeedEntry, type Tape, type TapedFrame } from '../feeds/tape/tape-format.js';
import { ManualClock } from './fakes/manual-clock.js';
import { ScriptedFeeds, type ScreenTextReading } from './fakes/scripted-feeds.js';
import { ScriptedRecorder } from './fakes/scripted-recorder.js';
import { IntegrationLifecycle } from './lifecycle.js';
import type { IntegrationManifest } from './manifest.js';
import type { IntegrationClass } from './plugin-loader.js';

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
  /**
   * Where the integration's GamePaths point. The game files it reads come from the tape; given folders,
   * a file the tape did not capture is read from them (e.g. hand-made fixtures for a tape without copies).
   */
  gamePaths?: GamePaths;
  /**
   * The token integrations write into game configs during the replay: the data folder's, so that a
   * replay of a tape that names the running game's executable leaves its config as the service wrote
   * it. Default: a fixed one (taped pushes are not checked again).
   */
  pushToken?: () => Promise<string>;
  /**
   * The package's manifest: as under the service, the integration gets its port, and what it does not
   * declare is refused (health says so). Without one (a bare class) nothing is refused.
   */
  manifest?: IntegrationManifest;
}

/** A taped frame read again, with real OCR, as the live feed would have read it. */
function screenTextReading(recognizer: SharedTextRecognizer, health: HealthReporter) {
  return (id: string, options: ScreenTextOptions): ScreenTextReading => {
    const lease: RecognizerLease = recognizer.lease();
    const reader = new ScreenTextReader(id, options, lease);
    const screenHealth = new ScreenTextHealth(id, (reason) => health.degraded(reason));
    return {
      read: async (taped) => {
        const { absolutePath, frameTimeMs } = taped as TapedFrame;
        const reading = await reader.read({ ...decodePng(await readFile(absolutePath)), timeMs: frameTimeMs });
        screenHealth.onReading(reading, frameTimeMs);
        return reading.kind === 'read' ? reading.input : undefined;
      },
      release: () => lease.release(),
    };
  };
}

const noGamePaths: GamePaths = {
  steamLibraries: async () => [],
  roamingAppData: () => '/nonexistent/roaming',
  localAppData: () => '/nonexistent/local',
  home: () => '/nonexistent/home',
};

/** A feed handler threw on a tape line: says which line, with the handler's stack. */
export class TapeHandlerError extends Error {
  constructor(tape: Tape, index: number, cause: unknown) {
    const entry = tape.entries[index] as FeedEntry;
    super(`line ${tape.lineNumbers[index]} (feed ${entry.feed}, t=${(entry.t / 1000).toFixed(3)}): ${describeThrown(cause)}`, { cause });
    this.name = 'TapeHandlerError';
    // The message holds the handler's stack: where the replay itself was is of no use to the plugin's author.
    this.stack = this.message;
  }
}

/** What was thrown, with the stack frames outside Node's internals and the host. */
function describeThrown(thrown: unknown): string {
  if (!isError(thrown)) return String(thrown);
  const [first = '', ...frames] = (thrown.stack ?? `${thrown.name}: ${thrown.message}`).split('\n');
  const hostFolder = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const own = frames.filter((frame) => !frame.includes('node:internal') && !frame.includes(hostFolder));
  return [first, ...(own.length > 0 ? own : frames)].join('\n');
}

export async function playTape(tapeFile: string, options: PlayOptions): Promise<TapePlayback> {
  const tape = await readTape(tapeFile);
  if (tape.header.integration !== options.key) throw new Error(`${tapeFile} is a tape of ${tape.header.integration}, not ${options.key}`);
  const startMs = new Date(tape.header.recordedAt).getTime();
  const clock = new ManualClock(new Date(startMs));
  const game: DetectedGame = tape.header.game ?? options.defaultGame;
  const recorder = new ScriptedRecorder();
  const gamePaths = options.gamePaths ?? noGamePaths;
  const gameFiles = new ReplayedGameFiles(await GameFileLocations.of(gamePaths), options.gamePaths && new DiskGameFiles());
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
  const recognizer = new SharedTextRecognizer();
  let feeds: ScriptedFeeds | undefined;
  let enabled = true;
  let recording = false;
  // As the host does: enabled first; active while a recording runs.
  const lifecycle: IntegrationLifecycle = new IntegrationLifecycle({
    key: options.key,
    ...(options.manifest ? { manifest: options.manifest } : {}),
    desired: () => ({ enabled, ...(recording ? { activeFor: game } : {}) }),
    load: async () => options.integrationClass,
    // Taped pushes passed the live feed's token check when they were recorded; none is checked again.
    feeds: ({ health }) =>
      (feeds = new ScriptedFeeds({
        pushToken: options.pushToken ?? (async () => 'TapeReplayPushToken'),
        screenText: screenTextReading(recognizer, health),
        closeAllCloses: true,
      })),
    bookmarks,
    recorder,
    enabled: () => enabled,
    clock,
    gamePaths,
    gameFiles,
    pluginLogger: logger,
    logger,
    notify: (title) => {
      playback.notifications.push(title);
    },
    // A replay takes milliseconds of real time: no gap in it is a silence worth a warning.
    watchSilence: false,
    changed: () => {
      const reason = lifecycle.degradedReason;
      if (reason && reason !== playback.degradedReasons.at(-1)) playback.degradedReasons.push(reason);
    },
  });
  const move = async () => {
    await lifecycle.reconcile();
    if (lifecycle.phase === 'failed') throw new Error(`${options.key} failed during the replay of ${tapeFile}: ${lifecycle.failure}`);
  };

  await move();
  const setRecording = async (on: boolean) => {
    if (on) recorder.start({ startedAt: clock.now(), game: game.name });
    recording = on;
    await move();
    // Stopped after deactivate: what the integration flushes then still belongs to the recording.
    if (!on) recorder.stop(clock.now());
  };
  // A game file line is what a read found after the line before it: it is in force while that line is handled.
  const gameFilesAfter = (index: number) => {
    for (let next = index; next < tape.entries.length; next++) {
      const entry = tape.entries[next]!;
      if (!isGameFileEntry(entry)) return;
      gameFiles.apply(entry);
    }
  };
  gameFilesAfter(0);
  const controlsRecording = tape.entries.some((entry) => 'recording' in entry);
  if (!controlsRecording) await setRecording(true);
  for (const [index, entry] of tape.entries.entries()) {
    if (isGameFileEntry(entry)) continue;
    clock.set(new Date(startMs + entry.t));
    gameFilesAfter(index + 1);
    if (isFeedEntry(entry)) {
      const feed = feeds?.withId(entry.feed);
      const consumed = await feed?.offer(entry.input).catch((error: unknown) => {
        throw new TapeHandlerError(tape, index, error);
      });
      if (!consumed) playback.unconsumed += 1;
    } else if (entry.recording === 'started' && !recording) {
      await setRecording(true);
    } else if (entry.recording === 'stopped' && recording) {
      await setRecording(false);
    }
  }
  if (recording) await setRecording(false);
  enabled = false;
  await move();
  return playback;
}
