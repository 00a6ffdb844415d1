// Crash recovery: videos no sidecar lists (a recording interrupted in `<cache>/recordings`, a file
// left in a type folder) are offered in `RecoveryPrompt`; `RecoveryConfirm` recovers, deletes or skips each.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import { fileInput } from '../media/file-input.js';
import { tempOutputPath } from '../media/job-output.js';
import { moveFile } from '../media/move-file.js';
import { needsRemux, readMp4Layout } from '../media/mp4-layout.js';
import type { ProbeResult } from '../media/probe.js';
import {
  formatRecoverySize,
  toWirePath,
  TYPE_FOLDERS,
  type CommandParameters,
  type ContentType,
  type RecoverableFile,
} from '../protocol/index.js';
import { FileWriters } from '../support/file-writers.js';
import { Logger } from '../support/logger.js';
import { pathKey } from '../support/paths.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { ContentIngest, UnreadableVideo } from '../library/content-ingest.js';
import { JobCancelled, JobRunner, type Job } from '../jobs/job-runner.js';
import { ContentLibrary, sanitizeFolderName, type ContentRecord } from '../library/content-library.js';
import { GameCatalog } from '../games/game-catalog.js';
import { Notifier } from '../notices/notifier.js';
import { SettingsStore } from '../settings/settings-store.js';
import { StorageMonitor } from '../storage/storage-monitor.js';

export const TYPE_LABELS: Readonly<Record<ContentType, string>> = {
  Session: 'Session Recording',
  Buffer: 'Replay Buffer',
  Clip: 'Clip',
  Highlight: 'Highlight',
};

/** The reference's order: sessions first, buffers last. */
const SCAN_ORDER: readonly ContentType[] = ['Session', 'Clip', 'Highlight', 'Buffer'];
export const UNKNOWN_GAME = 'Unknown';

/** A video without metadata, as found by the scan. */
export interface OrphanVideo {
  /** Absolute, in the platform's separators. */
  filePath: string;
  type: ContentType;
  /** The game folder's name mapped to a known game name; undefined when the file is not in a game folder. */
  detectedGame: string | undefined;
  /** An interrupted recording in `<cache>/recordings`: recovering moves it into the content folder. */
  inCache: boolean;
  sizeBytes: number;
}

export interface RecoveryCandidate extends OrphanVideo {
  recoveryId: string;
}

export interface OrphanScan {
  cacheFolder: string;
  contentFolder: string;
  /** Paths of every video the library lists. */
  listedPaths: Iterable<string>;
  /** Game names the user has (library, game list), to turn a sanitised folder name back into one. */
  knownGames: Iterable<string>;
}

/**
 * Interrupted recordings (`*.mp4` directly in `<cache>/recordings`, type Session, game unknown),
 * then `*.mp4` anywhere under the content folder's type folders that no listed path names.
 */
export async function findOrphanVideos(scan: OrphanScan): Promise<OrphanVideo[]> {
  const listed = new Set([...scan.listedPaths].map(pathKey));
  const gamesByFolder = new Map<string, string>();
  for (const game of scan.knownGames) {
    if (!gamesByFolder.has(sanitizeFolderName(game).toLowerCase())) gamesByFolder.set(sanitizeFolderName(game).toLowerCase(), game);
  }
  const found: OrphanVideo[] = [];
  const seen = new Set<string>();
  const take = async (filePath: string, type: ContentType, detectedGame: string | undefined, inCache: boolean) => {
    const key = pathKey(filePath);
    if (listed.has(key) || seen.has(key)) return;
    const info = await stat(filePath).catch(() => undefined);
    if (!info?.isFile()) return;
    seen.add(key);
    found.push({ filePath, type, detectedGame, inCache, sizeBytes: info.size });
  };

  const recordings = path.join(scan.cacheFolder, 'recordings');
  for (const name of (await listFolder(recordings)).filter(isVideoName).sort())
    await take(path.join(recordings, name), 'Session', undefined, true);

  for (const type of SCAN_ORDER) {
    const typeFolder = path.join(scan.contentFolder, TYPE_FOLDERS[type]);
    for (const relative of await videosUnder(typeFolder)) {
      const parts = relative.split(path.sep);
      // The game folder is the first one under the type folder (`<TypeFolder>/<game>/…/<file>`).
      const folder = parts.length > 1 ? parts[0]! : undefined;
      const detectedGame = folder === undefined ? undefined : (gamesByFolder.get(folder.toLowerCase()) ?? folder);
      await take(path.join(typeFolder, relative), type, detectedGame, false);
    }
  }
  return found;
}

/** The file object of `RecoveryPrompt` (protocol-gaps §6.3). */
export function toRecoverableFile(candidate: RecoveryCandidate): RecoverableFile {
  return {
    recoveryId: candidate.recoveryId,
    fileName: path.basename(candidate.filePath),
    filePath: toWirePath(candidate.filePath),
    type: candidate.type,
    typeLabel: TYPE_LABELS[candidate.type],
    fileSize: formatRecoverySize(candidate.sizeBytes),
    detectedGame: candidate.detectedGame ?? null,
  };
}

@injectable()
export class RecoveryService {
  /** Offered and not answered yet, by `recoveryId`. */
  private readonly offered = new Map<string, RecoveryCandidate>();
  private readonly busy = new Set<string>();
  private readonly logger: Logger;

  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    private readonly games: GameCatalog,
    private readonly runner: JobRunner,
    private readonly ingest: ContentIngest,
    private readonly notifier: Notifier,
    private readonly monitor: StorageMonitor,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('recovery');
  }

  /** The files waiting for an answer. */
  get pending(): readonly RecoveryCandidate[] {
    return [...this.offered.values()];
  }

  /** Looks for videos without metadata (once, at start-up, after the library has loaded). */
  async scan(): Promise<readonly RecoveryCandidate[]> {
    const settings = this.settings.current;
    const items = this.library.list();
    const orphans = await this.withoutFilesBeingWritten(
      await findOrphanVideos({
        cacheFolder: settings.cacheFolder,
        contentFolder: settings.contentFolder,
        listedPaths: items.map((item) => item.filePath),
        knownGames: [...items.map((item) => item.game), ...this.games.list().map((game) => game.name)],
      }),
    );
    this.offered.clear();
    for (const orphan of orphans) {
      const recoveryId = randomUUID();
      this.offered.set(recoveryId, { recoveryId, ...orphan });
    }
    if (orphans.length > 0) {
      this.logger.info('videos without metadata found', { count: orphans.length, files: orphans.map((orphan) => orphan.filePath) });
      this.offerPending();
    }
    return this.pending;
  }

  /** A video a live process is writing (another Keyframe's recording) is not interrupted: it is left alone, not offered. */
  private async withoutFilesBeingWritten(orphans: OrphanVideo[]): Promise<OrphanVideo[]> {
    if (orphans.length === 0) return orphans;
    const writers = await FileWriters.snapshot();
    const kept: OrphanVideo[] = [];
    for (const orphan of orphans) {
      const busy = await this.busyReason(orphan.filePath, writers);
      if (busy === undefined) kept.push(orphan);
      else this.logger.info('video without metadata left alone: it is being written', { file: orphan.filePath, reason: busy });
    }
    return kept;
  }

  private async busyReason(file: string, writers: FileWriters): Promise<string | undefined> {
    const info = await stat(file).catch(() => undefined);
    return info && writers.busyReason(file, info.mtimeMs);
  }

  /**
   * Sends `RecoveryPrompt` with every file still waiting for an answer. Called after the answer to
   * `NewConnection`, so a frontend that connects later (or reloads before answering) still gets it.
   */
  offerPending(): void {
    const files = this.pending.filter((candidate) => !this.busy.has(candidate.recoveryId)).map(toRecoverableFile);
    if (files.length === 0 || !this.events.isConnected) return;
    this.events.send('RecoveryPrompt', { files, totalCount: files.length });
  }

  /** The answer to `RecoveryConfirm`. Throws `CommandError`. */
  async confirm({ recoveryId, action, gameOverride }: CommandParameters<'RecoveryConfirm'>): Promise<void> {
    const candidate = this.offered.get(recoveryId);
    if (!candidate)
      throw new CommandError(
        'NotFound',
        `No recoverable file has the id ${recoveryId} (it was answered already, or the service restarted).`,
      );
    if (this.busy.has(recoveryId)) throw new CommandError('NotAllowed', `${candidate.filePath} is being recovered already.`);
    this.busy.add(recoveryId);
    try {
      const busy = action === 'skip' ? undefined : await this.busyReason(candidate.filePath, await FileWriters.snapshot());
      if (busy !== undefined) {
        throw new CommandError(
          'NotAllowed',
          `${candidate.filePath} is being written right now (${busy}), so it is not an interrupted recording: it was left as it is.`,
        );
      }
      if (action === 'skip') {
        this.logger.info('recovery skipped: offered again at the next start', { file: candidate.filePath });
      } else if (action === 'delete') {
        await rm(candidate.filePath, { force: true });
        this.logger.info('unrecovered video deleted', { file: candidate.filePath });
        this.monitor.refreshSoon();
      } else {
        const spec = { kind: 'recovery', operation: `Recovering ${candidate.filePath}`, key: recoveryId } as const;
        await this.runner.start(spec, (job) => this.recover(job, candidate, gameOverride)).done;
      }
      this.offered.delete(recoveryId);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error(`recovery ${action} failed`, { file: candidate.filePath, error: message });
      this.notifier.showModal({
        title: action === 'delete' ? 'Video not deleted' : 'Video not recovered',
        description: message,
        type: 'error',
      });
      throw error instanceof CommandError ? error : new CommandError('Failed', message);
    } finally {
      this.busy.delete(recoveryId);
    }
  }

  /** Runs as a job: stopping the service cancels its remux (its partial output removed) and the file stays offered. */
  private async recover(job: Job, candidate: RecoveryCandidate, gameOverride: string | undefined): Promise<ContentRecord> {
    const { tools } = job;
    const source = candidate.filePath;
    const info = await stat(source).catch(() => undefined);
    if (!info?.isFile()) throw new CommandError('NotFound', `${source} is gone: there is nothing to recover.`);
    // Times of the original: a remuxed copy is new.
    const createdAt = info.birthtimeMs > 0 ? info.birthtime : info.mtime;
    const game = gameOverride?.trim() || candidate.detectedGame || UNKNOWN_GAME;
    // Interrupted recordings go where the recorder would have put them; other files stay where they are.
    const target = candidate.inCache ? this.library.contentPath('Session', game, path.basename(source)) : source;

    const layout = await readMp4Layout(source).catch(() => undefined);
    let remuxed: string | undefined;
    if (!layout || needsRemux(layout)) {
      const temp = tempOutputPath(target);
      await mkdir(path.dirname(temp), { recursive: true });
      if (await this.remux(job, source, temp)) remuxed = temp;
    }
    let probed: ProbeResult;
    try {
      probed = await this.ingest.probe(remuxed ?? source, tools, 'video or audio');
    } catch (error) {
      if (remuxed) await rm(remuxed, { force: true });
      const reason = error instanceof UnreadableVideo ? error.reason : (error as Error).message;
      throw new Error(`${source} cannot be read (${reason}); it was left where it is.`, { cause: error });
    }

    let filePath = source;
    if (remuxed && candidate.inCache) {
      filePath = await moveFile(remuxed, target);
      await rm(source, { force: true });
    } else if (remuxed) {
      await rename(remuxed, source).catch(async (error: unknown) => {
        await rm(remuxed, { force: true });
        throw error;
      });
    } else if (candidate.inCache) {
      filePath = await moveFile(source, target);
    }
    // Should adding it fail, a retry starts from where the video is now.
    Object.assign(candidate, { filePath, inCache: false });

    const durationSeconds = probed.durationSeconds ?? 0;
    const recordedFrom = candidate.type === 'Session' ? stampTime(path.basename(source)) : undefined;
    job.throwIfCancelled();
    const item = await this.ingest.add({
      file: filePath,
      type: candidate.type,
      probed,
      meta: {
        game,
        createdAt,
        gameDatabaseId: this.games.list().find((entry) => entry.name.toLowerCase() === game.toLowerCase())?.gameDatabaseId ?? null,
        ...(recordedFrom ? { recordedFrom, recordedUntil: new Date(recordedFrom.getTime() + durationSeconds * 1000) } : {}),
      },
      tools,
    });
    this.logger.info('video recovered', {
      id: item.id,
      from: source,
      file: filePath,
      game,
      durationSeconds: item.durationSeconds,
      remuxed: remuxed !== undefined,
      layout: layout?.boxes.slice(0, 8),
    });
    return item;
  }

  /** `-c copy -movflags +faststart`: turns a fragmented or moov-last MP4 into a regular one. False if ffmpeg could not. */
  private async remux(job: Job, input: string, output: string): Promise<boolean> {
    try {
      await job.ffmpeg({
        args: ['-y', ...fileInput(input), '-map', '0:v?', '-map', '0:a?', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', output],
        outputs: [output],
        logger: this.logger,
        failure: (exit) => exit.errorText,
      }).finished;
      return true;
    } catch (error) {
      await rm(output, { force: true });
      if (error instanceof JobCancelled) throw error;
      this.logger.warn('remux failed: the original is kept as it is', { file: input, error: (error as Error).message });
      return false;
    }
  }
}

async function listFolder(folder: string): Promise<string[]> {
  return readdir(folder).catch(() => []);
}

/** Paths of `*.mp4` under `folder`, relative to it; dot-files and dot-folders are skipped. */
async function videosUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.shift()!;
    const entries = await readdir(path.join(folder, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const child = relative ? path.join(relative, entry.name) : entry.name;
      if (entry.isDirectory()) pending.push(child);
      else if (entry.isFile() && isVideoName(entry.name)) found.push(child);
    }
  }
  return found;
}

const isVideoName = (name: string) => !name.startsWith('.') && name.toLowerCase().endsWith('.mp4');

/** `yyyy-MM-dd_HH-mm-ss` at the start of a file name, as local time (how recordings are named). */
function stampTime(fileName: string): Date | undefined {
  const match = /^(\d{4})-(\d\d)-(\d\d)_(\d\d)-(\d\d)-(\d\d)/.exec(fileName);
  if (!match) return undefined;
  const [, year, month, day, hours, minutes, seconds] = match.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hours, minutes, seconds);
  return Number.isNaN(date.getTime()) || date.getMonth() !== month - 1 ? undefined : date;
}
