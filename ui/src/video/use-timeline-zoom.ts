// Zoom of the timeline: the track grows to `zoom` times the visible width inside a horizontally
// scrolling viewport (the wheel pans it). Zooming (buttons, Ctrl/⌘ + wheel) keeps the playhead where
// it was on screen, or brings it to the middle when it was out of view; playing or seeking out of view
// scrolls to it.
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** At the deepest zoom the viewport still shows this many seconds. */
const LEAST_VISIBLE_SECONDS = 2;
/** Each zoom button doubles or halves. */
export const ZOOM_BUTTON_FACTOR = 2;
const WHEEL_FACTOR = 1.25;
/** Where a playhead that ran out of view is brought back, as a share of the viewport from its left. */
const FOLLOW_AT = 0.1;

export interface TimelineZoom {
  viewportRef: RefObject<HTMLDivElement | null>;
  trackRef: RefObject<HTMLDivElement | null>;
  zoom: number;
  maxZoom: number;
  zoomBy: (factor: number) => void;
  /** The visible part of the track, as shares of its width (0 to 1). */
  visible: { from: number; to: number };
  /** The track's width in pixels. */
  trackWidth: number;
  onScroll: () => void;
}

export function useTimelineZoom(duration: number, playheadShare: number): TimelineZoom {
  const viewportRef = useRef<HTMLDivElement>(null);
  const trackRef = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const [visible, setVisible] = useState({ from: 0, to: 1 });
  const [trackWidth, setTrackWidth] = useState(0);
  /** The playhead's distance from the viewport's left edge to keep through a zoom. */
  const anchor = useRef<number | undefined>(undefined);
  const maxZoom = Math.max(1, duration / LEAST_VISIBLE_SECONDS);
  const playhead = useRef(playheadShare);
  playhead.current = playheadShare;

  const measure = () => {
    const viewport = viewportRef.current?.getBoundingClientRect();
    const track = trackRef.current?.getBoundingClientRect();
    if (!viewport || !track || track.width === 0) return;
    const from = Math.min(Math.max((viewport.left - track.left) / track.width, 0), 1);
    const to = Math.min(Math.max((viewport.right - track.left) / track.width, 0), 1);
    setVisible((current) => (current.from === from && current.to === to ? current : { from, to }));
    setTrackWidth(track.width);
  };

  /** Pixels from the viewport's left edge to the playhead (negative or past the width when out of view). */
  const playheadOffset = () => {
    const viewport = viewportRef.current?.getBoundingClientRect();
    const track = trackRef.current?.getBoundingClientRect();
    if (!viewport || !track) return undefined;
    return { offset: track.left + playhead.current * track.width - viewport.left, width: viewport.width };
  };

  const zoomBy = (factor: number) => {
    const next = Math.min(Math.max(zoom * factor, 1), maxZoom);
    if (next === zoom) return;
    const at = playheadOffset();
    anchor.current = at && (at.offset >= 0 && at.offset <= at.width ? at.offset : at.width / 2);
    setZoom(next);
  };

  // After a zoom: scroll so that the playhead is back at its anchor.
  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    const at = playheadOffset();
    if (viewport && at && anchor.current !== undefined) viewport.scrollLeft += at.offset - anchor.current;
    anchor.current = undefined;
    measure();
  }, [zoom]);

  // Playing or seeking out of view: scroll to the playhead.
  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    const at = playheadOffset();
    if (!viewport || !at || zoom === 1) return;
    if (at.offset < 0 || at.offset > at.width) viewport.scrollLeft += at.offset - at.width * FOLLOW_AT;
  }, [playheadShare, zoom]);

  // Ctrl/⌘ + wheel zooms (the listener is not passive: the browser's own page zoom is held back).
  const zoomByRef = useRef(zoomBy);
  zoomByRef.current = zoomBy;
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        if (event.deltaY !== 0) zoomByRef.current(event.deltaY < 0 ? WHEEL_FACTOR : 1 / WHEEL_FACTOR);
      } else if (viewport.scrollWidth > viewport.clientWidth && Math.abs(event.deltaY) > Math.abs(event.deltaX)) {
        // Zoomed in, the plain wheel pans along the video, as in video editors.
        event.preventDefault();
        viewport.scrollLeft += event.deltaY;
      }
    };
    viewport.addEventListener('wheel', onWheel, { passive: false });
    const observer = new ResizeObserver(measure);
    observer.observe(viewport);
    return () => {
      viewport.removeEventListener('wheel', onWheel);
      observer.disconnect();
    };
  }, []);

  return { viewportRef, trackRef, zoom, maxZoom, zoomBy, visible, trackWidth, onScroll: measure };
}
