// Disk figures in State (content folder size, drive space), the storage limit (oldest Sessions and
// Replay Buffers deleted first), and the guard that stops a recording before its drive is full.
import { lstat, readdir, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { ContentType, Settings, State } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { ContentLibrary } from './content-library.js';
import { Notifier } from './notifier.js';
import { RecorderService } from './recorder-service.js';
import { SettingsStore } from './settings-store.js';
import { StateStore } from './state-store.js';

export const GIB = 1024 ** 3;

export interface StorageMonitorOptions {
  /** How often the figures are measured again when nothing else asked for it. */
  intervalMs: number;
  /** Quiet time after a content change before measuring (a batch delete is one measurement). */
  debounceMs: number;
  /** How often free space is checked while recording. */
  recordingCheckMs: number;
  /** Below this many free bytes on the cache folder's drive, a running recording is stopped. */
  minFreeBytes: number;
  /** The storage limit never deletes an item younger than this (by creation and by last write). */
  minAgeMs: number;
}

export const STORAGE_MONITOR_OPTIONS = Symbol('StorageMonitorOptions');

export const DEFAULT_STORAGE_MONITOR_OPTIONS: Readonly<StorageMonitorOptions> = {
  intervalMs: 60_000,
  debounceMs: 1_000,
  recordingCheckMs: 10_000,
  minFreeBytes: GIB,
  minAgeMs: 60 * 60 * 1000,
};

/** The defaults, with `KEYFRAME_MIN_FREE_BYTES` (tests make the disk look full with a huge value). */
export function storageMonitorOptions(variables: NodeJS.ProcessEnv = process.env): StorageMonitorOptions {
  const minFree = Number(variables.KEYFRAME_MIN_FREE_BYTES);
  return {
    ...DEFAULT_STORAGE_MONITOR_OPTIONS,
    ...(variables.KEYFRAME_MIN_FREE_BYTES && Number.isFinite(minFree) && minFree >= 0 ? { minFreeBytes: minFree } : {}),
  };
}

/** A library item as the storage limit weighs it. */
export interface DeletionCandidate {
  id: string;
  type: ContentType;
  filePath: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  modifiedAt: number;
  sizeBytes: number;
}

export interface DeletionRules {
  now: number;
  minAgeMs: number;
  /** Files never to delete (the active recording). */
  protectedPaths?: readonly string[];
}

const AUTO_DELETED_TYPES: readonly ContentType[] = ['Session', 'Buffer'];

/**
 * What the storage limit deletes to free `excessBytes`: Sessions and Replay Buffers only, older than
 * `minAgeMs` by creation and by last write, oldest first, no more than needed.
 */
export function chooseDeletions(candidates: readonly DeletionCandidate[], excessBytes: number, rules: DeletionRules): DeletionCandidate[] {
  if (excessBytes <= 0) return [];
  const cutoff = rules.now - rules.minAgeMs;
  const protectedPaths = new Set((rules.protectedPaths ?? []).map(comparablePath));
  const eligible = candidates
    .filter((item) => AUTO_DELETED_TYPES.includes(item.type))
    .filter((item) => item.createdAt <= cutoff && item.modifiedAt <= cutoff)
    .filter((item) => !protectedPaths.has(comparablePath(item.filePath)))
    .sort((a, b) => a.createdAt - b.createdAt || a.modifiedAt - b.modifiedAt);
  const chosen: DeletionCandidate[] = [];
  let freed = 0;
  for (const item of eligible) {
    if (freed >= excessBytes) break;
    chosen.push(item);
    freed += item.sizeBytes;
  }
  return chosen;
}

/** Bytes of every file under `folder` (logical sizes, `st.size`; symbolic links are not followed); 0 if it is missing. */
export async function folderSizeBytes(folder: string): Promise<number> {
  let total = 0;
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      continue; // gone or unreadable: it holds nothing we can count
    }
    const sizes = await Promise.all(entries.map(async (entry) => {
      const entryPath = path.join(current, entry.name);
      if (entry.isDirectory()) {
        pending.push(entryPath);
        return 0;
      }
      if (!entry.isFile()) return 0;
      return lstat(entryPath).then((info) => info.size, () => 0);
    }));
    for (const size of sizes) total += size;
  }
  return total;
}

export interface DriveSpace {
  usedBytes: number;
  freeBytes: number;
}

/** Used and free (for this user) bytes of the drive holding `folder`, or of its nearest existing parent. */
export async function driveSpace(folder: string): Promise<DriveSpace | undefined> {
  let current = path.resolve(folder);
  for (;;) {
    try {
      const info = await statfs(current);
      return { usedBytes: (info.blocks - info.bfree) * info.bsize, freeBytes: info.bavail * info.bsize };
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) return undefined;
      current = parent;
    }
  }
}

/** Bytes as GB (GiB, as the limit) with two decimals. */
export const toGb = (bytes: number) => Math.round((bytes / GIB) * 100) / 100;

export const isInside = (folder: string, file: string) => {
  const relative = path.relative(path.resolve(folder), path.resolve(file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

@injectable()
export class StorageMonitor {
  private readonly logger: Logger;
  private readonly unsubscribe: (() => void)[] = [];
  private interval: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private recordingCheck: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private stoppingRecording = false;
  private stopped = false;
  /** So that "over the limit, nothing may be deleted" is logged once, not every minute. */
  private reportedStuckOver = false;

  constructor(
    private readonly settings: SettingsStore,
    private readonly state: StateStore,
    private readonly library: ContentLibrary,
    private readonly recorder: RecorderService,
    private readonly notifier: Notifier,
    @inject(STORAGE_MONITOR_OPTIONS) private readonly options: StorageMonitorOptions,
    logger: Logger,
  ) {
    this.logger = logger.child('storage');
  }

  /** The storage limit in bytes. */
  get limitBytes(): number {
    return this.settings.current.storageLimit * GIB;
  }

  /** Measures once (enforcing the limit), then follows content, settings and recordings until `stop()`. */
  async start(): Promise<void> {
    this.stopped = false;
    let content = this.state.current.content;
    this.unsubscribe.push(this.state.onChange((state: Readonly<State>) => {
      if (state.content === content) return;
      content = state.content;
      this.refreshSoon();
    }));
    let watched = watchedSettings(this.settings.current);
    this.unsubscribe.push(this.settings.onChange((settings) => {
      const next = watchedSettings(settings);
      if (next === watched) return;
      watched = next;
      this.refreshSoon();
    }));
    this.unsubscribe.push(this.recorder.onStarted(() => {
      void this.checkFreeSpace();
      clearInterval(this.recordingCheck);
      this.recordingCheck = setInterval(() => void this.checkFreeSpace(), this.options.recordingCheckMs);
      this.recordingCheck.unref();
    }));
    this.unsubscribe.push(this.recorder.onStopped(() => {
      clearInterval(this.recordingCheck);
      this.recordingCheck = undefined;
    }));
    await this.refresh();
    this.interval = setInterval(() => void this.refresh(), this.options.intervalMs);
    this.interval.unref();
  }

  stop(): void {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    clearInterval(this.interval);
    clearInterval(this.recordingCheck);
    clearTimeout(this.debounce);
  }

  /** Measures after a quiet `debounceMs`. */
  refreshSoon(): void {
    if (this.stopped) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.refresh(), this.options.debounceMs);
    this.debounce.unref();
  }

  /** Measures now: State figures, the storage limit, free space while recording. One pass at a time. */
  refresh(): Promise<void> {
    if (this.running) {
      this.queued ??= this.running.then(() => {
        this.queued = undefined;
        return this.refresh();
      });
      return this.queued;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Size of the content folder in bytes, for callers that must compare with the limit first (imports). */
  measureContentFolder(): Promise<number> {
    return folderSizeBytes(this.settings.current.contentFolder);
  }

  /** Stops the running recording when the drive it is written to is almost full. */
  async checkFreeSpace(): Promise<void> {
    if (!this.recorder.current || this.stoppingRecording || this.stopped) return;
    const cacheFolder = this.settings.current.cacheFolder;
    const space = await driveSpace(cacheFolder);
    if (!space || space.freeBytes >= this.options.minFreeBytes || !this.recorder.current) return;
    this.stoppingRecording = true;
    try {
      this.logger.warn('disk almost full: stopping the recording', { folder: cacheFolder, freeBytes: space.freeBytes, minFreeBytes: this.options.minFreeBytes });
      const item = await this.recorder.stop().catch((error: unknown) => {
        this.logger.error('recording could not be stopped for low disk space', { error });
        return undefined;
      });
      this.notifier.showModal({
        title: 'Recording stopped: the disk is almost full',
        description: `Only ${formatBytes(space.freeBytes)} is free on the drive of ${cacheFolder}; Keyframe stops recording below ${formatBytes(this.options.minFreeBytes)}. `
          + `${item ? `What was recorded was saved as ${item.filePath}. ` : ''}Free some space, lower the storage limit, or choose another cache folder before recording again.`,
        type: 'error',
      });
    } finally {
      this.stoppingRecording = false;
    }
  }

  private async pass(): Promise<void> {
    try {
      let size = await this.measureContentFolder();
      if (size > this.limitBytes) size -= await this.enforceLimit(size);
      await this.publish(size);
      await this.checkFreeSpace();
    } catch (error) {
      this.logger.error('storage figures could not be measured', { error });
    }
  }

  private async publish(sizeBytes: number): Promise<void> {
    const space = await driveSpace(this.settings.current.contentFolder);
    const figures: Pick<State, 'currentFolderSizeGb' | 'recordingDriveUsedGb' | 'recordingDriveFreeGb'> = {
      currentFolderSizeGb: toGb(sizeBytes),
      recordingDriveUsedGb: space ? toGb(space.usedBytes) : null,
      recordingDriveFreeGb: space ? toGb(space.freeBytes) : null,
    };
    const current = this.state.current;
    if (this.stopped || (Object.keys(figures) as (keyof typeof figures)[]).every((key) => current[key] === figures[key])) return;
    this.state.update(figures);
  }

  /** Deletes the oldest Sessions and Replay Buffers of the content folder until it is under the limit; resolves to the bytes freed. */
  private async enforceLimit(sizeBytes: number): Promise<number> {
    const contentFolder = this.settings.current.contentFolder;
    const excess = sizeBytes - this.limitBytes;
    const candidates: DeletionCandidate[] = [];
    for (const item of this.library.list()) {
      if (!AUTO_DELETED_TYPES.includes(item.type) || !isInside(contentFolder, item.filePath)) continue;
      const info = await stat(item.filePath).catch(() => undefined);
      if (!info?.isFile()) continue;
      candidates.push({ id: item.id, type: item.type, filePath: item.filePath, createdAt: Date.parse(item.createdAt), modifiedAt: info.mtimeMs, sizeBytes: info.size });
    }
    const active = this.recorder.current?.contentFilePath;
    const chosen = chooseDeletions(candidates, excess, { now: Date.now(), minAgeMs: this.options.minAgeMs, protectedPaths: active ? [active] : [] });
    const chosenBytes = chosen.reduce((sum, item) => sum + item.sizeBytes, 0);
    if (chosenBytes < excess) {
      if (!this.reportedStuckOver) {
        this.logger.warn('content folder is over the storage limit and not enough may be deleted (only Sessions and Replay Buffers older than the minimum age)', {
          folder: contentFolder, sizeGb: toGb(sizeBytes), limitGb: this.settings.current.storageLimit, deletableGb: toGb(chosenBytes),
        });
      }
      this.reportedStuckOver = true;
    } else {
      this.reportedStuckOver = false;
    }
    let freed = 0;
    for (const item of chosen) {
      if (this.stopped) break;
      try {
        await this.library.remove(item.id);
        freed += item.sizeBytes;
        this.logger.info('storage limit: deleted', { id: item.id, type: item.type, file: item.filePath, sizeGb: toGb(item.sizeBytes), createdAt: new Date(item.createdAt).toISOString() });
      } catch (error) {
        this.logger.error('storage limit: could not delete', { id: item.id, file: item.filePath, error });
      }
    }
    if (chosen.length > 0) {
      this.logger.info('storage limit enforced', { folder: contentFolder, limitGb: this.settings.current.storageLimit, beforeGb: toGb(sizeBytes), freedGb: toGb(freed), deleted: chosen.length });
    }
    return freed;
  }
}

const watchedSettings = (settings: Readonly<Settings>) => JSON.stringify([settings.contentFolder, settings.cacheFolder, settings.storageLimit]);

const comparablePath = (file: string) => {
  const resolved = path.resolve(file).replaceAll('\\', '/');
  return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
};

const formatBytes = (bytes: number) => (bytes >= GIB ? `${(bytes / GIB).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(0)} MB`);
