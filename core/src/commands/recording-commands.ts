// StartRecording, StopRecording, and the keybind actions of a running recording: SaveReplayBuffer
// and TogglePreview (extensions, so that a frontend or a desktop bridge can send them).
import { injectable } from 'tsyringe';
import { RecorderService } from '../recording/recorder-service.js';
import { StartupProgress } from '../support/startup-progress.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class RecordingCommands implements CommandGroup {
  constructor(
    private readonly recorder: RecorderService,
    private readonly startup: StartupProgress,
  ) {}

  readonly handlers: CommandHandlers = {
    // Early after start-up, the capture engine may still be probed and the free space not yet followed
    // (the storage check starts with the library's): the recording waits for both.
    StartRecording: async () => {
      await Promise.all([this.startup.loaded('captureEngine'), this.startup.loaded('library')]);
      return this.recorder.start();
    },
    StopRecording: async () => {
      await this.recorder.stop();
    },
    SaveReplayBuffer: async () => {
      await this.recorder.saveReplayBuffer();
    },
    TogglePreview: () => {
      this.recorder.togglePreview();
    },
  };
}
