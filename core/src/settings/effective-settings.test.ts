import 'reflect-metadata';
import { expect } from 'chai';
import Value from 'typebox/value';
import { Settings, type GameSetting } from '../protocol/index.js';
import { effectiveRecordingSettings } from './effective-settings.js';
import { videoPresetChanges } from './presets.js';

const globalSettings = (games: GameSetting[]): Settings => ({
  ...(Value.Create(Settings) as Settings),
  contentFolder: '/videos',
  cacheFolder: '/cache',
  resolution: '1080p',
  frameRate: 60,
  rateControl: 'VBR',
  crfValue: 20,
  recordingMode: 'Hybrid',
  codec: { friendlyName: 'Software x264', internalEncoderId: 'obs_x264', isHardwareEncoder: false },
  games,
});

const customQuality = {
  preset: 'custom' as const,
  resolution: '1440p' as const,
  frameRate: 120,
  rateControl: 'CBR' as const,
  crfValue: 18,
  cqLevel: 19,
  bitrate: 80,
  minBitrate: 40,
  maxBitrate: 90,
  encoder: 'cpu' as const,
  codec: null,
};

describe('effectiveRecordingSettings', () => {
  it('is a copy of the global settings for a manual recording or a game without an entry, game volume 1', () => {
    const settings = globalSettings([{ name: 'Other', paths: ['other.exe'], record: true, volumeOverride: 0.5 }]);
    for (const effective of [
      effectiveRecordingSettings(settings),
      effectiveRecordingSettings(settings, { name: 'Dota 2', executablePath: '/games/dota2' }),
    ]) {
      expect(effective).to.deep.equal({ ...settings, gameVolume: 1 });
      expect(effective.games).to.not.equal(settings.games);
    }
  });

  it('resolves a named quality preset through the ApplyVideoPreset table, keeping the global codec', () => {
    const settings = globalSettings([{ name: 'Dota 2', paths: [], record: true, qualityOverride: { ...customQuality, preset: 'low' } }]);
    const effective = effectiveRecordingSettings(settings, { name: 'dota 2', executablePath: '/games/dota2' });
    expect(effective).to.deep.include(videoPresetChanges('low', 0));
    expect(effective).to.deep.include({ resolution: '720p', frameRate: 30, videoQualityPreset: 'low', codec: settings.codec });

    const high = globalSettings([{ name: 'Dota 2', paths: [], record: true, qualityOverride: { ...customQuality, preset: 'high' } }]);
    expect(effectiveRecordingSettings(high, { name: 'Dota 2' }, { maxDisplayHeight: 1440 }).resolution).to.equal('1440p');
    expect(effectiveRecordingSettings(high, { name: 'Dota 2' }).resolution).to.equal('1080p');
  });

  it('takes a custom quality override field by field; its codec only when it names one', () => {
    const settings = globalSettings([{ name: 'Shooter', paths: ['shooter.exe'], record: true, qualityOverride: customQuality }]);
    const effective = effectiveRecordingSettings(settings, { name: 'Shooter', executablePath: 'C:\\Games\\shooter.exe' });
    expect(effective).to.deep.include({
      videoQualityPreset: 'custom',
      resolution: '1440p',
      frameRate: 120,
      rateControl: 'CBR',
      crfValue: 18,
      cqLevel: 19,
      bitrate: 80,
      minBitrate: 40,
      maxBitrate: 90,
      encoder: 'cpu',
      codec: settings.codec,
    });
    const codec = { friendlyName: 'NVIDIA NVENC H.264', internalEncoderId: 'jim_nvenc', isHardwareEncoder: true };
    const withCodec = globalSettings([
      { name: 'Shooter', paths: ['shooter.exe'], record: true, qualityOverride: { ...customQuality, codec } },
    ]);
    expect(effectiveRecordingSettings(withCodec, { name: 'Shooter' }).codec).to.deep.equal(codec);
  });

  it('applies the recording mode, discard, HDR and volume overrides; null ones inherit', () => {
    const entry: GameSetting = {
      name: 'Test Game',
      paths: ['/games/keyframe-test-game'],
      record: true,
      recordingModeOverride: { recordingMode: 'Buffer', replayBufferDuration: 120, replayBufferMaxSize: 4000 },
      discardSessionsWithoutBookmarksOverride: true,
      enableHdrOverride: true,
      volumeOverride: 0.25,
    };
    const effective = effectiveRecordingSettings(globalSettings([entry]), { name: 'Renamed', executablePath: '/games/keyframe-test-game' });
    expect(effective).to.deep.include({
      recordingMode: 'Buffer',
      replayBufferDuration: 120,
      replayBufferMaxSize: 4000,
      discardSessionsWithoutBookmarks: true,
      enableHdr: true,
      gameVolume: 0.25,
    });

    const inheriting = globalSettings([
      {
        ...entry,
        recordingModeOverride: null,
        discardSessionsWithoutBookmarksOverride: null,
        enableHdrOverride: null,
        volumeOverride: null,
      },
    ]);
    const plain = effectiveRecordingSettings(inheriting, { name: 'Test Game' });
    expect(plain).to.deep.equal({ ...inheriting, gameVolume: 1 });
  });

  it('matches by executable first, then by name', () => {
    const settings = globalSettings([
      { name: 'Counter-Strike 2', paths: [], record: true, volumeOverride: 0.1 },
      { name: 'My CS build', paths: ['/opt/cs2/cs2'], record: true, volumeOverride: 0.9 },
    ]);
    expect(effectiveRecordingSettings(settings, { name: 'Counter-Strike 2', executablePath: '/opt/cs2/cs2' }).gameVolume).to.equal(0.9);
    expect(effectiveRecordingSettings(settings, { name: 'Counter-Strike 2', executablePath: '/steam/cs2' }).gameVolume).to.equal(0.1);
  });

  it('does not change the settings it was given', () => {
    const settings = globalSettings([{ name: 'Shooter', paths: [], record: true, qualityOverride: customQuality, volumeOverride: 2 }]);
    const before = structuredClone(settings);
    effectiveRecordingSettings(settings, { name: 'Shooter' });
    expect(settings).to.deep.equal(before);
  });
});
