import type { State } from '@keyframe/core/protocol';
import { connection } from '../connection';
import { Card } from './Card';
import { ElapsedTime } from './ElapsedTime';

interface RecordingCardProps {
  recording: State['recording'];
  preRecording: State['preRecording'];
  connected: boolean;
}

export function RecordingCard({ recording, preRecording, connected }: RecordingCardProps) {
  const idle = !recording && !preRecording;
  return (
    <Card title="Recording" className="recording-card">
      <div className="recording-card__body">
        {recording ? (
          <>
            <span className="phase phase--recording">Recording</span>
            <p className="recording-card__game">{recording.game}</p>
            <ElapsedTime startTime={recording.startTime} />
          </>
        ) : preRecording ? (
          <>
            <span className="phase phase--preparing">Preparing</span>
            <p className="recording-card__game">{preRecording.game}</p>
            <p className="recording-card__detail">{preRecording.status}</p>
          </>
        ) : (
          <>
            <span className="phase phase--idle">Idle</span>
            <p className="recording-card__detail">Not recording. Launch a game or start a manual recording.</p>
          </>
        )}
      </div>
      <div className="recording-card__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={!connected || !idle}
          onClick={() => connection.send('StartRecording')}
        >
          Start recording
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={!connected || idle}
          onClick={() => connection.send('StopRecording')}
        >
          Stop
        </button>
      </div>
    </Card>
  );
}
