// Disk figures (what the library takes in the content folder, drive space; State shows them), the storage limit
// (oldest Sessions and Replay Buffers deleted first, once the user allowed it for this folder and
// limit), and the guard that stops a recording before its drive is full.
import type { Stats } from 'node:fs';
import { lstat, realpath, statfs } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { ContentType } from '../protocol/index.js';
import { Logger } from '../support/logger.js';
import { ContentLibrary, type ContentRecord } from '../library/content-library.js';
import { Notifier } from '../notices/notifier.js';
import { RecorderService } from '../recording/recorder-service.js';
import { isWithin } from '../support/paths.js';
import { SettingsStore } from '../settings/settings-store.js';
import { TypedEvents } from '../support/typed-events.js';
import { StorageLimitConsent } from './storage-limit-consent.js';
import { StorageWarnings } from './storage-warnings.js';

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

/** A library item as the storage limit weighs it; `sizeBytes` is what it takes on the disk. */
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
  /** Files never to delete (the one being recorded). */
  isProtected?: (file: string) => boolean;
}

const AUTO_DELETED_TYPES: readonly ContentType[] = ['Session', 'Buffer'];

/**
 * What the storage limit deletes to free `excessBytes`: Sessions and Replay Buffers only, older than
 * `minAgeMs` by creation and by last write, oldest first, no more than needed.
 */
export function chooseDeletions(candidates: readonly DeletionCandidate[], excessBytes: number, rules: DeletionRules): DeletionCandidate[] {
  if (excessBytes <= 0) return [];
  const cutoff = rules.now - rules.minAgeMs;
  const eligible = candidates
    .filter((item) => AUTO_DELETED_TYPES.includes(item.type))
    .filter((item) => item.createdAt <= cutoff && item.modifiedAt <= cutoff)
    .filter((item) => !rules.isProtected?.(item.filePath))
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

/** Bytes a file takes on the disk (a sparse file takes less than its size); its size where blocks are not reported (Windows). */
export function allocatedBytes(info: Pick<Stats, 'size' | 'blocks'>): number {
  return process.platform !== 'win32' && Number.isFinite(info.blocks) ? info.blocks * 512 : info.size;
}

/**
 * The library's items whose video is a regular file inside `contentFolder` (not a symbolic link, not
 * reached through one that leads out), each counted once. Nothing else in the folder is Keyframe's to
 * count or delete, and nothing outside it is looked at.
 */
export async function ownedFiles(contentFolder: string, items: readonly ContentRecord[]): Promise<DeletionCandidate[]> {
  const realFolder = await realpath(contentFolder).catch(() => undefined);
  if (!realFolder) return [];
  const seen = new Set<string>();
  const owned: DeletionCandidate[] = [];
  for (const item of items) {
    if (!isWithin(contentFolder, item.filePath)) continue;
    const info = await lstat(item.filePath).catch(() => undefined);
    if (!info?.isFile()) continue;
    const realParent = await realpath(path.dirname(item.filePath)).catch(() => undefined);
    if (!realParent || !isWithin(realFolder, realParent)) continue;
    const identity = `${info.dev}:${info.ino}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    owned.push({
      id: item.id,
      type: item.type,
      filePath: item.filePath,
      createdAt: item.createdAt.getTime(),
      modifiedAt: info.mtimeMs,
      sizeBytes: allocatedBytes(info),
    });
  }
  return owned;
}

const totalBytes = (files: readonly DeletionCandidate[]) => files.reduce((sum, file) => sum + file.sizeBytes, 0);

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
export type StorageEvents = {
  /** A measurement: the bytes the library's videos take in the content folder, and the drive's space (unknown where it cannot be read). */
  measured: { folderBytes: number; drive: DriveSpace | undefined };
};

export const toGb = (bytes: number) => Math.round((bytes / GIB) * 100) / 100;

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
  readonly events = new TypedEvents<StorageEvents>();
  /** What was reported last ("deleting cannot help", "declined", each with its folder and limit), so it is reported once. */
  private reportedFor: string | undefined;
  /** The question "may old recordings be deleted?" waiting for an answer, and the folder and limit it is about. */
  private asking: { key: string; warningId: string } | undefined;

  constructor(
    private readonly settings: SettingsStore,
    private readonly library: ContentLibrary,
    private readonly recorder: RecorderService,
    private readonly notifier: Notifier,
    private readonly warnings: StorageWarnings,
    private readonly consent: StorageLimitConsent,
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
    await this.consent.load();
    this.unsubscribe.push(this.library.events.on('changed', () => this.refreshSoon()));
    this.unsubscribe.push(this.settings.onChange(() => this.refreshSoon(), ['contentFolder', 'cacheFolder', 'storageLimit']));
    this.unsubscribe.push(
      this.recorder.onStarted(() => {
        void this.checkFreeSpace();
        clearInterval(this.recordingCheck);
        this.recordingCheck = setInterval(() => void this.checkFreeSpace(), this.options.recordingCheckMs);
        this.recordingCheck.unref();
      }),
    );
    this.unsubscribe.push(
      this.recorder.onStopped(() => {
        clearInterval(this.recordingCheck);
        this.recordingCheck = undefined;
      }),
    );
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

  /** Bytes the library's items take in the content folder, as the limit counts them (imports compare with it first). */
  async measureContentFolder(): Promise<number> {
    return totalBytes(await ownedFiles(this.settings.current.contentFolder, this.library.list()));
  }

  /** Stops the running recording when the drive it is written to is almost full. */
  async checkFreeSpace(): Promise<void> {
    if (!this.recorder.current || this.stoppingRecording || this.stopped) return;
    const cacheFolder = this.settings.current.cacheFolder;
    const space = await driveSpace(cacheFolder);
    if (!space || space.freeBytes >= this.options.minFreeBytes || !this.recorder.current) return;
    this.stoppingRecording = true;
    try {
      this.logger.warn('disk almost full: stopping the recording', {
        folder: cacheFolder,
        freeBytes: space.freeBytes,
        minFreeBytes: this.options.minFreeBytes,
      });
      const item = await this.recorder.stop().catch((error: unknown) => {
        this.logger.error('recording could not be stopped for low disk space', { error });
        return undefined;
      });
      this.notifier.showModal({
        title: 'Recording stopped: the disk is almost full',
        description:
          `Only ${formatBytes(space.freeBytes)} is free on the drive of ${cacheFolder}; Keyframe stops recording below ${formatBytes(this.options.minFreeBytes)}. ` +
          `${item ? `What was recorded was saved as ${item.filePath}. ` : ''}Free some space, lower the storage limit, or choose another cache folder before recording again.`,
        type: 'error',
      });
    } finally {
      this.stoppingRecording = false;
    }
  }

  private async pass(): Promise<void> {
    try {
      const owned = await ownedFiles(this.settings.current.contentFolder, this.library.list());
      let size = totalBytes(owned);
      if (size > this.limitBytes) size -= await this.enforceLimit(owned, size);
      else this.withdrawQuestion();
      await this.publish(size);
      await this.checkFreeSpace();
    } catch (error) {
      this.logger.error('storage figures could not be measured', { error });
    }
  }

  private async publish(folderBytes: number): Promise<void> {
    const drive = await driveSpace(this.settings.current.contentFolder);
    if (!this.stopped) this.events.emit('measured', { folderBytes, drive });
  }

  /**
   * Deletes the oldest Sessions and Replay Buffers of the content folder until it is under the limit;
   * resolves to the bytes freed. Deletes nothing when that cannot reach the limit, and nothing before
   * the user allowed it for this folder and limit.
   */
  private async enforceLimit(owned: readonly DeletionCandidate[], sizeBytes: number): Promise<number> {
    const contentFolder = this.settings.current.contentFolder;
    const limitGb = this.settings.current.storageLimit;
    const key = JSON.stringify([contentFolder, limitGb]);
    const excess = sizeBytes - this.limitBytes;
    const isProtected = (file: string) => this.recorder.current?.isWriting(file) === true;
    const chosen = chooseDeletions(owned, excess, { now: Date.now(), minAgeMs: this.options.minAgeMs, isProtected });
    const chosenBytes = totalBytes(chosen);
    if (chosenBytes < excess) {
      this.withdrawQuestion();
      this.reportOnce(`cannot reach ${key}`, () => {
        this.logger.warn(
          'over the storage limit, and deleting every old session and replay buffer would not bring the library under it: nothing deleted',
          {
            folder: contentFolder,
            sizeGb: toGb(sizeBytes),
            limitGb,
            deletableGb: toGb(chosenBytes),
          },
        );
        this.notifier.showModal({
          title: 'Over your storage limit',
          description:
            `Keyframe's videos in ${contentFolder} take ${toGb(sizeBytes)} GB, more than your storage limit of ${limitGb} GB. ` +
            `Deleting every session and replay buffer older than an hour would free only ${toGb(chosenBytes)} GB, so nothing was deleted. ` +
            'Raise the storage limit, or delete or move some clips and highlights yourself.',
          type: 'warning',
        });
      });
      return 0;
    }
    const answer = this.consent.answerFor(contentFolder, limitGb);
    if (answer !== undefined) this.withdrawQuestion(); // one about another folder or limit
    if (answer === 'declined') {
      this.reportOnce(`declined ${key}`, () =>
        this.logger.info('over the storage limit; automatic deletion declined for this folder and limit: nothing deleted', {
          folder: contentFolder,
          limitGb,
        }),
      );
      return 0;
    }
    if (answer !== 'allowed') {
      this.askToDelete(key, contentFolder, limitGb, sizeBytes, chosen);
      return 0;
    }
    let freed = 0;
    for (const item of chosen) {
      if (this.stopped) break;
      try {
        await this.library.remove(item.id);
        freed += item.sizeBytes;
        this.logger.info('storage limit: deleted', {
          id: item.id,
          type: item.type,
          file: item.filePath,
          sizeGb: toGb(item.sizeBytes),
          createdAt: new Date(item.createdAt).toISOString(),
        });
      } catch (error) {
        this.logger.error('storage limit: could not delete', { id: item.id, file: item.filePath, error });
      }
    }
    this.logger.info('storage limit enforced', {
      folder: contentFolder,
      limitGb,
      beforeGb: toGb(sizeBytes),
      freedGb: toGb(freed),
      deleted: chosen.length,
    });
    return freed;
  }

  /** Runs `report` once per kind, folder and limit, not at every check. */
  private reportOnce(subject: string, report: () => void): void {
    if (this.reportedFor === subject) return;
    this.reportedFor = subject;
    report();
  }

  /** A question that no longer applies (under the limit again, another folder or limit) is not shown to a frontend that connects later. */
  private withdrawQuestion(): void {
    if (!this.asking) return;
    this.warnings.withdraw(this.asking.warningId);
    this.asking = undefined;
  }

  /** One `StorageWarning` per folder and limit: the answer is saved, so it is not asked at the next check. */
  private askToDelete(key: string, contentFolder: string, limitGb: number, sizeBytes: number, chosen: readonly DeletionCandidate[]): void {
    if (this.asking?.key === key && this.warnings.isPending(this.asking.warningId)) return;
    this.withdrawQuestion();
    const answer = async (allowed: boolean) => {
      this.asking = undefined;
      await this.consent.save(contentFolder, limitGb, allowed ? 'allowed' : 'declined');
      if (allowed) await this.refresh();
    };
    const warningId = this.warnings.warn({
      title: 'Delete old recordings to stay under your storage limit?',
      description:
        `Keyframe's videos in ${contentFolder} take ${toGb(sizeBytes)} GB, more than your storage limit of ${limitGb} GB. ` +
        `Keyframe can delete the ${chosen.length} oldest sessions and replay buffers (${toGb(totalBytes(chosen))} GB) now, and from then on the oldest ones ` +
        'whenever the library is over the limit (only ones older than an hour; clips, highlights and files Keyframe did not record are kept). ' +
        'If you keep everything, nothing is deleted and you are not asked again until you change the folder or the limit.',
      confirmText: 'Delete Old Recordings',
      cancelText: 'Keep Everything',
      action: 'storageLimit',
      onConfirm: () => answer(true),
      onCancel: () => answer(false),
    });
    this.asking = { key, warningId };
  }
}

const formatBytes = (bytes: number) => (bytes >= GIB ? `${(bytes / GIB).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(0)} MB`);
