// The frame rate of the video a page shows, read from the file itself (neither the library item nor
// the player says it), for frame steps and frame-exact handles.
import { useEffect, useState } from 'react';
import { rangeReader, readMp4FrameRate } from './mp4-frame-rate';

/**
 * Assumed while the file's own rate is unknown (still reading, or a container other than MP4): 60 is
 * the highest rate most recordings use, so a step never skips a frame, it may only repeat one.
 */
export const FALLBACK_FRAME_RATE = 60;

export interface FrameRate {
  fps: number;
  /** False while the fallback stands in. */
  known: boolean;
}

export function useFrameRate(videoUrl: string): FrameRate {
  const [read, setRead] = useState<{ url: string; fps: number }>();
  useEffect(() => {
    const abort = new AbortController();
    readMp4FrameRate(rangeReader(videoUrl, abort.signal))
      .then((fps) => {
        if (fps !== undefined) setRead({ url: videoUrl, fps });
      })
      // Unreadable: the fallback stays, the editor still works.
      .catch(() => undefined);
    return () => abort.abort();
  }, [videoUrl]);
  return read?.url === videoUrl ? { fps: read.fps, known: true } : { fps: FALLBACK_FRAME_RATE, known: false };
}
