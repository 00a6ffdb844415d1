import type { Recording, Settings, State } from '@keyframe/core/protocol';
import { ElapsedTime } from '../components/ElapsedTime';
import { connection, useConnectionStatus } from '../connection';
import { useLatestEvent } from '../state/latest-events';
import { encodingOverloadText } from './encoding-health-text';
import { RecordingPreview } from './RecordingPreview';
import './recording.css';

type Phase = 'idle' | 'preparing' | 'recording' | 'stopping';

function phaseOf(state: State): Phase {
  if (state.recording) return state.recording.endTime ? 'stopping' : 'recording';
  return state.preRecording ? 'preparing' : 'idle';
}

const PHASE_LABEL = { idle: 'Idle', preparing: 'Preparing', recording: 'Recording', stopping: 'Finishing' } as const satisfies Record<
  Phase,
  string
>;

const MODE_HINT = {
  Session: 'Records the whole session to one file.',
  Buffer: 'Keeps the last moments in memory; save them as a replay.',
  Hybrid: 'Records the whole session and keeps a replay buffer you can save.',
} as const satisfies Record<Settings['recordingMode'], string>;

/** What is being recorded, the buttons to start, stop and save a replay, and the live preview. */
export function RecordingPage() {
  const state = useLatestEvent('State');
  const settings = useLatestEvent('Settings');
  const connected = useConnectionStatus() === 'open';
  if (!state || !settings) return null;

  const phase = phaseOf(state);
  return (
    <section className="page recording-page" aria-labelledby="recording-title" data-testid="recording-page">
      <header className="page__header">
        <h1 className="page__title" id="recording-title">
          Recording
        </h1>
        <p className="page__subtitle">
          {settings.recordingMode} mode · {settings.resolution} · {settings.frameRate} fps — {MODE_HINT[settings.recordingMode]}
        </p>
      </header>
      <div className="recording-page__grid">
        <StatusCard state={state} phase={phase} buffering={settings.recordingMode !== 'Session'} connected={connected} />
        <RecordingPreview active={phase === 'recording'} connected={connected} />
      </div>
    </section>
  );
}

interface StatusCardProps {
  state: State;
  phase: Phase;
  /** Buffer and Hybrid modes keep a replay buffer that can be saved. */
  buffering: boolean;
  connected: boolean;
}

function StatusCard({ state, phase, buffering, connected }: StatusCardProps) {
  return (
    <div className="recording-status card" data-testid="recording-status" data-phase={phase}>
      <span className={`phase phase--${phase}`}>{PHASE_LABEL[phase]}</span>
      <StatusDetails state={state} />
      <div className="recording-status__actions">
        {phase === 'idle' ? (
          <button
            type="button"
            className="button button--primary"
            disabled={!connected}
            onClick={() => connection.send('StartRecording')}
            data-testid="start-recording"
          >
            Start recording
          </button>
        ) : (
          <button
            type="button"
            className="button button--danger"
            disabled={!connected || phase === 'stopping'}
            onClick={() => connection.send('StopRecording')}
            data-testid="stop-recording"
          >
            Stop recording
          </button>
        )}
        {buffering && (
          <button
            type="button"
            className="button"
            disabled={!connected || phase !== 'recording'}
            onClick={() => connection.send('SaveReplayBuffer')}
            data-testid="save-replay"
          >
            Save replay buffer
          </button>
        )}
      </div>
    </div>
  );
}

function StatusDetails({ state }: { state: State }) {
  if (state.recording) return <RecordingDetails recording={state.recording} state={state} />;
  if (state.preRecording) {
    return (
      <div className="recording-status__details">
        <p className="recording-status__game">{state.preRecording.game}</p>
        <p className="recording-status__muted">{state.preRecording.status}</p>
      </div>
    );
  }
  return (
    <div className="recording-status__details">
      <p className="recording-status__game">Not recording</p>
      <p className="recording-status__muted">
        {state.hasLoadedCaptureEngine
          ? 'Launch a game to record it automatically, or start a manual recording.'
          : 'The capture engine is starting…'}
      </p>
    </div>
  );
}

function RecordingDetails({ recording, state }: { recording: Recording; state: State }) {
  const bookmarks = recording.bookmarks.length;
  const capture = state.captureInUse?.of === 'current' ? state.captureInUse : null;
  const overloaded = encodingOverloadText(state.encodingHealth);
  return (
    <div className="recording-status__details">
      <p className="recording-status__game" data-testid="recording-game">
        {recording.game}
      </p>
      <ElapsedTime startTime={recording.startTime} />
      <p className="recording-status__muted">{bookmarks === 1 ? '1 bookmark' : `${bookmarks} bookmarks`}</p>
      {capture && (
        <p className="recording-status__muted" data-testid="recording-capture">
          {capture.method === 'synthetic' ? 'Test pattern' : capture.method} → {capture.encoderName}
        </p>
      )}
      {overloaded && (
        <p className="recording-status__warning" role="alert" data-testid="encoding-overloaded">
          {overloaded}
        </p>
      )}
    </div>
  );
}
