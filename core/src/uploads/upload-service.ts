// Uploads of library videos to the hosting platform: `UploadProgress` uploading -> processing ->
// done (the public URL stored on the item) or error; cancel tells the server; signing out stops
// every upload; a restarted service carries on with the uploads the previous run left unfinished.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { AccountService, type SignOutReason } from '../accounts/account-service.js';
import { CommandError } from '../protocol/refusal.js';
import type { CommandParameters, EventContent } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { ContentLibrary } from '../library/content-library.js';
import { ContentLocator } from '../library/content-locator.js';
import { Notifier } from '../notices/notifier.js';
import { SettingsStore } from '../settings/settings-store.js';
import { WebBrowser } from '../platform/web-browser.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { PendingUploads, pendingUploadsFile, uploadUrlsFile, type PendingUpload } from './pending-uploads.js';
import { lastPathSegment, processingStatusUrl, waitUntilProcessed } from './processing-status.js';
import { TransferAborted, TusTransfer, terminateUpload } from './tus-transfer.js';
import { outputReference, type OutputReference } from '../library/output-reference.js';

type UploadRequest = CommandParameters<'UploadContent'>;

const VIDEO_TYPES: Readonly<Record<string, string>> = {
  '.mp4': 'video/mp4',
  '.mkv': 'video/x-matroska',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
};

/** Why an upload stops without finishing; `shutdown` keeps it for the next run. */
type StopReason = 'cancelled' | SignOutReason | 'shutdown';
const STOP_MESSAGES: Readonly<Record<Exclude<StopReason, 'shutdown'>, string>> = {
  cancelled: 'Upload cancelled',
  logout: 'Upload cancelled: you signed out',
  expired: 'Upload stopped: your sign-in expired',
};

interface ActiveUpload {
  record: PendingUpload;
  transfer?: TusTransfer;
  readonly processing: AbortController;
  /** The last percentage sent, so that progress never goes back. */
  progress: number;
  /** The last `UploadProgress` sent, for a frontend that connects meanwhile. */
  lastReport?: EventContent<'UploadProgress'>;
  stoppedBy?: StopReason;
}

@injectable()
export class UploadService {
  private readonly active = new Map<string, ActiveUpload>();
  private readonly pending: PendingUploads;
  private readonly logger: Logger;

  constructor(
    private readonly account: AccountService,
    private readonly locator: ContentLocator,
    private readonly library: ContentLibrary,
    private readonly notifier: Notifier,
    private readonly settings: SettingsStore,
    private readonly browser: WebBrowser,
    private readonly options: ServiceOptions,
    @inject(EVENT_SINK) private readonly events: EventSink,
    logger: Logger,
  ) {
    this.logger = logger.child('uploads');
    this.pending = new PendingUploads(pendingUploadsFile(options.dataFolder));
    account.onSignOut((reason) => this.stopAll(reason));
  }

  /** Starts uploading a library video; progress follows in `UploadProgress`. */
  async upload(request: UploadRequest): Promise<void> {
    if (!this.account.isSignedIn) throw new CommandError('NotAllowed', 'Sign in before uploading: uploads go to your account.');
    const item = await this.locator.byFilePath(request.FilePath);
    const fileName = path.basename(item.filePath);
    if (this.active.has(fileName)) throw new CommandError('NotAllowed', `${fileName} is already being uploaded.`);
    const gameDatabaseId = request.GameDatabaseId ?? (item.gameDatabaseId === null ? undefined : String(item.gameDatabaseId));
    const metadata = withoutEmpty({
      filename: fileName,
      filetype: VIDEO_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream',
      title: request.Title,
      description: request.Description,
      game: request.Game ?? item.game,
      gameDatabaseId,
      visibility: request.Visibility ?? 'Public',
    });
    const record: PendingUpload = {
      contentId: item.id,
      filePath: item.filePath,
      fileName,
      title: request.Title,
      metadata,
      phase: 'uploading',
    };
    this.logger.info('upload requested', { fileName, contentId: item.id });
    // Launched in the same turn as the check above, so a second request for the file is refused.
    this.launch(record);
    await this.pending.put(record);
  }

  /** Stops the upload of `fileName` (with extension) and has the server delete what it received. */
  async cancel(fileName: string): Promise<void> {
    const upload = this.active.get(fileName);
    if (!upload) throw new CommandError('NotFound', `${fileName} is not being uploaded.`);
    await this.stop(upload, 'cancelled');
  }

  /** Picks up the uploads the previous run left unfinished (service stopped, crashed, machine off). */
  async resumeInterrupted(): Promise<void> {
    for (const record of await this.pending.load()) {
      const item = this.library.get(record.contentId);
      const present = await stat(record.filePath).then(
        (info) => info.isFile(),
        () => false,
      );
      if (!this.account.isSignedIn || !item || !present) {
        this.logger.warn('interrupted upload dropped', {
          fileName: record.fileName,
          reason: this.account.isSignedIn ? 'the video is gone' : 'signed out',
        });
        await this.pending.remove(record.fileName);
        continue;
      }
      this.logger.info('resuming an interrupted upload', { fileName: record.fileName, phase: record.phase });
      this.launch(record);
    }
  }

  /** Stops every upload where it is, keeping it to resume at the next start. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.active.values()].map((upload) => this.stop(upload, 'shutdown')));
  }

  private launch(record: PendingUpload): void {
    const upload: ActiveUpload = { record, processing: new AbortController(), progress: -1 };
    this.active.set(record.fileName, upload);
    this.run(upload).catch((error: unknown) => this.fail(upload, error));
  }

  private async run(upload: ActiveUpload): Promise<void> {
    const { record } = upload;
    if (record.phase === 'uploading') {
      this.report(upload, 0, 'uploading', 'Starting upload...');
      upload.transfer = new TusTransfer({
        filePath: record.filePath,
        endpoint: this.options.platform.uploadUrl,
        chunkBytes: this.options.platform.uploadChunkBytes,
        metadata: record.metadata,
        urlStorageFile: uploadUrlsFile(this.options.dataFolder),
        account: this.account,
        onProgress: (sent, total) => {
          const percent = total > 0 ? Math.floor((sent / total) * 100) : 0;
          if (percent > upload.progress) this.report(upload, percent, 'uploading', `Uploading... ${percent}%`);
        },
        onUploadUrl: (url) => {
          if (record.uploadUrl !== url) void this.keep(upload, { uploadUrl: url });
        },
        // Said at once, still uploading, while the transfer retries: not "Uploading 0%" until it gives up.
        onRetry: (problem, delayMs) => {
          if (!upload.stoppedBy) this.report(upload, Math.max(0, upload.progress), 'uploading', `${problem}: ${retryingIn(delayMs)}`);
        },
      });
      const uploadUrl = await upload.transfer.run();
      if (upload.stoppedBy) return;
      await this.keep(upload, { phase: 'processing', uploadUrl });
      this.logger.info('upload sent, the platform is processing it', { fileName: record.fileName });
    }
    this.report(upload, 100, 'processing', 'Processing...');
    const uploadUrl = upload.record.uploadUrl ?? '';
    const publicUrl = await waitUntilProcessed(
      processingStatusUrl(this.options.platform.processingUrl, uploadUrl),
      this.account,
      this.logger,
      upload.processing.signal,
    );
    if (upload.stoppedBy) return;
    const item = this.library.get(record.contentId);
    if (item) {
      await this.library.update(record.contentId, { uploadId: lastPathSegment(publicUrl), uploadUrl: publicUrl });
    } else {
      this.logger.warn('uploaded video no longer in the library; its public URL is not stored', { fileName: record.fileName });
    }
    await this.finish(upload);
    this.report(upload, 100, 'done', 'Upload completed successfully', item && outputReference(item));
    this.logger.info('upload done', { fileName: record.fileName, publicUrl });
    if (this.settings.current.clipShowInBrowserAfterUpload) {
      await this.browser
        .open(publicUrl)
        .catch((error: unknown) => this.logger.warn('uploaded video not opened in the browser', { publicUrl, error }));
    }
  }

  private async fail(upload: ActiveUpload, error: unknown): Promise<void> {
    if (upload.stoppedBy || error instanceof TransferAborted) return;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn('upload failed', { fileName: upload.record.fileName, reason });
    await this.finish(upload).catch((failure: unknown) => this.logger.error('could not forget a failed upload', { error: failure }));
    this.report(upload, -1, 'error', reason);
    this.notifier.showModal({
      title: 'Upload Error',
      subtitle: `Could not upload ${upload.record.fileName}`,
      description: reason,
      type: 'error',
    });
  }

  private async stop(upload: ActiveUpload, reason: StopReason): Promise<void> {
    if (upload.stoppedBy) return;
    upload.stoppedBy = reason;
    upload.processing.abort();
    // After an expired sign-in no request can succeed; the server's copy then expires on its own.
    const tellServer = reason === 'cancelled' || reason === 'logout';
    try {
      if (upload.transfer) await upload.transfer.abort(tellServer);
      else if (tellServer && upload.record.uploadUrl) await terminateUpload(upload.record.uploadUrl, this.account);
    } catch (error) {
      this.logger.warn('the platform was not told to delete the stopped upload', {
        fileName: upload.record.fileName,
        error: (error as Error).message,
      });
    }
    if (reason === 'shutdown') {
      this.active.delete(upload.record.fileName);
      return;
    }
    await this.finish(upload);
    this.logger.info('upload stopped', { fileName: upload.record.fileName, reason });
    this.report(upload, -1, 'error', STOP_MESSAGES[reason]);
  }

  private stopAll(reason: SignOutReason): Promise<void> {
    return Promise.all([...this.active.values()].map((upload) => this.stop(upload, reason))).then(() => undefined);
  }

  private keep(upload: ActiveUpload, change: Partial<PendingUpload>): Promise<void> {
    upload.record = { ...upload.record, ...change };
    return upload.stoppedBy ? Promise.resolve() : this.pending.put(upload.record);
  }

  private async finish(upload: ActiveUpload): Promise<void> {
    this.active.delete(upload.record.fileName);
    await this.pending.remove(upload.record.fileName);
  }

  /** Sends the last progress of every upload under way: a frontend that connects mid-upload shows it at once. */
  replayProgress(): void {
    for (const { lastReport } of this.active.values()) if (lastReport) this.events.send('UploadProgress', lastReport);
  }

  private report(
    upload: ActiveUpload,
    progress: number,
    status: EventContent<'UploadProgress'>['status'],
    message: string,
    output?: OutputReference,
  ): void {
    if (status === 'uploading' || status === 'processing') upload.progress = progress;
    upload.lastReport = {
      fileName: upload.record.fileName,
      title: upload.record.title,
      progress,
      status,
      message,
      ...(output && { output }),
    };
    this.events.send('UploadProgress', upload.lastReport);
  }
}

function withoutEmpty(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}

/** `retrying in 8 s`, or `retrying now` for a retry that does not wait. */
function retryingIn(delayMs: number): string {
  return delayMs < 1000 ? 'retrying now' : `retrying in ${Math.round(delayMs / 1000)} s`;
}
