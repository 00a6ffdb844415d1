// The contract an integration package implements, and what the host tells it.
import type { BookmarkType } from '../protocol/index.js';

/** The running game that caused an activation. */
export interface DetectedGame {
  /** Display name from the catalog (e.g. the manifest's game name). */
  name: string;
  /** Full path of the executable, when known. */
  executablePath?: string;
  pid?: number;
}

/**
 * A game integration. All hooks are async and each runs with a deadline; a hook that throws,
 * rejects or times out marks the integration `failed` without affecting anything else.
 */
export interface GameIntegration {
  /** The user switched the integration on (also at start-up when it is on): one-time setup. */
  enable?(): Promise<void>;
  /** The user switched it off. */
  disable?(): Promise<void>;
  /** Enabled, one of its games is running and a recording is active: open feeds, start listening. */
  activate(game: DetectedGame): Promise<void>;
  /**
   * Any of those stopped being true, or the service is stopping. Before calling it the host has stopped
   * feed delivery and closed the feeds: no input reaches a handler once deactivate() has begun, and the
   * handler calls under way then have finished. So a handler needs no "still active?" check.
   */
  deactivate(): Promise<void>;
}

export interface BookmarkRequest {
  type: BookmarkType;
  /** When it happened; default now. A past time attaches to the recording that covered it. */
  at?: Date;
  subtype?: string;
}

/** What an integration may do with bookmarks. */
export interface Bookmarks {
  /** Adds a bookmark; resolves to false when no recording covers the time (it is dropped, and the host logs that). */
  add(request: BookmarkRequest): Promise<boolean>;
}

export interface RecordingInfo {
  startedAt: Date;
  game: string;
}

/** A read-only view of the recorder. */
export interface RecorderView {
  readonly current: RecordingInfo | undefined;
  onStarted(listener: (recording: RecordingInfo) => void): () => void;
  onStopped(listener: (recording: RecordingInfo) => void): () => void;
}

export interface Clock {
  now(): Date;
}

/**
 * The integration's own settings (`gameIntegrations.<key>`), read-only. `Values` are those its class
 * declares as `static settings` (see `defineSettings`): `IntegrationSettingsService<SettingsValues<typeof mySettings>>`.
 */
export interface IntegrationSettings<Values extends object = Record<string, unknown>> {
  readonly key: string;
  readonly enabled: boolean;
  /** The loopback port of the manifest's `httpPush:<port>` feed, when it declares one: the manifest says it once. */
  readonly port?: number;
  /**
   * The declared settings, always the current ones: the user's value where it is valid, else the schema's
   * default. Changes are refused during a recording, so values read in activate() hold until deactivate().
   */
  readonly values: Readonly<Values>;
  /**
   * Calls `listener` with the new values after the user changed one of them (not for `enabled`); returns
   * a function that stops that. Needed only where a change matters while the integration is active outside
   * recordings (`activation: "game"`), or for something enable() set up. A listener that throws is logged.
   */
  onChange(listener: (values: Readonly<Values>) => void | Promise<void>): () => void;
}

/** Where games keep their files on this machine; tests point these into temp folders. */
export interface GamePaths {
  /** Steam library folders (each holds `steamapps/common/<game>`). */
  steamLibraries(): Promise<string[]>;
  /** The per-user roaming app-data folder (`%APPDATA%`, `~/.config`, `~/Library/Application Support`). */
  roamingAppData(): string;
  /** The per-user local app-data folder (`%LOCALAPPDATA%`, `~/.local/share`, `~/Library/Application Support`). */
  localAppData(): string;
  /** The user's home folder. */
  home(): string;
}

export interface PluginLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Lets an integration explain itself in its health entry (e.g. why nothing arrives). */
export interface HealthReporter {
  /** `degraded` with a reason, or back to normal with `undefined`. */
  degraded(reason: string | undefined): void;
  /** Tells the user something they must act on (e.g. restart the game), once. */
  notify(title: string, description: string): void;
  /**
   * While active, the integration expects feed input at least every `within` ms: the host times it
   * from activate and from each input (with `onlyFirst`, only the first), and when nothing came it sets
   * health degraded with `message`, unless health already says why (taken back by the next input, and at
   * deactivate). Call it once (constructor, enable or activate); a later call replaces the expectation.
   */
  expectData(expectation: DataExpectation): void;
}

/** What `HealthReporter.expectData` watches for: feed input at least every `within` ms while active. */
export interface DataExpectation {
  /** Milliseconds of silence before health says so. */
  within: number;
  /** What health says then, in words the user can act on. */
  message: string;
  /** Only the first input after activate is awaited: a log that opened may then stay quiet for long. */
  onlyFirst?: boolean;
}
