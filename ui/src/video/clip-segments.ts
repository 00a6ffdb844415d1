// The clip being put together: ranges picked on one or several videos, kept while the person moves
// between video pages, each with its own audio track choices.
import type { ContentItem, Segment } from '@keyframe/core/protocol';
import { useSyncExternalStore } from 'react';

export interface DraftSegment {
  key: number;
  source: ContentItem;
  startTime: number;
  endTime: number;
  /** Track indexes left out of the clip. */
  mutedTracks: readonly number[];
  /** Volume multiplier by track index; a track not listed plays at 1. */
  trackVolumes: Readonly<Record<number, number>>;
}

let segments: readonly DraftSegment[] = [];
let nextKey = 1;
const listeners = new Set<() => void>();

function publish(next: readonly DraftSegment[]): void {
  segments = next;
  for (const listener of listeners) listener();
}

export function addSegment(source: ContentItem, startTime: number, endTime: number): void {
  publish([...segments, { key: nextKey++, source, startTime, endTime, mutedTracks: [], trackVolumes: {} }]);
}

export function updateSegment(key: number, change: Partial<Pick<DraftSegment, 'mutedTracks' | 'trackVolumes'>>): void {
  publish(segments.map((segment) => (segment.key === key ? { ...segment, ...change } : segment)));
}

export function removeSegment(key: number): void {
  publish(segments.filter((segment) => segment.key !== key));
}

export function clearSegments(): void {
  publish([]);
}

export function useClipSegments(): readonly DraftSegment[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => segments,
  );
}

/** The audio tracks of a video: its named tracks, or the one unnamed track of a single-track file. */
export function audioTracksOf(item: ContentItem): string[] {
  return item.audioTrackNames && item.audioTrackNames.length > 0 ? item.audioTrackNames : ['Audio'];
}

/**
 * The `CreateClip` segments of the draft. Ids are consecutive from `firstId`: the first is the job id
 * that ClipProgress and CancelClip carry. The clip takes `title` (the first segment's title).
 */
export function toProtocolSegments(draft: readonly DraftSegment[], firstId: number, title: string): Segment[] {
  return draft.map((segment, index) => {
    const volumes = Object.entries(segment.trackVolumes).filter(([, volume]) => volume !== 1);
    return {
      id: firstId + index,
      startTime: roundToMilliseconds(segment.startTime),
      endTime: roundToMilliseconds(segment.endTime),
      fileName: segment.source.fileName,
      filePath: segment.source.filePath,
      type: segment.source.type,
      game: segment.source.game,
      title: title.trim() || null,
      gameDatabaseId: segment.source.gameDatabaseId,
      ...(segment.mutedTracks.length > 0 ? { mutedAudioTracks: [...segment.mutedTracks] } : {}),
      ...(volumes.length > 0 ? { audioTrackVolumes: Object.fromEntries(volumes) } : {}),
    };
  });
}

const roundToMilliseconds = (seconds: number) => Math.round(seconds * 1000) / 1000;
