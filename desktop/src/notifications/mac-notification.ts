// Notifications on macOS: `display notification` of AppleScript through osascript, the title and text as the
// script's arguments (no AppleScript string quoting involved).
import type { DesktopNotice } from './desktop-notice.js';
import type { CommandPlan } from '../os/command-plan.js';

export function macNotificationCommand({ title, body }: DesktopNotice): CommandPlan {
  return {
    file: '/usr/bin/osascript',
    args: ['-e', 'on run argv', '-e', 'display notification (item 2 of argv) with title (item 1 of argv)', '-e', 'end run', title, body],
  };
}
