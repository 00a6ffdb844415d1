import { PRESET_NAMES, type PresetName } from '@keyframe/core/protocol';
import { connection } from '../connection';
import { SettingsGroup } from './fields';
import type { SectionProps } from './section-props';

const PRESET_HINT = {
  low: 'Small files',
  standard: 'Balanced',
  high: 'Best quality',
  custom: 'Your own values',
} as const satisfies Record<PresetName, string>;

interface PresetPickerProps {
  label: string;
  current: PresetName;
  disabled: boolean;
  testId: string;
  onApply: (preset: PresetName) => void;
}

function PresetPicker({ label, current, disabled, testId, onApply }: PresetPickerProps) {
  return (
    <div className="preset-picker" role="group" aria-label={label} data-testid={testId}>
      {PRESET_NAMES.map((preset) => (
        <button
          key={preset}
          type="button"
          className="preset-picker__option"
          aria-pressed={preset === current}
          disabled={disabled}
          onClick={() => onApply(preset)}
        >
          <span className="preset-picker__name">{preset}</span>
          <span className="preset-picker__hint">{PRESET_HINT[preset]}</span>
        </button>
      ))}
    </div>
  );
}

/** Quality presets for recordings and for clips. */
export function PresetsSection({ settings, connected }: SectionProps) {
  return (
    <>
      <SettingsGroup
        title="Video quality"
        description="Sets resolution, frame rate and bitrates of recordings. Custom keeps what you set on the Recording tab."
      >
        <PresetPicker
          label="Video quality preset"
          current={settings.videoQualityPreset}
          disabled={!connected}
          testId="video-presets"
          onApply={(preset) => connection.send('ApplyVideoPreset', { preset })}
        />
      </SettingsGroup>
      <SettingsGroup title="Clip quality" description="Sets the encoder, quality, frame rate and audio quality of new clips.">
        <PresetPicker
          label="Clip quality preset"
          current={settings.clipQualityPreset}
          disabled={!connected}
          testId="clip-presets"
          onApply={(preset) => connection.send('ApplyClipPreset', { preset })}
        />
      </SettingsGroup>
    </>
  );
}
