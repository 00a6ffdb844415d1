// End-to-end tests of a game integration: the real service (synthetic capture, videos and game
// folders in a temp folder) with only that integration switched on, a stand-in for the game (a copy
// of a harmless program under the game's executable name, which is all game detection looks at),
// and the steps every such test takes: record while the integration is active, then read the
// bookmarks of the running recording and of the finished session. The service sees only the games
// started inside its temp folder, so suites running side by side never see each other's stand-ins.
import { formatDuration, TYPE_FOLDERS } from '@keyframe/core/protocol';
import type { ContentItem, State } from '@keyframe/core/protocol';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ProtocolClient } from './protocol-client.js';
import { ServiceProcess } from './service-process.js';
import { createTempFolder, type TempFolder } from './temp-folder.js';

/** A program that only waits, copied under a game's executable name; stopped with `stop`. */
export class StandInGame {
  private constructor(
    readonly executable: string,
    private readonly child: ChildProcess,
  ) {}

  /** Where the stand-in can run: it copies `/bin/sleep`, so Linux and macOS. */
  static readonly supported = process.platform === 'linux' || process.platform === 'darwin';

  /** Copies the program to `executable` (its folders created) and starts it for at most `seconds`. */
  static async start(executable: string, seconds = 600): Promise<StandInGame> {
    await mkdir(path.dirname(executable), { recursive: true });
    await copyFile('/bin/sleep', executable);
    const child = spawn(executable, [String(seconds)], { stdio: 'ignore' });
    await once(child, 'spawn');
    return new StandInGame(executable, child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }
}

export interface IntegrationServiceOptions {
  /** The integration under test; every other one is switched off, so no other game's stand-in can reach it. */
  integration: string;
  /** Extra environment (e.g. `KEYFRAME_STEAM_LIBRARIES`, `KEYFRAME_LOCAL_APPDATA` pointing into the temp folder). */
  env?: (temp: TempFolder) => NodeJS.ProcessEnv;
  /** Runs before the service starts: game folders that must be there when it enables the integration. */
  prepare?: (temp: TempFolder) => Promise<void>;
}

/** The service with one integration on, connected, recording 720p30 into `<temp>/videos`; `stop` ends all of it. */
export class IntegrationService {
  private readonly games: StandInGame[] = [];

  private constructor(
    readonly temp: TempFolder,
    readonly service: ServiceProcess,
    readonly client: ProtocolClient,
    readonly integration: string,
  ) {}

  static async start(options: IntegrationServiceOptions): Promise<IntegrationService> {
    const temp = await createTempFolder();
    await options.prepare?.(temp);
    const service = await ServiceProcess.start({
      dataFolder: path.join(temp.path, 'data'),
      gameProcessRoot: temp.path,
      env: { KEYFRAME_CAPTURE: 'synthetic', ...options.env?.(temp) },
    });
    const client = await ProtocolClient.connect(service.url);
    const { settings } = await client.handshake();
    const gameIntegrations = Object.fromEntries(
      Object.keys(settings.gameIntegrations).map((key) => [key, { enabled: key === options.integration }]),
    );
    client.send('UpdateSettings', { resolution: '720p', frameRate: 30, contentFolder: path.join(temp.path, 'videos'), gameIntegrations });
    await client.until(
      'Settings',
      (next) => Object.entries(next.gameIntegrations).every(([key, value]) => value.enabled === (key === options.integration)),
      10_000,
    );
    return new IntegrationService(temp, service, client, options.integration);
  }

  /** Starts a stand-in game at `executable`, relative to the temp folder (games outside it are not seen); stopped with the service. */
  async startGame(executable: string): Promise<StandInGame> {
    const game = await StandInGame.start(path.join(this.temp.path, executable));
    this.games.push(game);
    return game;
  }

  /** The integration's health entry. */
  health(state: State = this.client.latest('State')!): State['integrations'][string] | undefined {
    return state.integrations[this.integration];
  }

  /** Waits until the service sees the integration's game, starts a recording, and waits until the integration is active. */
  async recordWhileActive(timeoutMs = 30_000): Promise<State> {
    const gameSeen = (state: State) => /is running/.test(this.health(state)?.message ?? '') || this.health(state)?.status === 'active';
    await this.client.until('State', (state) => state.recording !== null || gameSeen(state), timeoutMs);
    if (this.client.latest('State')!.recording === null) this.client.send('StartRecording');
    await this.client.until('State', (state) => state.recording !== null && state.recording.endTime === null, timeoutMs);
    return this.client.until('State', (state) => this.health(state)?.status === 'active', timeoutMs);
  }

  /** Waits for the running recording to hold at least `count` bookmarks; resolves with their types. */
  async bookmarksReach(count: number, timeoutMs = 15_000): Promise<string[]> {
    const state = await this.client.until('State', (next) => (next.recording?.bookmarks.length ?? 0) >= count, timeoutMs);
    return state.recording!.bookmarks.map((bookmark) => bookmark.type);
  }

  /** Stops the recording; resolves with the finished session as listed in State. */
  async stopRecording(timeoutMs = 30_000): Promise<ContentItem> {
    const filePath = this.client.latest('State')!.recording?.filePath;
    this.client.send('StopRecording');
    const stopped = await this.client.until(
      'State',
      (state) => state.recording === null && state.content.some((item) => item.filePath === filePath),
      timeoutMs,
    );
    return stopped.content.find((item) => item.filePath === filePath)!;
  }

  /** The bookmarks in an item's metadata file on disk, with their time as the wire writes it. */
  async savedBookmarks(item: ContentItem): Promise<{ type: string; time: string }[]> {
    const sidecar = path.join(this.temp.path, 'data', 'cache', 'metadata', TYPE_FOLDERS[item.type], `${item.id}.json`);
    const { bookmarks } = JSON.parse(await readFile(sidecar, 'utf8')) as { bookmarks: { type: string; seconds: number }[] };
    return bookmarks.map(({ type, seconds }) => ({ type, time: formatDuration(seconds) }));
  }

  async stop(): Promise<void> {
    await Promise.all(this.games.map((game) => game.stop()));
    await this.client.close();
    await this.service.stop();
    await this.temp.remove();
  }
}
