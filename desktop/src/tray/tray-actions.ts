// The tray's action interface: what each menu entry does, as a command to the service or a call to the app.
import type { CommandName } from '@keyframe/core/protocol';
import type { TrayAction } from './tray-model.js';

export interface TrayActionTargets {
  /** Handles one command frame, as the service's `dispatch`. */
  dispatch(frame: string): Promise<void>;
  openWindow(): Promise<void>;
  quit(): Promise<void>;
  /** Opens the file manager on the content folder. */
  openVideosFolder(): Promise<void>;
  /** Whether a recording runs (Start or Stop recording). */
  isRecording(): boolean;
}

const command = (method: CommandName) => JSON.stringify({ Method: method, Parameters: {} });

export function performTrayAction(action: TrayAction, targets: TrayActionTargets): Promise<void> {
  switch (action) {
    case 'open':
      return targets.openWindow();
    case 'toggleRecording':
      return targets.dispatch(command(targets.isRecording() ? 'StopRecording' : 'StartRecording'));
    case 'saveReplay':
      return targets.dispatch(command('SaveReplayBuffer'));
    case 'openVideos':
      return targets.openVideosFolder();
    case 'quit':
      return targets.quit();
  }
}
