// Which notifications the service's events call for: new replays and clips in the library (with their names), a
// recording that game detection started or stopped, an integration that failed, an update that is ready. Pure: it
// compares each State with the one before it.
import type { ContentItem, IntegrationHealth, Recording, ServiceEvent, State } from '@keyframe/core/protocol';
import type { DesktopNotice } from './desktop-notice.js';

export class NoticeWatcher {
  private readonly announcedUpdates = new Set<string>();

  /** `state`: what the service shows when the watching starts; nothing already in it is announced. */
  constructor(private state: Readonly<State>) {}

  next(event: ServiceEvent): DesktopNotice[] {
    if (event.method === 'UpdateProgress') return this.updateNotices(event.content);
    if (event.method !== 'State') return [];
    const [before, after] = [this.state, event.content];
    this.state = after;
    return [
      ...savedItemNotices(before.content, after.content),
      ...autoRecordingNotices(before.recording, after.recording),
      ...integrationNotices(before, after),
    ];
  }

  /** UpdateProgress is replayed to every new connection: each version is announced once. */
  private updateNotices({ status, version }: { status: string; version: string }): DesktopNotice[] {
    if (status !== 'ready' || this.announcedUpdates.has(version)) return [];
    this.announcedUpdates.add(version);
    return [{ kind: 'updateReady', title: 'Update ready', body: `Keyframe ${version} is ready: it is installed when Keyframe restarts.` }];
  }
}

function savedItemNotices(before: readonly ContentItem[], after: readonly ContentItem[]): DesktopNotice[] {
  const known = new Set(before.map((item) => item.id));
  return after
    .filter((item) => !known.has(item.id) && !item.isImported)
    .flatMap((item): DesktopNotice[] => {
      const name = item.title || item.fileName;
      if (item.type === 'Buffer') return [{ kind: 'replaySaved', title: 'Replay saved', body: name }];
      if (item.type === 'Clip') return [{ kind: 'clipSaved', title: 'Clip saved', body: name }];
      if (item.type === 'Highlight') return [{ kind: 'clipSaved', title: 'Highlight saved', body: name }];
      return [];
    });
}

/** A recording with a process (`pid`) is one game detection started; manual recordings have none. */
function autoRecordingNotices(before: Recording | null, after: Recording | null): DesktopNotice[] {
  if (!before && after?.pid != null) {
    return [{ kind: 'autoRecording', title: 'Recording started', body: `${after.game} started: Keyframe is recording it.` }];
  }
  if (before?.pid != null && !after) {
    return [{ kind: 'autoRecording', title: 'Recording stopped', body: `The recording of ${before.game} stopped and is being kept.` }];
  }
  return [];
}

function integrationNotices(before: Readonly<State>, after: Readonly<State>): DesktopNotice[] {
  return Object.entries(after.integrations)
    .filter(([key, health]) => health.status === 'failed' && before.integrations[key]?.status !== 'failed')
    .map(([key, health]) => ({ kind: 'integrationFailed', title: `${nameOf(key, health)} integration failed`, body: health.message }));
}

const nameOf = (key: string, health: IntegrationHealth) => health.displayName ?? key;
