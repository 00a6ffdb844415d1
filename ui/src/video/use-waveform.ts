// The waveform peaks of a video (`{version: 2, data: [min, max, ...]}`), fetched from the media route.
import { useEffect, useState } from 'react';

export interface WaveformPeaks {
  /** Alternating min and max sample values, 8-bit (-128 to 127). */
  data: readonly number[];
}

function isPeaks(value: unknown): value is WaveformPeaks {
  return typeof value === 'object' && value !== null && 'data' in value && Array.isArray(value.data);
}

/** The peaks at `url`; undefined while loading or when there are none. */
export function useWaveform(url: string | undefined): WaveformPeaks | undefined {
  const [peaks, setPeaks] = useState<{ url: string; peaks: WaveformPeaks }>();
  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    fetch(url, { signal: abort.signal })
      .then((response) => (response.ok ? response.json() : undefined))
      .then((value: unknown) => {
        if (isPeaks(value)) setPeaks({ url, peaks: value });
      })
      // No waveform is not an error worth showing: the timeline works without it.
      .catch(() => undefined);
    return () => abort.abort();
  }, [url]);
  return peaks && peaks.url === url ? peaks.peaks : undefined;
}
