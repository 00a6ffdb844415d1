// The frame under the pointer while it hovers the timeline, asked from the service's frame route one
// at a time: while a frame loads, only the latest position is remembered, and asked for next.
import { useEffect, useRef, useState } from 'react';
import { frameUrl } from '../library/media-urls';

export interface FramePreview {
  /**
   * The last frame that loaded: its time and the loaded image itself, to be put in the page as it is (the route
   * answers `no-store`: an `<img>` given the same address would ask the service a second time).
   */
  shown: { seconds: number; image: HTMLImageElement } | undefined;
  /** Asks for the frame at `seconds` (the service reads frames at tenths of a second). */
  request: (seconds: number) => void;
}

/** Down, so that the last tenth of a video never asks for a time past its last frame. */
const toTenths = (seconds: number) => Math.floor(seconds * 10 + 1e-6) / 10;

export function useFramePreview(filePath: string): FramePreview {
  const [shown, setShown] = useState<FramePreview['shown']>();
  const loading = useRef(false);
  const lastAsked = useRef<number | undefined>(undefined);
  const wanted = useRef<number | undefined>(undefined);
  /** The earliest time that had no frame (a video's audio may outlast its picture): later ones are not asked. */
  const failedFrom = useRef(Infinity);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const askNext = () => {
    if (loading.current || wanted.current === undefined) return;
    const seconds = toTenths(Math.min(wanted.current, failedFrom.current - 0.1));
    if (seconds < 0 || seconds === lastAsked.current) return;
    loading.current = true;
    lastAsked.current = seconds;
    const image = new Image();
    const settle = (loaded: boolean) => {
      loading.current = false;
      if (!mounted.current) return;
      if (loaded) setShown({ seconds, image });
      else failedFrom.current = Math.min(failedFrom.current, seconds);
      askNext();
    };
    image.onload = () => settle(true);
    image.onerror = () => settle(false);
    image.src = frameUrl(filePath, seconds);
  };

  const request = (seconds: number) => {
    wanted.current = seconds;
    askNext();
  };

  return { shown, request };
}
