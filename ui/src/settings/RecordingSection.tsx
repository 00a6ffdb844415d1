import {
  RATE_CONTROLS,
  RECORDING_MODES,
  RESOLUTIONS,
  type AudioDevice,
  type DeviceSetting,
  type Settings,
  type State,
} from '@keyframe/core/protocol';
import { audioDeviceAdvice, desktopSystem } from './audio-device-advice';
import { captureInUseText } from './capture-in-use-text';
import { NumberField, SelectField, SettingsGroup, SliderField, ToggleField } from './fields';
import type { SectionProps } from './section-props';
import { updateSettings } from './update-settings';

const FRAME_RATES: readonly number[] = [24, 30, 60, 120, 144];
const AUTOMATIC_CODEC = '';

/** Recording mode, picture quality, encoder and audio sources. */
export function RecordingSection({ settings, state, connected }: SectionProps) {
  const disabled = !connected;
  // A rate set elsewhere (an older settings file, a preset) stays selectable.
  const frameRates = FRAME_RATES.includes(settings.frameRate) ? FRAME_RATES : [...FRAME_RATES, settings.frameRate].sort((a, b) => a - b);
  const codecOptions = [
    { value: AUTOMATIC_CODEC, label: 'Automatic' },
    ...state.codecs.map((codec) => ({
      value: codec.internalEncoderId,
      label: `${codec.friendlyName}${codec.isHardwareEncoder ? ' (GPU)' : ''}`,
    })),
  ];
  const audioAdvice = audioDeviceAdvice(state, desktopSystem());
  return (
    <>
      <SettingsGroup title="Recording" description="How and what Keyframe records. Changes apply to the next recording.">
        <SelectField
          label="Recording mode"
          hint="Session: the whole game. Buffer: the last moments, saved on demand. Hybrid: both."
          value={settings.recordingMode}
          options={RECORDING_MODES}
          disabled={disabled}
          testId="setting-recordingMode"
          onChange={(recordingMode) => updateSettings({ recordingMode })}
        />
        {settings.recordingMode !== 'Session' && (
          <NumberField
            label="Replay buffer length"
            value={settings.replayBufferDuration}
            min={1}
            max={3600}
            unit="s"
            disabled={disabled}
            testId="setting-replayBufferDuration"
            onCommit={(replayBufferDuration) => updateSettings({ replayBufferDuration })}
          />
        )}
        <SelectField
          label="Resolution"
          value={settings.resolution}
          options={RESOLUTIONS}
          disabled={disabled}
          testId="setting-resolution"
          onChange={(resolution) => updateSettings({ resolution })}
        />
        <SelectField
          label="Frame rate"
          value={String(settings.frameRate)}
          options={frameRates.map((rate) => ({ value: String(rate), label: `${rate} fps` }))}
          disabled={disabled}
          testId="setting-frameRate"
          onChange={(rate) => updateSettings({ frameRate: Number(rate) })}
        />
      </SettingsGroup>

      <SettingsGroup
        title="Encoder"
        description="CRF and CQ: lower is better quality and bigger files. Bitrates are in megabits per second."
      >
        <SelectField
          label="Codec"
          value={settings.codec?.internalEncoderId ?? AUTOMATIC_CODEC}
          options={codecOptions}
          disabled={disabled}
          testId="setting-codec"
          onChange={(id) => updateSettings({ codec: state.codecs.find((codec) => codec.internalEncoderId === id) ?? null })}
        />
        <SelectField
          label="Encoder"
          hint={captureInUseText(state.captureInUse, settings.encoder)}
          value={settings.encoder}
          options={[
            { value: 'gpu', label: 'Hardware (GPU)' },
            { value: 'cpu', label: 'Software (CPU)' },
          ]}
          disabled={disabled}
          onChange={(encoder) => updateSettings({ encoder })}
        />
        <SelectField
          label="Rate control"
          value={settings.rateControl}
          options={RATE_CONTROLS}
          disabled={disabled}
          testId="setting-rateControl"
          onChange={(rateControl) => updateSettings({ rateControl })}
        />
        <RateControlFields settings={settings} disabled={disabled} />
      </SettingsGroup>

      <SettingsGroup title="Audio" description="The devices recorded with the game, and their volume.">
        {audioAdvice.system.map((advice) => (
          <p className="audio-advice" role="note" key={advice} data-testid="audio-advice">
            {advice}
          </p>
        ))}
        <DeviceList
          kind="inputDevices"
          title="Microphones"
          detected={state.inputDevices}
          chosen={settings.inputDevices}
          advice={audioAdvice.inputDevices}
          disabled={disabled}
        />
        <DeviceList
          kind="outputDevices"
          title="Speakers and headphones"
          detected={state.outputDevices}
          chosen={settings.outputDevices}
          advice={audioAdvice.outputDevices}
          disabled={disabled}
        />
        <ToggleField
          label="Separate audio tracks"
          hint="One track per device even when only one is recorded (two or more always get their own tracks), so clips can mute or balance them."
          checked={settings.enableSeparateAudioTracks}
          disabled={disabled}
          testId="setting-enableSeparateAudioTracks"
          onChange={(enableSeparateAudioTracks) => updateSettings({ enableSeparateAudioTracks })}
        />
      </SettingsGroup>
    </>
  );
}

function RateControlFields({ settings, disabled }: { settings: Settings; disabled: boolean }) {
  switch (settings.rateControl) {
    case 'CRF':
      return (
        <NumberField
          label="CRF"
          value={settings.crfValue}
          min={0}
          max={51}
          disabled={disabled}
          testId="setting-crfValue"
          onCommit={(crfValue) => updateSettings({ crfValue })}
        />
      );
    case 'CQP':
      return (
        <NumberField
          label="CQ level"
          value={settings.cqLevel}
          min={0}
          max={51}
          disabled={disabled}
          testId="setting-cqLevel"
          onCommit={(cqLevel) => updateSettings({ cqLevel })}
        />
      );
    case 'CBR':
      return (
        <NumberField
          label="Bitrate"
          value={settings.bitrate}
          min={1}
          max={500}
          unit="Mbps"
          disabled={disabled}
          testId="setting-bitrate"
          onCommit={(bitrate) => updateSettings({ bitrate })}
        />
      );
    case 'VBR':
      return (
        <>
          <NumberField
            label="Minimum bitrate"
            value={settings.minBitrate}
            min={1}
            max={500}
            unit="Mbps"
            disabled={disabled}
            testId="setting-minBitrate"
            onCommit={(minBitrate) => updateSettings({ minBitrate })}
          />
          <NumberField
            label="Maximum bitrate"
            value={settings.maxBitrate}
            min={1}
            max={500}
            unit="Mbps"
            disabled={disabled}
            testId="setting-maxBitrate"
            onCommit={(maxBitrate) => updateSettings({ maxBitrate })}
          />
        </>
      );
  }
}

interface DeviceListProps {
  kind: 'inputDevices' | 'outputDevices';
  title: string;
  detected: State['inputDevices'];
  chosen: DeviceSetting[];
  /** What to install or enable, when none is detected. */
  advice: string | undefined;
  disabled: boolean;
}

/** Every detected device with a switch (recorded or not) and, when recorded, its volume. */
function DeviceList({ kind, title, detected, chosen, advice, disabled }: DeviceListProps) {
  const chosenIds = new Set(chosen.map((device) => device.id));
  // A chosen device that is unplugged stays listed, so it can be removed.
  const devices: AudioDevice[] = [
    ...detected,
    ...chosen
      .filter((device) => !detected.some((each) => each.id === device.id))
      .map((device) => ({ id: device.id, name: `${device.name} (not connected)`, isDefault: false })),
  ];
  const save = (next: DeviceSetting[]) => updateSettings({ [kind]: next });

  return (
    <div className="device-list">
      <p className="device-list__title">{title}</p>
      {devices.length === 0 && <p className="empty">No devices found.</p>}
      {advice && (
        <p className="audio-advice" role="note" data-testid={`audio-advice-${kind}`}>
          {advice}
        </p>
      )}
      {devices.map((device) => {
        const setting = chosen.find((each) => each.id === device.id);
        return (
          <div className="device-list__item" key={device.id}>
            <ToggleField
              label={device.isDefault ? `${device.name} (default)` : device.name}
              checked={chosenIds.has(device.id)}
              disabled={disabled}
              onChange={(on) =>
                save(on ? [...chosen, { id: device.id, name: device.name, volume: 1 }] : chosen.filter((each) => each.id !== device.id))
              }
            />
            {setting && (
              <SliderField
                label="Volume"
                value={setting.volume}
                min={0}
                max={2}
                step={0.05}
                disabled={disabled}
                format={(volume) => `${Math.round(volume * 100)} %`}
                onCommit={(volume) => save(chosen.map((each) => (each.id === device.id ? { ...each, volume } : each)))}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
