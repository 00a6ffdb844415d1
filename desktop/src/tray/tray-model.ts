// What the tray shows for a State: the icon (idle, recording, saving), its tooltip and the menu. Pure, so that the
// OS adapters only draw it and the menu's behaviour is tested without a desktop.
import type { RecordingMode, Settings, State } from '@keyframe/core/protocol';

export type TrayStatus = 'idle' | 'recording' | 'saving';
export const TRAY_ACTIONS = ['open', 'toggleRecording', 'saveReplay', 'openVideos', 'quit'] as const;
export type TrayAction = (typeof TRAY_ACTIONS)[number];

export interface TrayMenuItem {
  action: TrayAction;
  label: string;
  enabled: boolean;
}

export interface TrayModel {
  status: TrayStatus;
  /** One line for the icon's tooltip. */
  tooltip: string;
  items: TrayMenuItem[];
}

/** What the tray reads: the runtime State, the settings, and whether a replay save is being written. */
export interface TrayInput {
  state: Pick<State, 'recording' | 'preRecording'>;
  settings: Pick<Settings, 'recordingMode' | 'games'>;
  savingReplay: boolean;
}

export function trayModel({ state, settings, savingReplay }: TrayInput): TrayModel {
  const { recording, preRecording } = state;
  const running = recording !== null && recording.endTime === null;
  const finishing = recording !== null && recording.endTime !== null;
  const status: TrayStatus = finishing || savingReplay ? 'saving' : running ? 'recording' : 'idle';
  const bufferRuns = running && recordingModeOf(recording.game, settings) !== 'Session';
  return {
    status,
    tooltip: tooltipFor(status, recording?.game ?? preRecording?.game),
    items: [
      { action: 'open', label: 'Open Keyframe', enabled: true },
      running
        ? { action: 'toggleRecording', label: 'Stop recording', enabled: true }
        : {
            action: 'toggleRecording',
            label: preRecording ? 'Starting recording…' : 'Start recording',
            enabled: !recording && !preRecording,
          },
      { action: 'saveReplay', label: 'Save replay', enabled: bufferRuns && !savingReplay },
      { action: 'openVideos', label: 'Open the videos folder', enabled: true },
      { action: 'quit', label: 'Quit Keyframe', enabled: true },
    ],
  };
}

function tooltipFor(status: TrayStatus, game: string | undefined): string {
  if (status === 'recording') return `Keyframe: recording ${game ?? ''}`.trimEnd();
  if (status === 'saving') return 'Keyframe: saving';
  return 'Keyframe: not recording';
}

/** A game's own recording mode (its entry by name) or the global one. */
function recordingModeOf(game: string, settings: TrayInput['settings']): RecordingMode {
  return settings.games.find((entry) => entry.name === game)?.recordingModeOverride?.recordingMode ?? settings.recordingMode;
}
