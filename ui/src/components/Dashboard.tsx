import type { Settings, State } from '@keyframe/core/protocol';
import { GameIntegrations } from './GameIntegrations';
import { LibrarySummary } from './LibrarySummary';
import { RecordingCard } from './RecordingCard';

interface DashboardProps {
  state: State;
  settings: Settings;
  connected: boolean;
}

export function Dashboard({ state, settings, connected }: DashboardProps) {
  return (
    <div className="dashboard">
      <div className="dashboard__column">
        <RecordingCard recording={state.recording} preRecording={state.preRecording} connected={connected} />
        <LibrarySummary content={state.content} folderSizeGb={state.currentFolderSizeGb} />
      </div>
      <GameIntegrations
        integrations={settings.gameIntegrations}
        health={state.integrations}
        locked={state.recording !== null || state.preRecording !== null}
        connected={connected}
      />
    </div>
  );
}
