import { useEffect, useRef } from 'react';
import type { WaveformPeaks } from './use-waveform';

/** 8-bit peaks go to 128; anything at or under a quarter of that is drawn at most 4x larger. */
const QUIETEST_SCALE_PEAK = 32;

interface WaveformProps {
  peaks: WaveformPeaks;
  /** The part of the video in view, as shares of its length: only that part is drawn, over that part of the track. */
  from: number;
  to: number;
}

/**
 * The peaks drawn as mirrored bars, redrawn when it resizes. The canvas covers only the part of a zoomed
 * track in view, so it stays the size of the screen however deep the zoom.
 */
export function Waveform({ peaks, from, to }: WaveformProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const draw = () => {
      const { width, height } = canvas.getBoundingClientRect();
      const scale = window.devicePixelRatio || 1;
      canvas.width = Math.max(1, Math.round(width * scale));
      canvas.height = Math.max(1, Math.round(height * scale));
      const context = canvas.getContext('2d');
      if (!context) return;
      context.clearRect(0, 0, canvas.width, canvas.height);
      const pairs = Math.floor(peaks.data.length / 2);
      if (pairs === 0) return;
      context.fillStyle = getComputedStyle(canvas).color;
      const middle = canvas.height / 2;
      // Scaled to the loudest peak so quiet recordings still show their shape, but never more than
      // 4x: a steady quiet sound stays a quiet band instead of filling the track.
      const loudest = peaks.data.reduce((most, value) => Math.max(most, Math.abs(value)), QUIETEST_SCALE_PEAK);
      const scaleToHeight = (middle * 0.9) / loudest;
      const pairAt = (x: number) => Math.floor((from + (x / canvas.width) * (to - from)) * pairs);
      for (let x = 0; x < canvas.width; x++) {
        // The loudest pair among those this column covers.
        const first = pairAt(x);
        const last = Math.max(first + 1, pairAt(x + 1));
        let low = 0;
        let high = 0;
        for (let pair = first; pair < last && pair < pairs; pair++) {
          low = Math.min(low, peaks.data[pair * 2] ?? 0);
          high = Math.max(high, peaks.data[pair * 2 + 1] ?? 0);
        }
        const top = middle - high * scaleToHeight;
        const bottom = middle - low * scaleToHeight;
        context.fillRect(x, top, 1, Math.max(1, bottom - top));
      }
    };
    draw();
    const observer = new ResizeObserver(draw);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [peaks, from, to]);

  return (
    <canvas
      ref={canvasRef}
      className="timeline__waveform"
      style={{ left: `${from * 100}%`, width: `${(to - from) * 100}%` }}
      aria-hidden="true"
      data-testid="waveform"
    />
  );
}
