// Turns the service's events into notifications on the OS notifier, each kind only while its setting is on.
import type { ServiceEvent, Settings, State } from '@keyframe/core/protocol';
import { noticeAllowed, type DesktopNotifier } from './desktop-notice.js';
import { NoticeWatcher } from './notice-watcher.js';

export class NotificationCenter {
  private readonly watcher: NoticeWatcher;
  private notifier: DesktopNotifier | undefined;

  constructor(
    state: Readonly<State>,
    private settings: Readonly<Settings>,
    private readonly log: (message: string) => void,
  ) {
    this.watcher = new NoticeWatcher(state);
  }

  /** Notifications go to `notifier` from now on (until then, they are not shown). */
  attach(notifier: DesktopNotifier): void {
    this.notifier = notifier;
  }

  hear(event: ServiceEvent): void {
    if (event.method === 'Settings') this.settings = event.content;
    for (const notice of this.watcher.next(event)) {
      if (!this.notifier || !noticeAllowed(notice, this.settings)) continue;
      this.notifier.notify(notice).catch((error: unknown) => this.log(`a notification could not be shown: ${(error as Error).message}`));
    }
  }

  close(): Promise<void> {
    return this.notifier?.close() ?? Promise.resolve();
  }
}
