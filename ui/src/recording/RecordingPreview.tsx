import { useState } from 'react';
import { Card } from '../components/Card';
import { connection, useServerEvent } from '../connection';

interface RecordingPreviewProps {
  /** A preview exists only while a recording runs. */
  active: boolean;
  connected: boolean;
}

/** The live preview of the recording (TogglePreview), drawn from RecordingPreviewFrame events. */
export function RecordingPreview({ active, connected }: RecordingPreviewProps) {
  const [enabled, setEnabled] = useState(false);
  const [frame, setFrame] = useState<string>();
  useServerEvent('RecordingPreviewState', (content) => {
    setEnabled(content.enabled);
    if (!content.enabled) setFrame(undefined);
  });
  useServerEvent('RecordingPreviewFrame', ({ jpegBase64 }) => setFrame(`data:image/jpeg;base64,${jpegBase64}`));
  const shown = active && enabled;

  return (
    <Card
      title="Live preview"
      className="preview"
      actions={
        <button
          type="button"
          className="button"
          aria-pressed={shown}
          disabled={!connected || !active}
          onClick={() => connection.send('TogglePreview')}
          data-testid="toggle-preview"
        >
          {shown ? 'Hide preview' : 'Show preview'}
        </button>
      }
    >
      <div className="preview__screen">
        {shown && frame ? (
          <img className="preview__image" src={frame} alt="Live preview of the recording" data-testid="preview-frame" />
        ) : (
          <p className="preview__placeholder">
            {!active ? 'The preview is available while recording.' : shown ? 'Waiting for the first frame…' : 'The preview is off.'}
          </p>
        )}
      </div>
    </Card>
  );
}
