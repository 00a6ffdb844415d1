import type { Keybinding } from '@keyframe/core/protocol';
import { useState } from 'react';
import { Switch } from '../components/Switch';
import { SettingsGroup } from './fields';
import { describeKeys, virtualKeysOf } from './key-codes';
import type { SectionProps } from './section-props';
import { updateSettings } from './update-settings';

const ACTION_LABEL = {
  CreateBookmark: 'Add a bookmark',
  ToggleRecording: 'Start or stop recording',
  SaveReplayBuffer: 'Save the replay buffer',
  TogglePreview: 'Show or hide the live preview',
} as const satisfies Record<Keybinding['action'], string>;

/** The global hotkeys: each can be switched off or rebound by pressing the new keys. */
export function KeybindingsSection({ settings, connected }: SectionProps) {
  const [listeningTo, setListeningTo] = useState<Keybinding['action']>();
  const save = (action: Keybinding['action'], changes: Partial<Keybinding>) =>
    updateSettings({
      keybindings: settings.keybindings.map((binding) => (binding.action === action ? { ...binding, ...changes } : binding)),
    });

  return (
    <SettingsGroup
      title="Keybindings"
      description="Hotkeys work while a game has the focus. To change one, choose Change and press the new keys; Escape cancels."
    >
      <ul className="keybinding-list">
        {settings.keybindings.map((binding) => {
          const labelId = `keybinding-${binding.action}`;
          const listening = listeningTo === binding.action;
          return (
            <li className="keybinding-list__item" key={binding.action} data-testid={labelId}>
              <span className="keybinding-list__action" id={labelId}>
                {ACTION_LABEL[binding.action]}
              </span>
              <kbd className="keybinding-list__keys" data-testid={`${labelId}-keys`}>
                {listening ? 'Press keys…' : describeKeys(binding.keys)}
              </kbd>
              <button
                type="button"
                className="button button--small"
                disabled={!connected}
                aria-pressed={listening}
                data-testid={`${labelId}-change`}
                onClick={() => setListeningTo(listening ? undefined : binding.action)}
                onKeyDown={(event) => {
                  if (!listening) return;
                  event.preventDefault();
                  if (event.key === 'Escape') return setListeningTo(undefined);
                  const keys = virtualKeysOf(event.nativeEvent);
                  if (!keys) return; // a modifier alone: wait for the key
                  setListeningTo(undefined);
                  save(binding.action, { keys });
                }}
                onBlur={() => {
                  if (listening) setListeningTo(undefined);
                }}
              >
                {listening ? 'Cancel' : 'Change'}
              </button>
              <Switch
                checked={binding.enabled}
                disabled={!connected}
                labelledBy={labelId}
                onToggle={() => save(binding.action, { enabled: !binding.enabled })}
              />
            </li>
          );
        })}
      </ul>
    </SettingsGroup>
  );
}
