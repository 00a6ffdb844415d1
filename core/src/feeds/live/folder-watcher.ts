// The live `watchFolder` source: reports each new file in a folder (and its sub-folders) once the
// game has finished writing it.
import { once } from 'node:events';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FolderInput, WatchFolderOptions } from '../../sdk/feed-types.js';
import { CoalescedTask } from './coalesced-task.js';
import type { LiveSource, SourceContext } from './types.js';

const DEFAULT_INTERVAL_MS = 2500;
const DEFAULT_STABLE_MS = 1000;
/** Timers may fire a little early against `performance.now()`; a check that comes too soon waits a whole interval. */
const TIMER_SLACK_MS = 5;

interface FoundFile {
  absolutePath: string;
  size: number;
  mtimeMs: number;
}

interface GrowingFile {
  size: number;
  mtimeMs: number;
  unchangedSince: number;
}

export class FolderWatcher implements LiveSource {
  readonly ready: Promise<void>;
  private readonly folder: string;
  private readonly pattern: RegExp | undefined;
  private readonly stableMs: number;
  private readonly scan = new CoalescedTask(
    () => this.scanFolder(),
    (error) => this.reportProblem(error),
  );
  private watcher: FSWatcher | undefined;
  /** The folder, or while it does not exist the nearest folder above it that does: its creation is seen at once. */
  private watchedFolder: string | undefined;
  private readonly timer: NodeJS.Timeout;
  private stabilityTimer: NodeJS.Timeout | undefined;
  /** Files delivered, or there when the feed opened: never delivered (again) while they exist. */
  private readonly done = new Set<string>();
  private readonly growing = new Map<string, GrowingFile>();
  private startingPointTaken = false;
  private lastProblem: string | undefined;

  constructor(
    private readonly context: SourceContext<FolderInput>,
    options: WatchFolderOptions,
  ) {
    this.folder = path.resolve(options.folder);
    // A global or sticky pattern would remember where it last matched and skip files.
    this.pattern = options.pattern && new RegExp(options.pattern.source, options.pattern.flags.replace(/[gy]/g, ''));
    this.stableMs = options.stableMs ?? DEFAULT_STABLE_MS;
    this.ready = this.scan.request();
    this.timer = setInterval(() => void this.scan.request(), options.intervalMs ?? DEFAULT_INTERVAL_MS);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.scan.stop();
    clearTimeout(this.stabilityTimer);
    await this.watcher?.close();
  }

  private async scanFolder(): Promise<void> {
    await this.watchNearestFolder();
    const files = await this.findFiles();
    this.lastProblem = undefined;
    if (!this.startingPointTaken) {
      for (const relativePath of files.keys()) this.done.add(relativePath);
      this.startingPointTaken = true;
      return;
    }
    for (const relativePath of this.done) if (!files.has(relativePath)) this.done.delete(relativePath);
    for (const relativePath of this.growing.keys()) if (!files.has(relativePath)) this.growing.delete(relativePath);
    const now = performance.now();
    for (const [relativePath, file] of files) {
      if (!this.done.has(relativePath)) this.track(relativePath, file, now);
    }
    this.scheduleStabilityCheck(now);
  }

  private track(relativePath: string, file: FoundFile, now: number): void {
    const growing = this.growing.get(relativePath);
    if (growing === undefined || growing.size !== file.size || growing.mtimeMs !== file.mtimeMs) {
      this.growing.set(relativePath, { size: file.size, mtimeMs: file.mtimeMs, unchangedSince: now });
      return;
    }
    if (now - growing.unchangedSince < this.stableMs) return;
    this.growing.delete(relativePath);
    this.done.add(relativePath);
    this.context.emit({ path: relativePath, absolutePath: file.absolutePath, size: file.size });
  }

  /** Looks again as soon as the first growing file can have been still for `stableMs`, not a whole interval later. */
  private scheduleStabilityCheck(now: number): void {
    clearTimeout(this.stabilityTimer);
    this.stabilityTimer = undefined;
    if (this.growing.size === 0) return;
    const firstDue = Math.min(...[...this.growing.values()].map((file) => file.unchangedSince + this.stableMs));
    this.stabilityTimer = setTimeout(() => void this.scan.request(), Math.max(0, firstDue - now) + TIMER_SLACK_MS);
  }

  /** Matching files by path relative to the folder (forward slashes); none while the folder does not exist. */
  private async findFiles(): Promise<Map<string, FoundFile>> {
    const entries = await readdir(this.folder, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
      throw error;
    });
    const found = await Promise.all(
      entries
        .map((entry) => ({ relativePath: entry.split(path.sep).join('/'), absolutePath: path.join(this.folder, entry) }))
        .filter(({ relativePath }) => this.pattern?.test(relativePath) ?? true)
        .map(async ({ relativePath, absolutePath }) => {
          const stats = await stat(absolutePath).catch(() => undefined);
          return stats?.isFile() ? ([relativePath, { absolutePath, size: stats.size, mtimeMs: stats.mtimeMs }] as const) : undefined;
        }),
    );
    return new Map(found.filter((file) => file !== undefined));
  }

  /**
   * Watches the folder itself once it exists; until then the nearest existing folder above it, only
   * its direct entries, so each folder of the path is seen being created (a scan follows, which moves
   * the watch down) without the timer's delay.
   */
  private async watchNearestFolder(): Promise<void> {
    // Looked at again once a new watch is ready: a folder created while it was being set up is not missed.
    for (let nearest = await this.nearestFolder(); nearest !== this.watchedFolder; nearest = await this.nearestFolder()) {
      await this.watcher?.close();
      this.watchedFolder = nearest;
      const watcher = watch(nearest, { ignoreInitial: true, ...(nearest === this.folder ? {} : { depth: 0 }) })
        .on('all', () => void this.scan.request())
        .on('error', (error) => this.reportProblem(error));
      this.watcher = watcher;
      await once(watcher, 'ready');
    }
  }

  private async nearestFolder(): Promise<string> {
    let nearest = this.folder;
    while (!(await isFolder(nearest)) && path.dirname(nearest) !== nearest) nearest = path.dirname(nearest);
    return nearest;
  }

  /** Logged once until a scan succeeds again. */
  private reportProblem(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message === this.lastProblem) return;
    this.lastProblem = message;
    this.context.logger.warn(`watchFolder feed "${this.context.feed}" cannot scan ${this.folder} (${message}); it keeps trying`, {
      feed: this.context.feed,
    });
  }
}

async function isFolder(folder: string): Promise<boolean> {
  return stat(folder).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}
