// A notification the desktop app shows, and the setting that turns each kind off.
import type { Settings } from '@keyframe/core/protocol';

export type NoticeKind = 'replaySaved' | 'clipSaved' | 'autoRecording' | 'integrationFailed' | 'updateReady';

export interface DesktopNotice {
  kind: NoticeKind;
  title: string;
  body: string;
}

export const NOTICE_SETTINGS = {
  replaySaved: 'notifyReplaySaved',
  clipSaved: 'notifyClipSaved',
  autoRecording: 'notifyAutoRecording',
  integrationFailed: 'notifyIntegrationFailed',
  updateReady: 'notifyUpdateReady',
} as const satisfies Record<NoticeKind, keyof Settings>;

export const noticeAllowed = (notice: DesktopNotice, settings: Readonly<Settings>): boolean => settings[NOTICE_SETTINGS[notice.kind]];

/** The OS call behind one small adapter: Linux, Windows and macOS each have theirs. */
export interface DesktopNotifier {
  notify(notice: DesktopNotice): Promise<void>;
  close(): Promise<void>;
}
