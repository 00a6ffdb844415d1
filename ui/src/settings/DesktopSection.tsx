import type { Settings } from '@keyframe/core/protocol';
import { SelectField, SettingsGroup, ToggleField } from './fields';
import type { SectionProps } from './section-props';
import { updateSettings } from './update-settings';

type NotificationSetting =
  'notifyReplaySaved' | 'notifyClipSaved' | 'notifyAutoRecording' | 'notifyIntegrationFailed' | 'notifyUpdateReady';

const NOTIFICATIONS: readonly { setting: NotificationSetting; label: string; hint: string }[] = [
  { setting: 'notifyReplaySaved', label: 'A replay was saved', hint: 'With the name of the replay.' },
  { setting: 'notifyClipSaved', label: 'A clip or highlight was saved', hint: 'With its name.' },
  { setting: 'notifyAutoRecording', label: 'A game started or stopped recording', hint: 'When Keyframe records a game it detected.' },
  { setting: 'notifyIntegrationFailed', label: 'A game integration stopped working', hint: 'Which one, and why.' },
  { setting: 'notifyUpdateReady', label: 'An update is ready', hint: 'With its version.' },
];

const WINDOW_MODES: readonly { value: Settings['startupWindowMode']; label: string }[] = [
  { value: 'Minimized', label: 'In the tray, without a window' },
  { value: 'Normal', label: 'With its window open' },
];

/** The desktop app: start with the computer, and which notifications the system shows. */
export function DesktopSection({ settings, connected }: SectionProps) {
  return (
    <>
      <SettingsGroup title="Start with the computer" description="Keyframe starts when you sign in, ready to record in the background.">
        <ToggleField
          label="Start Keyframe with the computer"
          checked={settings.runOnStartup}
          disabled={!connected}
          testId="run-on-startup"
          onChange={(runOnStartup) => updateSettings({ runOnStartup })}
        />
        <SelectField
          label="When it starts with the computer"
          value={settings.startupWindowMode}
          options={WINDOW_MODES}
          disabled={!connected || !settings.runOnStartup}
          testId="startup-window-mode"
          onChange={(startupWindowMode) => updateSettings({ startupWindowMode })}
        />
      </SettingsGroup>
      <SettingsGroup title="Notifications" description="What the desktop app tells you with a system notification.">
        {NOTIFICATIONS.map(({ setting, label, hint }) => (
          <ToggleField
            key={setting}
            label={label}
            hint={hint}
            checked={settings[setting]}
            disabled={!connected}
            testId={`notification-${setting}`}
            onChange={(checked) => updateSettings({ [setting]: checked })}
          />
        ))}
      </SettingsGroup>
    </>
  );
}
