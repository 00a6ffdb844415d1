// What the named quality presets stand for. `custom` only marks the settings as hand-tuned.
import type { PresetName, SettingsChanges } from '../protocol/index.js';

type NamedPreset = Exclude<PresetName, 'custom'>;

/** Video presets: x264 CRF for CPU encoding, CQ level and bitrates (Mbps) for hardware encoders. */
const VIDEO_PRESETS: Record<NamedPreset, SettingsChanges> = {
  low: { frameRate: 30, rateControl: 'VBR', crfValue: 28, cqLevel: 24, bitrate: 15, minBitrate: 10, maxBitrate: 15 },
  standard: { frameRate: 60, rateControl: 'VBR', crfValue: 23, cqLevel: 22, bitrate: 30, minBitrate: 20, maxBitrate: 40 },
  high: { frameRate: 60, rateControl: 'VBR', crfValue: 20, cqLevel: 20, bitrate: 50, minBitrate: 40, maxBitrate: 70 },
};

const CLIP_PRESETS: Record<NamedPreset, SettingsChanges> = {
  low: { clipEncoder: 'cpu', clipCodec: 'h264', clipQualityCpu: 28, clipFps: 30, clipAudioQuality: '96k', clipPreset: 'ultrafast' },
  standard: { clipEncoder: 'cpu', clipCodec: 'h264', clipQualityCpu: 23, clipFps: 60, clipAudioQuality: '128k', clipPreset: 'veryfast' },
  high: { clipEncoder: 'cpu', clipCodec: 'h264', clipQualityCpu: 20, clipFps: 60, clipAudioQuality: '192k', clipPreset: 'medium' },
};

/** The resolution a preset asks for: `high` records at 1440p only where a display is that tall. */
function presetResolution(preset: NamedPreset, maxDisplayHeight: number): SettingsChanges['resolution'] {
  if (preset === 'low') return '720p';
  return preset === 'high' && maxDisplayHeight >= 1440 ? '1440p' : '1080p';
}

export function videoPresetChanges(preset: PresetName, maxDisplayHeight: number): SettingsChanges {
  if (preset === 'custom') return { videoQualityPreset: 'custom' };
  return { ...VIDEO_PRESETS[preset], resolution: presetResolution(preset, maxDisplayHeight), videoQualityPreset: preset };
}

export function clipPresetChanges(preset: PresetName): SettingsChanges {
  if (preset === 'custom') return { clipQualityPreset: 'custom' };
  return { ...CLIP_PRESETS[preset], clipQualityPreset: preset };
}
