// The settings one recording uses: the global settings overlaid with the overrides of the game's
// `games[]` entry (reference §4.2). Resolved once at start, so the recording keeps them to its end.
import type { GameSetting, Settings } from '../protocol/index.js';
import { findGameSetting } from '../games/game-catalog.js';
import { videoPresetChanges } from './presets.js';

/** The game being recorded, as the detector reports it. */
export interface RecordedGame {
  name: string;
  executablePath?: string | undefined;
}

export type EffectiveRecordingSettings = Settings & {
  /** Multiplier on the captured game audio: the entry's `volumeOverride`, else 1. */
  gameVolume: number;
};

export interface EffectiveSettingsOptions {
  /** Tallest connected display (`State.maxDisplayHeight`): the `high` preset records 1440p only where one is that tall. */
  maxDisplayHeight?: number;
}

/**
 * Global settings overlaid with the matching `games[]` entry (by executable, else by name; see
 * `findGameSetting`). A manual recording (no game) or a game without an entry gets the global settings.
 */
export function effectiveRecordingSettings(
  settings: Readonly<Settings>,
  game?: RecordedGame,
  options: EffectiveSettingsOptions = {},
): EffectiveRecordingSettings {
  const entry = game && findGameSetting(settings.games, game);
  const effective: EffectiveRecordingSettings = { ...structuredClone(settings as Settings), gameVolume: entry?.volumeOverride ?? 1 };
  if (!entry) return effective;
  if (entry.qualityOverride) Object.assign(effective, qualityChanges(entry.qualityOverride, options.maxDisplayHeight ?? 0));
  if (entry.recordingModeOverride) {
    const { recordingMode, replayBufferDuration, replayBufferMaxSize } = entry.recordingModeOverride;
    Object.assign(effective, { recordingMode, replayBufferDuration, replayBufferMaxSize });
  }
  if (typeof entry.discardSessionsWithoutBookmarksOverride === 'boolean') {
    effective.discardSessionsWithoutBookmarks = entry.discardSessionsWithoutBookmarksOverride;
  }
  if (typeof entry.enableHdrOverride === 'boolean') effective.enableHdr = entry.enableHdrOverride;
  return effective;
}

/**
 * A named preset resolves through the table `ApplyVideoPreset` uses (the codec stays global);
 * `custom` takes the override's own fields, and its codec only when it names one.
 */
function qualityChanges(quality: NonNullable<GameSetting['qualityOverride']>, maxDisplayHeight: number): Partial<Settings> {
  if (quality.preset !== 'custom') return videoPresetChanges(quality.preset, maxDisplayHeight);
  const { resolution, frameRate, rateControl, crfValue, cqLevel, bitrate, minBitrate, maxBitrate, encoder, codec } = quality;
  return {
    videoQualityPreset: 'custom',
    resolution,
    frameRate,
    rateControl,
    crfValue,
    cqLevel,
    bitrate,
    minBitrate,
    maxBitrate,
    encoder,
    ...(codec ? { codec } : {}),
  };
}
