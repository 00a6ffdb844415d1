// Application updates: checks the update channel (State.isCheckingForUpdates while it runs),
// downloads a newer release with UpdateProgress downloading -> downloaded -> ready (the SHA-256 is
// checked before ready), installs it into the launcher's install root on ApplyUpdate and asks for
// a restart; after the restart the new version asks the frontend to show its release notes.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import { inject, injectable } from 'tsyringe';
import { CommandError } from '../protocol/refusal.js';
import type { EventContent, ReleaseNote } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { Notifier } from '../notices/notifier.js';
import { SettingsStore } from '../settings/settings-store.js';
import { TypedEvents } from '../support/typed-events.js';
import { UpdateStatus } from './update-status.js';
import { appVersion } from '../support/app-version.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { Logger } from '../support/logger.js';
import { EVENT_SINK, type EventSink } from '../protocol/event-sink.js';
import { InstallRoot } from './install-root.js';
import { downloadPackage, verifyPackage } from './package-download.js';
import { ReleaseNotesCache, releaseNotesOf } from './release-notes.js';
import { fetchUpdateFeed, releasesForChannel, UpdateFeedError, type FeedRelease } from './update-feed.js';
import { UPDATE_FEED_VARIABLE, UPDATE_OPTIONS, type UpdateOptions } from './update-options.js';

type Progress = EventContent<'UpdateProgress'>;

/** Written just before the restart into a new version: which version it replaced. */
interface RestartMarker {
  previousVersion: string;
  version: string;
}

@injectable()
export class Updater {
  private readonly logger: Logger;
  private checking: Promise<void> | undefined;
  private downloading: { version: string; done: Promise<void> } | undefined;
  private ready: { release: FeedRelease; file: string } | undefined;
  private installing = false;
  private releaseNotesToShow: string | undefined;
  private readonly restartListeners = new Set<() => void>();
  private readonly notesCache: ReleaseNotesCache;
  private unsubscribe: (() => void) | undefined;
  /** Whether an update check runs (State's `isCheckingForUpdates`). */
  readonly events = new TypedEvents<{ checking: boolean }>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly status: UpdateStatus,
    private readonly notifier: Notifier,
    @inject(EVENT_SINK) private readonly sink: EventSink,
    private readonly serviceOptions: ServiceOptions,
    @inject(UPDATE_OPTIONS) private readonly options: UpdateOptions,
    logger: Logger,
  ) {
    this.logger = logger.child('updates');
    this.notesCache = new ReleaseNotesCache(path.join(this.updatesFolder, 'release-notes.json'));
  }

  /** True when this process can install updates itself: it runs under keyframe-launcher. */
  get canSelfUpdate(): boolean {
    return this.options.installRoot !== undefined;
  }

  private get updatesFolder(): string {
    return path.join(this.serviceOptions.dataFolder, 'updates');
  }

  private get restartMarkerFile(): string {
    return path.join(this.updatesFolder, 'restarted-from.json');
  }

  /** Cached release notes, the notice of a finished update or a rollback, then a check in the background. */
  async start(): Promise<void> {
    this.status.setReleaseNotes(await this.notesCache.load());
    await this.takeRestartMarker();
    if (this.options.rolledBackFrom) {
      this.notifier.showModal({
        title: 'The update was not installed',
        description:
          `Keyframe ${this.options.rolledBackFrom} did not start, so Keyframe went back to version ${appVersion()}. ` +
          'Your recordings and settings are unchanged. The log of the launcher says why the new version failed.',
        type: 'error',
      });
    }
    this.unsubscribe = this.settings.onChange(() => this.checkInBackground('update channel changed'), ['receiveBetaUpdates']);
    this.checkInBackground('start-up');
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Called when an installed update needs this process to exit with the restart code. */
  onRestartRequested(listener: () => void): () => void {
    this.restartListeners.add(listener);
    return () => this.restartListeners.delete(listener);
  }

  /** The version whose successor now runs, once: the frontend shows what changed since it. */
  takeReleaseNotesToShow(): string | undefined {
    const version = this.releaseNotesToShow;
    this.releaseNotesToShow = undefined;
    return version;
  }

  /** CheckForUpdates. Throws `CommandError` when no channel is configured or it cannot be read. */
  check(): Promise<void> {
    const feedUrl = this.options.feedUrl;
    if (!feedUrl) {
      return Promise.reject(
        new CommandError('Unavailable', `No update channel is configured: set ${UPDATE_FEED_VARIABLE} to the URL of the release feed.`),
      );
    }
    this.checking ??= this.runCheck(feedUrl).finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  /** ApplyUpdate: installs the verified package beside the running version and restarts into it. */
  async apply(): Promise<void> {
    const ready = this.ready;
    if (!ready)
      throw new CommandError('NotAllowed', 'No update is ready to install: check for updates and wait until the download is ready.');
    const { version } = ready.release;
    if (!this.options.installRoot) {
      throw new CommandError(
        'Unavailable',
        `This copy of Keyframe was not started by keyframe-launcher, so it cannot replace itself: install version ${version} from ${ready.release.url}.`,
      );
    }
    if (this.installing) throw new CommandError('NotAllowed', `The update to version ${version} is already being installed.`);
    this.installing = true;
    try {
      await verifyPackage(ready.file, ready.release.sha256);
      const root = new InstallRoot(this.options.installRoot);
      const folder = await root.unpack(ready.file, version);
      const marker: RestartMarker = { previousVersion: appVersion(), version };
      await writeFileAtomic(this.restartMarkerFile, JSON.stringify(marker));
      await root.switchTo(folder);
    } catch (error) {
      this.installing = false;
      this.ready = undefined;
      this.status.lastProgress = undefined;
      const message = `The update to version ${version} could not be installed: ${error instanceof Error ? error.message : String(error)}`;
      this.logger.error('update not installed', { version, error });
      throw new CommandError('Failed', message);
    }
    this.logger.info('update installed: restarting', { from: appVersion(), to: version });
    for (const listener of this.restartListeners) listener();
  }

  private checkInBackground(reason: string): void {
    if (!this.options.feedUrl) return;
    this.check().catch((error: unknown) =>
      this.logger.warn('update check failed', { reason, error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private async runCheck(feedUrl: string): Promise<void> {
    this.events.emit('checking', true);
    try {
      const releases = releasesForChannel(
        await fetchUpdateFeed(feedUrl, `Keyframe/${appVersion()}`),
        this.settings.current.receiveBetaUpdates,
      );
      await this.publishReleaseNotes(releaseNotesOf(releases));
      const newest = releases[0];
      if (!newest || !semver.gt(newest.version, appVersion())) {
        this.logger.info('no update available', { running: appVersion(), newest: newest?.version });
        return;
      }
      if (newest.version === this.options.rolledBackFrom) {
        this.logger.info('update not offered again: it did not start here', { version: newest.version });
        return;
      }
      this.logger.info('update available', { running: appVersion(), version: newest.version });
      // The check is done when the update is known; the download reports through UpdateProgress.
      void this.download(newest);
    } catch (error) {
      if (error instanceof UpdateFeedError) throw new CommandError('Failed', error.message);
      throw error;
    } finally {
      this.events.emit('checking', false);
    }
  }

  private async publishReleaseNotes(notes: ReleaseNote[]): Promise<void> {
    if (JSON.stringify(notes) === JSON.stringify(await this.status.releaseNotes())) return;
    this.status.setReleaseNotes(notes);
    await this.notesCache.save(notes).catch((error: unknown) => this.logger.warn('release notes not cached', { error }));
    if (this.sink.isConnected) this.sink.send('ReleaseNotes', { releaseNotesList: notes });
  }

  private download(release: FeedRelease): Promise<void> {
    if (this.ready?.release.version === release.version) return Promise.resolve();
    if (this.downloading?.version === release.version) return this.downloading.done;
    const done = this.runDownload(release).finally(() => {
      if (this.downloading?.done === done) this.downloading = undefined;
    });
    this.downloading = { version: release.version, done };
    return done;
  }

  private async runDownload(release: FeedRelease): Promise<void> {
    const { version } = release;
    const file = path.join(this.updatesFolder, `keyframe-${version}.tar.gz`);
    let stage: Progress['status'] = 'downloading';
    try {
      this.ready = undefined;
      await this.removeOtherPackages(path.basename(file));
      this.progress({ version, progress: 0, status: 'downloading', message: `Starting download of update to version ${version}...` });
      await downloadPackage(release.url, file, (percent) => {
        if (percent > 0 && percent < 100)
          this.progress({ version, progress: percent, status: 'downloading', message: `Downloading update: ${percent}% complete` });
      });
      stage = 'downloaded';
      this.progress({ version, progress: 100, status: 'downloaded', message: 'Download complete, checking the package...' });
      const { size } = await stat(file);
      if (size !== release.size) {
        await rm(file, { force: true });
        throw new Error(
          `The downloaded update is ${size} bytes, not the ${release.size} the update channel announced; it was deleted and will not be installed.`,
        );
      }
      await verifyPackage(file, release.sha256);
      this.ready = { release, file };
      this.progress({ version, progress: 100, status: 'ready', message: `Update to version ${version} is ready to install` });
      this.logger.info('update ready to install', { version, file });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error('update download failed', { version, stage, reason });
      // Not in flight any more: a frontend that connects later is not told about it again.
      this.status.lastProgress = undefined;
      this.sink.send('UpdateProgress', { version, progress: -1, status: stage, message: reason });
      this.notifier.showModal({ title: `The update to version ${version} failed`, description: reason, type: 'error' });
    }
  }

  /** Packages of other versions (superseded, or installed already) would only fill the disk. */
  private async removeOtherPackages(keep: string): Promise<void> {
    const names = await readdir(this.updatesFolder).catch(() => []);
    const stale = names.filter((name) => name !== keep && /^keyframe-.+\.tar\.gz(\.download)?$/.test(name));
    await Promise.all(stale.map((name) => rm(path.join(this.updatesFolder, name), { force: true })));
  }

  private progress(progress: Progress): void {
    this.status.lastProgress = progress;
    this.sink.send('UpdateProgress', progress);
  }

  private async takeRestartMarker(): Promise<void> {
    let marker: Partial<RestartMarker>;
    try {
      marker = JSON.parse(await readFile(this.restartMarkerFile, 'utf8')) as Partial<RestartMarker>;
    } catch {
      return;
    }
    await rm(this.restartMarkerFile, { force: true });
    if (marker.version === appVersion() && typeof marker.previousVersion === 'string' && marker.previousVersion !== appVersion()) {
      this.releaseNotesToShow = marker.previousVersion;
      this.logger.info('started after an update', { from: marker.previousVersion, to: marker.version });
    }
  }
}
