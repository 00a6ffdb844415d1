// The live `tail` source: follows the newest of a game's candidate log files, line by line, through
// truncation, rotation, deletion and files that appear later.
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { watch, type FSWatcher } from 'chokidar';
import type { TailInput, TailOptions } from '../../sdk/feed-types.js';
import { CoalescedTask } from './coalesced-task.js';
import { LineSplitter } from './line-splitter.js';
import type { LiveSource, SourceContext } from './types.js';

const DEFAULT_DISCOVERY_INTERVAL_MS = 1000;
/** How often the followed file is stat'ed in case a file-system event was missed (network drives, some games on Windows). */
const SAFETY_STAT_INTERVAL_MS = 250;
const READ_CHUNK_BYTES = 64 * 1024;

interface ReadPosition {
  dev: number;
  ino: number;
  offset: number;
}

interface FollowedFile extends ReadPosition {
  path: string;
  /** The path was found missing since it was last read: whatever is there now is a new file. */
  missing: boolean;
}

export class FileTail implements LiveSource {
  readonly ready: Promise<void>;
  private readonly discoveryIntervalMs: number;
  private readonly splitter: LineSplitter;
  private readonly startingPoint: Promise<void>;
  private readonly check = new CoalescedTask(
    () => this.checkFiles(),
    (error) => this.reportProblem(error),
  );
  private readonly watcher: FSWatcher;
  private readonly timer: NodeJS.Timeout;
  /** Where reading stopped in each candidate, so no line is delivered twice or from before the feed opened. */
  private readonly positions = new Map<string, ReadPosition>();
  private followed: FollowedFile | undefined;
  private lastDiscoveryAt = Number.NEGATIVE_INFINITY;
  private discoveryRequested = true;
  private lastProblem: string | undefined;

  constructor(
    private readonly context: SourceContext<TailInput>,
    private readonly options: TailOptions,
  ) {
    this.discoveryIntervalMs = options.discoveryIntervalMs ?? DEFAULT_DISCOVERY_INTERVAL_MS;
    this.splitter = new LineSplitter(options.encoding ?? 'utf8');
    this.startingPoint = this.takeStartingPoint();
    this.ready = this.check.request();
    this.watcher = watch([...options.paths], { ignoreInitial: true })
      .on('all', (event) => {
        if (event !== 'change') this.discoveryRequested = true;
        void this.check.request();
      })
      .on('error', (error) => this.reportProblem(error));
    this.timer = setInterval(() => void this.check.request(), Math.min(this.discoveryIntervalMs, SAFETY_STAT_INTERVAL_MS));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.check.stop();
    await this.watcher.close();
  }

  /** Candidates that exist now are followed from their end: those lines were written before the feed opened. */
  private async takeStartingPoint(): Promise<void> {
    for (const path of this.options.paths) {
      try {
        const stats = await statIfExists(path);
        if (stats?.isFile()) this.positions.set(path, { dev: stats.dev, ino: stats.ino, offset: stats.size });
      } catch (error) {
        this.reportProblem(error);
      }
    }
  }

  private async checkFiles(): Promise<void> {
    await this.startingPoint;
    if (this.followed) await this.readAppended(this.followed);
    if (this.discoveryRequested || performance.now() - this.lastDiscoveryAt >= this.discoveryIntervalMs) await this.discover();
    this.lastProblem = undefined;
  }

  private async discover(): Promise<void> {
    this.discoveryRequested = false;
    this.lastDiscoveryAt = performance.now();
    const newest = await this.findNewest();
    if (newest === undefined || newest.path === this.followed?.path) return;
    this.followed = this.startFollowing(newest.path, newest.stats);
    this.context.logger.info(`tail feed "${this.context.feed}" follows ${newest.path}`, { feed: this.context.feed });
    this.context.emit({ reset: 'opened', file: newest.path });
    await this.readAppended(this.followed);
  }

  /** The most recently written existing candidate; on a tie, the one listed first. */
  private async findNewest(): Promise<{ path: string; stats: Stats } | undefined> {
    let newest: { path: string; stats: Stats } | undefined;
    for (const path of this.options.paths) {
      const stats = await statIfExists(path);
      if (!stats?.isFile()) this.positions.delete(path);
      else if (newest === undefined || stats.mtimeMs > newest.stats.mtimeMs) newest = { path, stats };
    }
    return newest;
  }

  private startFollowing(path: string, stats: Stats): FollowedFile {
    const known = this.positions.get(path);
    const sameFile = known !== undefined && known.dev === stats.dev && known.ino === stats.ino && known.offset <= stats.size;
    this.splitter.reset();
    return { path, dev: stats.dev, ino: stats.ino, offset: sameFile ? known.offset : 0, missing: false };
  }

  private async readAppended(file: FollowedFile): Promise<void> {
    const stats = await statIfExists(file.path);
    if (!stats?.isFile()) {
      file.missing = true;
      this.discoveryRequested = true;
      return;
    }
    if (file.missing || stats.dev !== file.dev || stats.ino !== file.ino) {
      Object.assign(file, { dev: stats.dev, ino: stats.ino, offset: 0, missing: false });
      this.restart(file, 'rotated');
    } else if (stats.size < file.offset) {
      file.offset = 0;
      this.restart(file, 'truncated');
    }
    if (stats.size > file.offset) await this.readUpTo(file, stats.size);
  }

  private restart(file: FollowedFile, reset: 'rotated' | 'truncated'): void {
    this.splitter.reset();
    this.remember(file);
    this.context.emit({ reset, file: file.path });
  }

  private async readUpTo(file: FollowedFile, end: number): Promise<void> {
    const handle = await open(file.path, 'r');
    try {
      const buffer = Buffer.alloc(READ_CHUNK_BYTES);
      while (file.offset < end) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(READ_CHUNK_BYTES, end - file.offset), file.offset);
        if (bytesRead === 0) break;
        file.offset += bytesRead;
        for (const line of this.splitter.push(buffer.subarray(0, bytesRead))) this.context.emit({ line, file: file.path });
      }
    } finally {
      await handle.close();
      this.remember(file);
    }
  }

  private remember(file: FollowedFile): void {
    this.positions.set(file.path, { dev: file.dev, ino: file.ino, offset: file.offset });
  }

  /** Logged once until a check succeeds again: the same failure every 250 ms tells nobody anything new. */
  private reportProblem(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (message === this.lastProblem) return;
    this.lastProblem = message;
    this.context.logger.warn(`tail feed "${this.context.feed}" cannot read its file (${message}); it keeps trying`, {
      feed: this.context.feed,
    });
  }
}

async function statIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
