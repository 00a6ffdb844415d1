// Notifications on Windows: a toast through the WinRT ToastNotificationManager, from Windows PowerShell (present on
// every Windows 10 and 11). The installer's Start menu shortcut carries KEYFRAME_APP_ID as its AppUserModelID, which
// puts Keyframe's name and icon on the toast (docs/packaging.md); without it the toast is shown as PowerShell's.
import type { DesktopNotice } from './desktop-notice.js';
import type { CommandPlan } from '../os/command-plan.js';
import { powerShellCommand } from '../os/powershell.js';

export const KEYFRAME_APP_ID = 'Keyframe.Desktop';
/** PowerShell's own AppUserModelID: a toast under it shows without any registration. */
export const POWERSHELL_APP_ID = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe';

const SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  '[void][Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime]',
  '$toast = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)',
  "$texts = $toast.GetElementsByTagName('text')",
  '[void]$texts.Item(0).AppendChild($toast.CreateTextNode($env:KEYFRAME_NOTICE_TITLE))',
  '[void]$texts.Item(1).AppendChild($toast.CreateTextNode($env:KEYFRAME_NOTICE_BODY))',
  '[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($env:KEYFRAME_NOTICE_APP_ID).Show([Windows.UI.Notifications.ToastNotification]::new($toast))',
].join('\n');

export function windowsToastCommand({ title, body }: DesktopNotice, appId: string): CommandPlan {
  return powerShellCommand(SCRIPT, { KEYFRAME_NOTICE_TITLE: title, KEYFRAME_NOTICE_BODY: body, KEYFRAME_NOTICE_APP_ID: appId });
}
