import { useLayoutEffect, useRef } from 'react';

interface FrameImageProps {
  /** An image already loaded, shown as it is instead of asked for again. */
  image: HTMLImageElement;
  seconds: number;
  className: string;
  testId: string;
}

/** Puts a loaded image element in the page (decorative: the time is written beside it). */
export function FrameImage({ image, seconds, className, testId }: FrameImageProps) {
  const holder = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    image.className = className;
    image.alt = '';
    image.dataset['seconds'] = String(seconds);
    image.dataset['testid'] = testId;
    holder.current?.replaceChildren(image);
  }, [image, seconds, className, testId]);
  return <span ref={holder} className="timeline__preview-holder" />;
}
