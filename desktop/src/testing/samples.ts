// States and Settings for the desktop layer's unit tests: complete objects, changed where a test says.
import { readFileSync } from 'node:fs';
import type { ContentItem, Recording, Settings, State } from '@keyframe/core/protocol';
import { initialState } from '@keyframe/core/testing';

/** The State of a service that has started (its capture engine loaded), changed where a test says. */
export const sampleState = (changes: Partial<State> = {}): State => ({
  ...initialState('/cache'),
  hasLoadedCaptureEngine: true,
  ...changes,
});

/** Settings as a first run writes them (core's fixture of the version before these settings, plus their defaults). */
export function sampleSettings(changes: Partial<Settings> = {}): Settings {
  const fixture = new URL('../../../core/test-data/settings/before-desktop-app.json', import.meta.url);
  const written = JSON.parse(readFileSync(fixture, 'utf8')) as Omit<Settings, `notify${string}`>;
  const notifications = {
    notifyReplaySaved: true,
    notifyClipSaved: true,
    notifyAutoRecording: true,
    notifyIntegrationFailed: true,
    notifyUpdateReady: true,
  };
  return { ...written, ...notifications, ...changes };
}

/** A recording of `game`; `pid` set when game detection started it. */
export function sampleRecording(game: string, changes: Partial<Recording> = {}): Recording {
  return {
    startTime: '2026-11-26T20:00:00.000+00:00',
    endTime: null,
    filePath: null,
    game,
    fileName: 'Unknown',
    pid: null,
    isUsingGameHook: false,
    exePath: null,
    bookmarks: [],
    coverImageId: null,
    audioTrackNames: null,
    duration: null,
    ...changes,
  };
}

export function sampleItem(id: string, type: ContentItem['type'], title: string): ContentItem {
  return {
    id,
    type,
    title,
    game: 'Arena',
    bookmarks: [],
    fileName: `${title.replace(/\W+/g, '-')}`,
    filePath: `/videos/${title}.mp4`,
    fileSize: '1.00 MB',
    fileSizeKb: 1000,
    duration: '00:00:30',
    createdAt: '2026-11-26T20:00:00.000+00:00',
    aiAnalysis: null,
    uploadId: null,
    gameDatabaseId: null,
    audioTrackNames: null,
    isImported: false,
    compressed: false,
  };
}
