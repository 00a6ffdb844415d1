import { useId, useRef, useState } from 'react';
import { connection, useServerEvent } from '../connection';
import { displayTitle, formatSeconds } from '../library/content-format';
import { frameUrl } from '../library/media-urls';
import { useLatestEvent } from '../state/latest-events';
import {
  audioTracksOf,
  clearSegments,
  removeSegment,
  toProtocolSegments,
  updateSegment,
  useClipSegments,
  type DraftSegment,
} from './clip-segments';

type OutputMode = 'combined' | 'separate';

/** The ranges picked so far (from any video), their audio tracks, and the button that makes the clip. */
export function ClipEditor({ connected }: { connected: boolean }) {
  const segments = useClipSegments();
  const settings = useLatestEvent('Settings');
  const [title, setTitle] = useState('');
  const [outputMode, setOutputMode] = useState<OutputMode>('combined');
  const startedJob = useRef<number | undefined>(undefined);
  const headingId = useId();
  const titleId = useId();
  const modeId = useId();

  useServerEvent('ClipProgress', ({ id, progress }) => {
    if (id !== startedJob.current || progress !== 100) return;
    startedJob.current = undefined;
    if (settings?.clipClearSegmentsAfterCreatingClip) clearSegments();
  });

  const create = () => {
    const firstId = Date.now();
    if (connection.send('CreateClip', { Segments: toProtocolSegments(segments, firstId, title), OutputMode: outputMode })) {
      startedJob.current = firstId;
    }
  };

  return (
    <aside className="clip-editor" aria-labelledby={headingId} data-testid="clip-editor">
      <h2 className="clip-editor__title" id={headingId}>
        Clip
      </h2>
      {segments.length === 0 ? (
        <p className="video-page__muted">
          Drag the handles on the timeline (or press I and O at the playhead) to pick a range, then add it to the clip. Ranges from several
          videos are joined in order.
        </p>
      ) : (
        <ol className="clip-editor__segments">
          {segments.map((segment, index) => (
            <SegmentRow key={segment.key} segment={segment} position={index + 1} />
          ))}
        </ol>
      )}
      <label className="library-field" htmlFor={titleId}>
        <span className="library-field__label">Clip title</span>
        <input
          id={titleId}
          className="input library-field__input"
          value={title}
          placeholder="Optional"
          onChange={(event) => setTitle(event.target.value)}
          data-testid="clip-title"
        />
      </label>
      {segments.length > 1 && (
        <label className="library-field" htmlFor={modeId}>
          <span className="library-field__label">Output</span>
          <select
            id={modeId}
            className="input library-field__input"
            value={outputMode}
            onChange={(event) => setOutputMode(event.target.value === 'separate' ? 'separate' : 'combined')}
          >
            <option value="combined">One clip of all ranges</option>
            <option value="separate">One clip per range</option>
          </select>
        </label>
      )}
      <div className="clip-editor__actions">
        <button type="button" className="button" disabled={segments.length === 0} onClick={clearSegments}>
          Clear
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={segments.length === 0 || !connected}
          onClick={create}
          data-testid="create-clip"
        >
          Create clip
        </button>
      </div>
    </aside>
  );
}

function SegmentRow({ segment, position }: { segment: DraftSegment; position: number }) {
  const [frameFailed, setFrameFailed] = useState(false);
  const tracks = audioTracksOf(segment.source);
  const source = displayTitle(segment.source);
  const setMuted = (track: number, muted: boolean) =>
    updateSegment(segment.key, {
      mutedTracks: muted ? [...segment.mutedTracks, track] : segment.mutedTracks.filter((each) => each !== track),
    });
  const setVolume = (track: number, volume: number) =>
    updateSegment(segment.key, { trackVolumes: { ...segment.trackVolumes, [track]: volume } });

  return (
    <li className="clip-segment" data-testid="clip-segment">
      <div className="clip-segment__summary">
        {frameFailed ? (
          <span className="clip-segment__frame clip-segment__frame--empty" aria-hidden="true" />
        ) : (
          <img
            className="clip-segment__frame"
            src={frameUrl(segment.source.filePath, segment.startTime)}
            alt=""
            onError={() => setFrameFailed(true)}
            data-testid="segment-frame"
          />
        )}
        <div className="clip-segment__text">
          <p className="clip-segment__range">
            {position}. {formatSeconds(segment.startTime, true)} – {formatSeconds(segment.endTime, true)}
          </p>
          <p className="clip-segment__source" title={source}>
            {source}
          </p>
        </div>
        <button type="button" className="icon-button" aria-label={`Remove range ${position}`} onClick={() => removeSegment(segment.key)}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <ul className="clip-segment__tracks" aria-label={`Audio of range ${position}`}>
        {tracks.map((name, track) => {
          const muted = segment.mutedTracks.includes(track);
          const volume = segment.trackVolumes[track] ?? 1;
          return (
            <li key={track} className="clip-track">
              <label className="clip-track__toggle">
                <input
                  type="checkbox"
                  checked={!muted}
                  onChange={(event) => setMuted(track, !event.target.checked)}
                  data-testid="track-enabled"
                />
                <span>{name}</span>
              </label>
              <input
                type="range"
                min={0}
                max={2}
                step={0.05}
                value={volume}
                disabled={muted}
                aria-label={`${name} volume`}
                onChange={(event) => setVolume(track, Number(event.target.value))}
              />
              <span className="clip-track__volume">{Math.round(volume * 100)}%</span>
            </li>
          );
        })}
      </ul>
    </li>
  );
}
